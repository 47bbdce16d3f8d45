import { TvmSlots } from '../../src/indexer/tvmSlots';

/**
 * Token detection's get-methods across the blocks being prepared (src/indexer/tvmSlots.ts): at
 * most `limit` under way, and the waiting ones admitted oldest masterchain block first, so a
 * later block's runs never hold back the block the pipeline commits next.
 */
describe('TVM slots of token detection, oldest block first', () => {
  /** A run that finishes when told to, recording when it started. */
  function gate(started: string[], name: string) {
    let finish: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (finish = resolve));
    return {
      work: async () => {
        started.push(name);
        await done;
        return name;
      },
      finish: () => finish(),
    };
  }

  const turn = () => new Promise((resolve) => setImmediate(resolve));

  it('runs at most `limit` at once and admits the oldest block first, in arrival order within a block', async () => {
    const slots = new TvmSlots(2);
    const started: string[] = [];
    const runs = [
      { seqno: 10, name: 'a' },
      { seqno: 10, name: 'b' },
      { seqno: 12, name: 'c' },
      { seqno: 11, name: 'd' },
      { seqno: 12, name: 'e' },
      { seqno: 11, name: 'f' },
    ].map(({ seqno, name }) => {
      const g = gate(started, name);
      return { g, result: slots.run(seqno, g.work) };
    });
    await turn();
    expect(started).toEqual(['a', 'b']);
    expect(slots.load).toEqual({ running: 2, waiting: 4 });
    runs[0]!.g.finish();
    await turn();
    // Block 11 arrived after block 12 but is older: its runs go first, in their order.
    expect(started).toEqual(['a', 'b', 'd']);
    runs[1]!.g.finish();
    runs[3]!.g.finish();
    await turn();
    expect(started).toEqual(['a', 'b', 'd', 'f', 'c']);
    for (const run of runs) run.g.finish();
    expect(await Promise.all(runs.map((run) => run.result))).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(started).toEqual(['a', 'b', 'd', 'f', 'c', 'e']);
    expect(slots.load).toEqual({ running: 0, waiting: 0 });
  });

  it('a run that fails gives its slot back', async () => {
    const slots = new TvmSlots(1);
    await expect(slots.run(1, () => Promise.reject(new Error('trap')))).rejects.toThrow('trap');
    expect(slots.load).toEqual({ running: 0, waiting: 0 });
    expect(await slots.run(2, () => Promise.resolve('next'))).toBe('next');
  });

  it('a newcomer does not pass runs already waiting, even when a slot is free at that moment', async () => {
    const slots = new TvmSlots(1);
    const started: string[] = [];
    const first = gate(started, 'first');
    const older = gate(started, 'older');
    const p1 = slots.run(5, first.work);
    const p2 = slots.run(3, older.work);
    await turn();
    first.finish();
    await p1;
    const p3 = slots.run(4, () => (started.push('newer'), Promise.resolve('newer')));
    await turn();
    expect(started.slice(0, 2)).toEqual(['first', 'older']);
    older.finish();
    await Promise.all([p2, p3]);
    expect(started).toEqual(['first', 'older', 'newer']);
  });
});
