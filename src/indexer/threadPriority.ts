import { execFile, execFileSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';

/**
 * Linux's SCHED_IDLE policy for the index's threads. A nice value only weights the share of a
 * core: at nice 10 a runnable index thread still gets ~10 % of the API thread's share, and the
 * scheduler lets it finish its slice before the API's thread when a request comes. A SCHED_IDLE
 * thread runs only when no normal thread wants the core, so the API's thread (and the chain's,
 * and PostgreSQL's backend) always go first; the index takes what is left, all of it on an idle
 * machine. Lowering a thread's own policy needs no privilege. Node has no binding for
 * sched_setscheduler: util-linux's `chrt` (in Debian's essential set, so in the Docker image's
 * bookworm base) sets it by thread id. Threads created later by a SCHED_IDLE thread inherit it
 * (PGlite's, the index's TVM threads), as they inherit the nice value.
 */

/** The calling thread's kernel id (Node names none: /proc/thread-self links to /proc/<pid>/task/<tid>), or undefined off Linux. */
export function ownThreadId(): number | undefined {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}

const chrtArgs = (tid: number): string[] => ['--idle', '-p', '0', String(tid)];

/**
 * Puts thread `tid` under SCHED_IDLE at once (a few ms for the spawn: used before the index thread
 * starts the threads that should inherit it). False when it could not (no chrt, not Linux, the
 * thread ended): the nice value set before stays the thread's only lowering.
 */
export function idleSchedulingSync(tid: number): boolean {
  try {
    execFileSync('chrt', chrtArgs(tid), { stdio: 'ignore', timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}

/** The same for several threads, without blocking the calling loop; resolves to how many were set. */
export async function idleScheduling(tids: readonly number[]): Promise<number> {
  const results = await Promise.all(
    tids.map(
      (tid) =>
        new Promise<boolean>((resolve) => {
          execFile('chrt', chrtArgs(tid), { timeout: 5000 }, (err) => resolve(!err));
        }),
    ),
  );
  return results.filter(Boolean).length;
}

/** SCHED_IDLE's number, as field 41 (policy) of /proc/<pid>/task/<tid>/stat shows it. */
export const SCHED_IDLE = 5;
