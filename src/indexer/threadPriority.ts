/**
 * The index thread's priority follows what it does. Catching up (or backfilling) it is bulk work
 * beside an API that answers requests on the same cores: there it runs at INDEX_THREAD_NICE, so the
 * scheduler hands the API's thread a core first (getMasterchainInfo's p99 during a catch-up 4.45x
 * idle at the default priority, 2.73x at nice 10). At the head it is the latency of every block's
 * rows (issue 22: seal to commit p99 <= 300 ms), and a thread at nice 10 gets ~1/10 of a core's
 * turns beside a busy one at 0: with the chain's thread and a busy loop on the two cores, seal to
 * commit p99 was 546-907 ms at nice 10 and 194-261 ms at the default (docs/benchmarks.md, "The
 * index thread's priority at the head"). So it goes back to the priority it started at.
 *
 * Lowering a thread is always allowed; raising one back is not to an unprivileged process on Linux
 * (it needs CAP_SYS_NICE, or an RLIMIT_NICE that allows it). Without it the thread stays lowered
 * after its first catch-up, as it ran always before, and says so once.
 */

/** Sets the calling thread's nice value (node:os setPriority); throws when not allowed. */
export type SetNice = (nice: number) => void;

/** What the thread reports of its priority. */
export interface ThreadPriorityState {
  /** The nice value the thread runs at now. */
  readonly nice: number;
  /** Why it is at that value. */
  readonly reason: 'at_head' | 'catching_up' | 'cannot_raise' | 'cannot_lower';
}

export class IndexThreadPriority {
  private current: number;
  private raiseRefused = false;
  private lowerRefused = false;
  /** What the index does now, as last told. */
  private bulk = false;

  constructor(
    private readonly setNice: SetNice,
    /** The nice value the thread started at (the process's). */
    private readonly normal: number,
    /** The nice value while catching up. */
    private readonly low: number,
    /** Told of each change, and of each refusal (once a direction: a permission does not come back by itself). */
    private readonly onChange: (state: ThreadPriorityState, refused?: Error) => void,
  ) {
    this.current = normal;
  }

  get state(): ThreadPriorityState {
    if (this.current === this.normal) return { nice: this.current, reason: this.bulk && this.lowerRefused ? 'cannot_lower' : 'at_head' };
    return { nice: this.current, reason: !this.bulk && this.raiseRefused ? 'cannot_raise' : 'catching_up' };
  }

  /** The index's state now: `bulk` while catching up or backfilling. */
  follow(bulk: boolean): void {
    this.bulk = bulk;
    const wanted = bulk ? this.low : this.normal;
    if (wanted === this.current) return;
    const raising = wanted < this.current;
    if (raising ? this.raiseRefused : this.lowerRefused) return;
    try {
      this.setNice(wanted);
    } catch (err) {
      if (raising) this.raiseRefused = true;
      else this.lowerRefused = true; // not Linux, or a sandbox: the thread keeps its priority
      this.onChange(this.state, err as Error);
      return;
    }
    this.current = wanted;
    this.onChange(this.state);
  }
}
