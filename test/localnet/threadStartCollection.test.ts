/**
 * The chain's thread makes a full collection once restored from a large state file, before it
 * serves (the restore's garbage, collected before the chain seals under traffic), and a fresh
 * chain's thread (`npm start` as shipped) makes none.
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import pino from 'pino';
import { LocalnetThread } from '../../src/localnet';
import type { FromWorker, WorkerData } from '../../src/localnet/thread/protocol';

const logger = pino({ level: 'silent' });
const ENTRY = path.join(__dirname, '../../src/localnet/thread/workerEntry.js');

/** The chain's worker started as LocalnetThread.start does, with `collectAfterStart` as given: its first message. */
async function readyOf(collectAfterStart: boolean): Promise<FromWorker> {
  const workerData: WorkerData = { options: { accounts: 1, blockIntervalMs: 0 }, logLevel: 'silent', collectAfterStart };
  const worker = new Worker(ENTRY, { workerData });
  try {
    return await new Promise<FromWorker>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  } finally {
    await worker.terminate();
  }
}

describe("the chain thread's full collection after its start", () => {
  it('asked for (a large restored chain): made before the thread reports ready, and reported', async () => {
    const ready = await readyOf(true);
    expect(ready.type).toBe('ready');
    if (ready.type !== 'ready') return;
    expect(ready.startCollection).not.toBeNull();
    expect(ready.startCollection!.ms).toBeGreaterThanOrEqual(0);
    expect(ready.startCollection!.heapBeforeMb).toBeGreaterThan(0);
    expect(ready.startCollection!.heapAfterMb).toBeLessThanOrEqual(ready.startCollection!.heapBeforeMb);
  }, 60_000);

  it('not asked for: none', async () => {
    const ready = await readyOf(false);
    expect(ready.type === 'ready' && ready.startCollection).toBeNull();
  }, 60_000);

  it('a fresh chain started as npm start starts it makes none', async () => {
    const thread = await LocalnetThread.start({ accounts: 1, blockIntervalMs: 0 }, 'silent', logger);
    try {
      expect(thread.startCollection).toBeNull();
      expect((await thread.mine()).seqno).toBeGreaterThan(0);
    } finally {
      await thread.stop();
    }
  }, 60_000);
});
