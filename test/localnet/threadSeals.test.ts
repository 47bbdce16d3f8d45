/**
 * The chain's thread reports each masterchain block's seal time when asked (`reportSeals`): the
 * index bench times seal to commit with the chain in its own thread, as `npm start` runs it.
 */
import pino from 'pino';
import { LocalnetThread } from '../../src/localnet';

const logger = pino({ level: 'silent' });

async function sealsOf(reportSeals: boolean): Promise<{ mined: number; seals: { seqno: number; at: number }[]; before: number; after: number }> {
  const thread = await LocalnetThread.start({ accounts: 1, blockIntervalMs: 0, reportSeals }, 'silent', logger);
  try {
    const seals: { seqno: number; at: number }[] = [];
    thread.onSealed((seqno, at) => seals.push({ seqno, at }));
    const before = performance.timeOrigin + performance.now();
    const { seqno } = await thread.mine();
    // The seal's message and the control's reply travel the same port, the seal first.
    const after = performance.timeOrigin + performance.now();
    return { mined: seqno, seals, before, after };
  } finally {
    await thread.stop();
  }
}

describe('seal times from the chain thread', () => {
  it('with reportSeals: the mined block, stamped on a clock comparable with this thread', async () => {
    const { mined, seals, before, after } = await sealsOf(true);
    expect(seals.map((s) => s.seqno)).toEqual([mined]);
    expect(seals[0]!.at).toBeGreaterThanOrEqual(before - 5);
    expect(seals[0]!.at).toBeLessThanOrEqual(after + 5);
  }, 60_000);

  it('without it: nothing is posted', async () => {
    const { seals } = await sealsOf(false);
    expect(seals).toEqual([]);
  }, 60_000);
});
