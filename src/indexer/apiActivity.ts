/**
 * The API's requests as the index thread sees them: a counter in shared memory that the API's
 * thread bumps at each request and the index thread reads without a message. A catch-up uses it
 * to leave the API a core (indexer.ts, yieldsToApi): on 2 cores the pipeline's three busy threads
 * (its own, the chain's serving its reads, PostgreSQL's backend) made every v2 request wait for a
 * core, its p99 1.5-4.4x idle while the index caught up (docs/benchmarks.md).
 */

/** The API's side: counts the requests that come in (the HTTP server's every request). */
export class ApiActivityBoard {
  readonly buffer: SharedArrayBuffer;
  private readonly started: Int32Array;

  constructor() {
    this.buffer = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
    this.started = new Int32Array(this.buffer);
  }

  /** A request came in. */
  requestStarted(): void {
    // Wraps after 2^32 requests; the reader only compares it with what it saw last.
    Atomics.add(this.started, 0, 1);
  }
}

/** What the pipeline asks: has the API been serving lately? */
export interface ApiActivity {
  busy(): boolean;
}

/**
 * The index thread's side over the board's buffer: busy when a request came in within `recentMs`
 * of this reader's clock (seen as the counter moving between two reads). Not requests in flight:
 * an SSE subscription stays open for hours and asks for no core.
 */
export class ApiActivityView implements ApiActivity {
  private readonly started: Int32Array;
  private lastSeen: number;
  private lastChangeAt = Number.NEGATIVE_INFINITY;

  constructor(
    buffer: SharedArrayBuffer,
    private readonly recentMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.started = new Int32Array(buffer);
    this.lastSeen = Atomics.load(this.started, 0);
  }

  busy(): boolean {
    const now = this.now();
    const seen = Atomics.load(this.started, 0);
    if (seen !== this.lastSeen) {
      this.lastSeen = seen;
      this.lastChangeAt = now;
    }
    return now - this.lastChangeAt < this.recentMs;
  }
}
