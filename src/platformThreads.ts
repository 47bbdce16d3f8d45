/**
 * Node's own threads (V8's platform workers, its delayed-task runner), found as the threads the
 * process has when this module loads (main.ts imports it first: before any worker thread, libuv's
 * thread pool or TVM thread exists). V8's platform workers are shared by every isolate of the
 * process: the index thread's concurrent garbage collection and optimizing compiles run there,
 * not in the index thread. During a catch-up they took ~9 CPU-s of 20 s (perf: a third compiling,
 * a third marking and sweeping), at the API's priority, undoing the index thread's nice value
 * (docs/benchmarks.md, "The index": the API's thread waited for a core 0.44-0.52 ms a time slice
 * during the catch-up, 0.15-0.24 idle).
 */
import { readdirSync } from 'node:fs';
import { setPriority } from 'node:os';

function threadIds(): number[] {
  try {
    return readdirSync('/proc/self/task')
      .map(Number)
      .filter((tid) => Number.isInteger(tid) && tid !== process.pid);
  } catch {
    // No /proc (not Linux): nothing to lower.
    return [];
  }
}

const startupThreads = threadIds();

/**
 * Gives Node's own threads nice value `nice` (Linux keeps it per thread). The API isolate's
 * concurrent marking and compiles run there too, so they wait for a core behind the API's thread
 * as the index's do; its own thread (which finishes a marking itself when it needs it) keeps its
 * priority. Returns how many threads were lowered; a failure (no permission, not Linux) lowers none.
 */
export function lowerNodeThreads(nice: number): number {
  let lowered = 0;
  for (const tid of startupThreads) {
    try {
      setPriority(tid, nice);
      lowered++;
    } catch {
      // The thread ended, or the platform does not allow it: the index runs as before.
    }
  }
  return lowered;
}
