/**
 * The index thread's news of committed blocks to the API's thread, at most one message per
 * `intervalMs`. Live (a block every few hundred ms) each block still goes at once; catching up
 * (~90 blocks a second on the served 10 000-block chain) the blocks committed within an interval
 * go together in one message. Each message wakes the API's event loop and is decoded there: one
 * per block (two with the pending traces' rows) made that loop ~3x as busy during a catch-up as
 * idle at the same request rate, with ~10x its young collections (docs/benchmarks.md, "The index",
 * helper `catchup2x`), and each such turn is one a request can arrive behind.
 */

/** What one notice carries: the newest committed seqno and, when asked for, each block's rows in order. */
export interface CommitNotice<Rows> {
  readonly seqno: number;
  readonly blocks: Rows[];
}

export class CommitNotices<Rows> {
  private seqno: number | null = null;
  private blocks: Rows[] = [];
  private lastSentAt = -Infinity;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly intervalMs: number,
    private readonly send: (notice: CommitNotice<Rows>) => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Block `seqno` committed (`rows`: its rows, when the API's thread listens for them). */
  committed(seqno: number, rows?: Rows): void {
    this.seqno = seqno;
    if (rows !== undefined) this.blocks.push(rows);
    if (this.timer) return;
    const wait = this.lastSentAt + this.intervalMs - this.now();
    if (wait <= 0) {
      this.flush();
      return;
    }
    this.timer = setTimeout(() => this.flush(), wait);
  }

  /** Sends what is held now (before a rollback's message, so the API sees the blocks first; at stop). */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.seqno === null) return;
    const notice = { seqno: this.seqno, blocks: this.blocks };
    this.seqno = null;
    this.blocks = [];
    this.lastSentAt = this.now();
    this.send(notice);
  }
}
