import { readdirSync, readFileSync } from 'node:fs';
import { lowerNodeThreads } from '../../src/platformThreads';

/** The nice value of thread `tid` of this process (field 19 of /proc/<pid>/task/<tid>/stat). */
function niceOf(tid: number): number {
  const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

const linux = process.platform === 'linux';

describe('Node\'s own threads at the index thread\'s priority', () => {
  (linux ? it : it.skip)('lowers the threads the process had when the module loaded, never the calling thread', () => {
    const before = readdirSync('/proc/self/task').map(Number);
    expect(niceOf(process.pid)).toBe(0);
    const lowered = lowerNodeThreads(10);
    // V8's platform workers at least (4 by default) were there before any test code ran.
    expect(lowered).toBeGreaterThanOrEqual(4);
    const others = before.filter((tid) => tid !== process.pid);
    const atTen = others.filter((tid) => {
      try {
        return niceOf(tid) === 10;
      } catch {
        return false; // ended meanwhile
      }
    });
    expect(atTen.length).toBeGreaterThanOrEqual(lowered - 1);
    // The API's own thread keeps its priority.
    expect(niceOf(process.pid)).toBe(0);
  });
});
