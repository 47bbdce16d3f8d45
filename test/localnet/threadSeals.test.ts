/**
 * The chain's thread reports each masterchain block's seal time when asked (`reportSeals`): the
 * index bench times seal to commit with the chain in its own thread, as `npm start` runs it.
 */
import pino from 'pino';
import { LocalnetThread } from '../../src/localnet';

const logger = pino({ level: 'silent' });

interface Seal {
  seqno: number;
  at: number;
  gcMs: number;
}

async function sealsOf(reportSeals: boolean): Promise<{ mined: number; seals: Seal[]; before: number; after: number; loop: number }> {
  const thread = await LocalnetThread.start({ accounts: 1, blockIntervalMs: 0, reportSeals }, 'silent', logger);
  try {
    const seals: Seal[] = [];
    thread.onSealed((seqno, at, gcMs) => seals.push({ seqno, at, gcMs }));
    const loopBefore = thread.threadLoop();
    const before = performance.timeOrigin + performance.now();
    await thread.mine();
    const { seqno } = await thread.mine();
    // The seal's message and the control's reply travel the same port, the seal first.
    const after = performance.timeOrigin + performance.now();
    return { mined: seqno, seals, before, after, loop: thread.threadLoop(loopBefore).active };
  } finally {
    await thread.stop();
  }
}

describe('seal times from the chain thread', () => {
  it('with reportSeals: the mined blocks, stamped on a clock comparable with this thread, with the collector pauses so far', async () => {
    const { mined, seals, before, after, loop } = await sealsOf(true);
    expect(seals.map((s) => s.seqno)).toEqual([mined - 1, mined]);
    expect(seals[0]!.at).toBeGreaterThanOrEqual(before - 5);
    expect(seals[1]!.at).toBeLessThanOrEqual(after + 5);
    // A running total since the thread started (starting the chain collects garbage).
    expect(seals[0]!.gcMs).toBeGreaterThan(0);
    expect(seals[1]!.gcMs).toBeGreaterThanOrEqual(seals[0]!.gcMs);
    // The chain's thread's own loop: it worked for the two seals.
    expect(loop).toBeGreaterThan(0);
  }, 60_000);

  it('without it: nothing is posted', async () => {
    const { seals } = await sealsOf(false);
    expect(seals).toEqual([]);
  }, 60_000);

  it('the thread collects between blocks once its heap has grown, and not when told to leave it to V8', async () => {
    const collectionsAfter = async (quietCollections: boolean | { growthFactor: number; minGrowthMb: number }): Promise<number[]> => {
      const thread = await LocalnetThread.start({ accounts: 1, blockIntervalMs: 0, reportSeals: true, quietCollections }, 'silent', logger);
      try {
        const counts: number[] = [];
        thread.onSealed((_seqno, _at, _gcMs, { quietCollections: count }) => counts.push(count));
        for (let i = 0; i < 5; i++) {
          await thread.mine();
          // Quiet, and nobody reads the blocks: the thread waits 250 ms for their readers (no
          // getBlock of them answered), then 25 ms with no lite query.
          await new Promise((resolve) => setTimeout(resolve, 350));
        }
        return counts;
      } finally {
        await thread.stop();
      }
    };
    // Any growth is enough: a seal whose heap grew since the last full collection collects at the
    // quiet moment after it (counted at the next seal).
    const eager = await collectionsAfter({ growthFactor: 1, minGrowthMb: 0 });
    expect(eager).toHaveLength(5);
    expect(eager[4]).toBeGreaterThanOrEqual(2);
    expect(await collectionsAfter(false)).toEqual([0, 0, 0, 0, 0]);
    // As built (1.2x, 64 MB more): a fresh chain's few blocks are far from it.
    expect(await collectionsAfter(true)).toEqual([0, 0, 0, 0, 0]);
  }, 120_000);
});
