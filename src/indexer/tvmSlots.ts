/**
 * Token detection's get-methods across the blocks being prepared, oldest masterchain block first
 * (the order is the caller's number: the block's seqno, the backfill's after every live block's).
 * The pipeline prepares up to its fetch-ahead of blocks at once, each detecting up to 8 accounts
 * at once, and commits them in order: a run of a later block ahead of the next block's holds that
 * block's commit back for nothing. Runs past `limit` wait here, ordered by that number (then
 * arrival), instead of in the TVM pool's first-come queue; `limit` stays above the pool's threads
 * so a thread finds its next task queued while the answer of its last one crosses back. It also
 * keeps the index's bursts below the pool's queue bound, which refuses tasks past it (a refused
 * run is a transient failure: the whole pipeline restarted, its prepared blocks dropped).
 */
export class TvmSlots {
  private running = 0;
  /** Waiting runs with their block, kept sorted: lowest order first, then first come. */
  private readonly waiting: { readonly order: number; readonly start: () => void }[] = [];

  constructor(readonly limit: number) {}

  /** Runs `work` once fewer than `limit` runs are under way and no run of a lower order is waiting. */
  async run<T>(order: number, work: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit || this.waiting.length > 0) {
      await new Promise<void>((start) => {
        const entry = { order, start };
        let at = this.waiting.length;
        while (at > 0 && this.waiting[at - 1]!.order > order) at--;
        this.waiting.splice(at, 0, entry);
        this.admit();
      });
    } else {
      this.running++;
    }
    try {
      return await work();
    } finally {
      this.running--;
      this.admit();
    }
  }

  /** Runs under way and waiting (for tests and metrics). */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  private admit(): void {
    while (this.running < this.limit && this.waiting.length > 0) {
      this.running++;
      this.waiting.shift()!.start();
    }
  }
}
