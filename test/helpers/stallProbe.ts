import fs from 'node:fs';
import { PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';

/**
 * The event-loop stall probe of the tests and `npm run bench -- hostile`: it runs in the test
 * process (the server under test runs in it too) and counts the main thread's own work, not the
 * OS running others nor the garbage collector's pauses.
 */

export interface StallReport {
  /** Longest gap between two ticks of a 5 ms timer, wall clock (includes the OS running others). */
  wallMs: number;
  /**
   * Longest gap during which the main thread ran code: the gap capped by the CPU time the main
   * thread used in it (10 ms resolution), less the garbage collector's pauses inside it. This is
   * what the code under test controls. On a loaded machine a tick comes late because the OS ran
   * someone else; in a long jest run a full collection of jest's own heap (every suite's modules)
   * can pause the loop for 100 ms and more whatever the code under test does. Neither is the code
   * blocking the loop.
   */
  busyMs: number;
  /** Longest garbage-collector pause seen while probing (reported, not counted in busyMs). */
  gcMs: number;
}

interface Gap {
  from: number;
  to: number;
  busy: number;
}

/** Gaps shorter than this are never the longest stall worth reporting; not kept. */
const GAP_KEPT_MS = 10;

/**
 * Measures how long the event loop went without turning; see StallReport for what counts. The
 * one stall probe of the tests and `npm run bench -- hostile`.
 */
export class StallProbe {
  private timer: NodeJS.Timeout | undefined;
  private observer: PerformanceObserver | undefined;
  private readonly pauses: PerformanceEntry[] = [];
  private readonly gaps: Gap[] = [];
  private lastWall = 0;
  private lastCpu = 0;
  private longestWall = 0;

  start(): this {
    this.observer = new PerformanceObserver((list) => this.pauses.push(...list.getEntries()));
    this.observer.observe({ entryTypes: ['gc'] });
    this.lastWall = performance.now();
    this.lastCpu = cpuMs();
    this.timer = setInterval(() => this.tick(), 5);
    return this;
  }

  private tick(): void {
    const wall = performance.now();
    const cpu = cpuMs();
    const gap = wall - this.lastWall;
    if (gap > this.longestWall) this.longestWall = gap;
    const busy = Math.min(gap, cpu - this.lastCpu);
    if (busy >= GAP_KEPT_MS) this.gaps.push({ from: this.lastWall, to: wall, busy });
    this.lastWall = wall;
    this.lastCpu = cpu;
  }

  stop(): StallReport {
    if (this.timer !== undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
      this.tick();
    }
    if (this.observer) {
      this.pauses.push(...this.observer.takeRecords());
      this.observer.disconnect();
      this.observer = undefined;
    }
    let busyMs = 0;
    for (const gap of this.gaps) {
      let paused = 0;
      for (const pause of this.pauses) {
        paused += Math.max(0, Math.min(gap.to, pause.startTime + pause.duration) - Math.max(gap.from, pause.startTime));
      }
      busyMs = Math.max(busyMs, gap.busy - paused);
    }
    const gcMs = this.pauses.reduce((longest, pause) => Math.max(longest, pause.duration), 0);
    return { wallMs: this.longestWall, busyMs, gcMs };
  }
}

const CLOCK_TICKS_PER_SECOND = 100;

/**
 * CPU time of this process's main thread (Linux: /proc/self/task/<pid>/stat; 10 ms resolution),
 * ms; null elsewhere. Not the whole process: zlib's and the GC's helper threads work beside the
 * event loop without blocking it.
 */
export function mainThreadCpuMs(): number | null {
  try {
    const stat = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    // Fields after the parenthesised name: state is field 3, utime 14, stime 15 (clock ticks).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

function cpuMs(): number {
  const main = mainThreadCpuMs();
  if (main !== null) return main;
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/**
 * Runs `work` under a stall probe; returns its result, the longest stall the code made (busyMs,
 * what tests compare with MAX_STALL_MS) and the whole report.
 */
export async function withStallProbe<T>(work: () => Promise<T>): Promise<{ result: T; stallMs: number; stall: StallReport }> {
  // Let the work of building the input (and the collection of its garbage) settle first.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const probe = new StallProbe().start();
  let stall: StallReport | undefined;
  try {
    const result = await work();
    stall = probe.stop();
    return { result, stallMs: stall.busyMs, stall };
  } finally {
    if (!stall) probe.stop();
  }
}

/**
 * The probe run up to `attempts` times, stopping at the first attempt under MAX_STALL_MS; for work
 * that can be repeated and is never served from a cache (sends, estimateFee, bodies the intake
 * refuses). One attempt can meet a burst the code does not control (a collection that the GC entries do not cover, the OS
 * charging a busy neighbour's cache misses to us); work that blocks the loop blocks it every time.
 * Returns the last result, the least stall and every report (for the failure message).
 */
export async function leastStall<T>(work: () => Promise<T>, attempts = 3): Promise<{ result: T; stallMs: number; stalls: StallReport[] }> {
  const stalls: StallReport[] = [];
  for (;;) {
    const { result, stall } = await withStallProbe(work);
    stalls.push(stall);
    if (stall.busyMs < MAX_STALL_MS || stalls.length >= attempts) {
      return { result, stallMs: Math.min(...stalls.map((report) => report.busyMs)), stalls };
    }
  }
}

/** What leastStall measured, less the work's result. */
export interface StallOutcome {
  stallMs: number;
  stalls: StallReport[];
}

/** Fails with every attempt's report when even the least stall reached MAX_STALL_MS. */
export function expectNoStall(outcome: StallOutcome): void {
  if (outcome.stallMs >= MAX_STALL_MS) {
    const attempts = outcome.stalls.map((s) => `busy ${s.busyMs.toFixed(0)} / wall ${s.wallMs.toFixed(0)} / gc ${s.gcMs.toFixed(0)} ms`);
    throw new Error(
      `the event loop was blocked ${outcome.stallMs.toFixed(0)} ms at least (bound ${MAX_STALL_MS} ms); attempts: ${attempts.join('; ')}`,
    );
  }
}

/**
 * Longest stretch of main-thread work a test allows while a hostile input is handled. The work
 * these tests keep off the event loop costs several times this (decoding an 8 190-cell BoC:
 * 200-600 ms); what stays on it measured ~30 ms on a quiet machine.
 */
export const MAX_STALL_MS = 100;
