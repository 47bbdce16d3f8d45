import { readdirSync } from 'node:fs';
import { lowerNodeThreads } from '../../src/platformThreads';
import { threadNice } from '../helpers/threadNice';

const linux = process.platform === 'linux';

describe('Node\'s own threads at the index thread\'s priority', () => {
  (linux ? it : it.skip)('lowers the threads the process had when the module loaded, never the calling thread', () => {
    const before = readdirSync('/proc/self/task').map(Number);
    expect(threadNice(process.pid)).toBe(0);
    const lowered = lowerNodeThreads(10);
    // V8's platform workers at least (4 by default) were there before any test code ran.
    expect(lowered).toBeGreaterThanOrEqual(4);
    const others = before.filter((tid) => tid !== process.pid);
    const atTen = others.filter((tid) => {
      try {
        return threadNice(tid) === 10;
      } catch {
        return false; // ended meanwhile
      }
    });
    expect(atTen.length).toBeGreaterThanOrEqual(lowered - 1);
    // The API's own thread keeps its priority.
    expect(threadNice(process.pid)).toBe(0);
  });
});
