import { readdirSync, readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { idleScheduling, ownThreadId, SCHED_IDLE } from '../../src/indexer';

/** Thread `tid`'s scheduling policy (field 41 of /proc/self/task/<tid>/stat): 0 normal, 5 SCHED_IDLE. */
function policyOf(tid: number): number {
  const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[38]);
}

const linux = process.platform === 'linux';

/** A worker thread that reports its kernel thread id (ownThreadId in it) and stays until terminated. */
async function parkedWorker(): Promise<{ worker: Worker; tid: number }> {
  const source = `
    const { parentPort } = require('node:worker_threads');
    const { readlinkSync } = require('node:fs');
    parentPort.postMessage(Number(readlinkSync('/proc/thread-self').split('/').pop()));
    setInterval(() => {}, 1000);
  `;
  const worker = new Worker(source, { eval: true });
  const tid = await new Promise<number>((resolve) => worker.once('message', resolve));
  return { worker, tid };
}

describe('SCHED_IDLE for the index\'s threads (src/indexer/threadPriority.ts)', () => {
  (linux ? it : it.skip)('names the calling thread: the main thread is the process', () => {
    expect(ownThreadId()).toBe(process.pid);
    expect(readdirSync('/proc/self/task').map(Number)).toContain(ownThreadId());
  });

  (linux ? it : it.skip)('puts the named threads under SCHED_IDLE, and only those', async () => {
    const a = await parkedWorker();
    const b = await parkedWorker();
    try {
      expect(policyOf(a.tid)).toBe(0);
      expect(await idleScheduling([a.tid])).toBe(1);
      expect(policyOf(a.tid)).toBe(SCHED_IDLE);
      expect(policyOf(b.tid)).toBe(0);
      expect(policyOf(process.pid)).toBe(0);
      // A thread that is gone is counted out, not thrown.
      expect(await idleScheduling([2 ** 22 + 7])).toBe(0);
    } finally {
      await a.worker.terminate();
      await b.worker.terminate();
    }
  });
});
