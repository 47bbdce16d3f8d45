import { IndexThreadPriority, type ThreadPriorityState } from '../../src/indexer/threadPriority';

/** A thread's nice value as a kernel keeps it: lowering always allowed, raising only when `mayRaise`. */
function kernel(start: number, mayRaise: boolean) {
  let nice = start;
  const calls: number[] = [];
  return {
    calls,
    nice: () => nice,
    set: (wanted: number) => {
      calls.push(wanted);
      if (wanted < nice && !mayRaise) throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
      nice = wanted;
    },
  };
}

describe('the index thread priority', () => {
  it('lowers while catching up and goes back to where it started at the head', () => {
    const k = kernel(0, true);
    const told: ThreadPriorityState[] = [];
    const priority = new IndexThreadPriority(k.set, 0, 10, (state) => told.push(state));
    priority.follow(false);
    expect(k.calls).toEqual([]);
    priority.follow(true);
    priority.follow(true);
    expect(k.nice()).toBe(10);
    expect(priority.state).toEqual({ nice: 10, reason: 'catching_up' });
    priority.follow(false);
    expect(k.nice()).toBe(0);
    expect(told).toEqual([
      { nice: 10, reason: 'catching_up' },
      { nice: 0, reason: 'at_head' },
    ]);
    // A process started niced goes back to its own value, not to 0.
    const niced = kernel(5, true);
    const fromFive = new IndexThreadPriority(niced.set, 5, 10, () => undefined);
    fromFive.follow(true);
    fromFive.follow(false);
    expect(niced.calls).toEqual([10, 5]);
  });

  it('without the right to raise it stays low, says so once and asks no more', () => {
    const k = kernel(0, false);
    const told: { state: ThreadPriorityState; refused?: string }[] = [];
    const priority = new IndexThreadPriority(k.set, 0, 10, (state, refused) => told.push({ state, ...(refused ? { refused: refused.message } : {}) }));
    priority.follow(true);
    priority.follow(false);
    priority.follow(false);
    priority.follow(true);
    priority.follow(false);
    expect(k.nice()).toBe(10);
    expect(k.calls).toEqual([10, 0]);
    expect(priority.state).toEqual({ nice: 10, reason: 'cannot_raise' });
    expect(told).toEqual([{ state: { nice: 10, reason: 'catching_up' } }, { state: { nice: 10, reason: 'cannot_raise' }, refused: 'EACCES: permission denied' }]);
  });

  it('where a thread cannot be lowered either (not Linux), it keeps its priority and tries once', () => {
    const told: ThreadPriorityState[] = [];
    let calls = 0;
    const priority = new IndexThreadPriority(
      () => {
        calls++;
        throw new Error('ENOSYS');
      },
      0,
      10,
      (state) => told.push(state),
    );
    priority.follow(true);
    priority.follow(true);
    expect(calls).toBe(1);
    // It says why it is not at its catch-up priority while catching up, and is simply at the head after.
    expect(priority.state).toEqual({ nice: 0, reason: 'cannot_lower' });
    expect(told).toEqual([{ nice: 0, reason: 'cannot_lower' }]);
    priority.follow(false);
    expect(calls).toBe(1);
    expect(priority.state).toEqual({ nice: 0, reason: 'at_head' });
  });
});
