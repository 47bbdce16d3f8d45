/**
 * Full collections of the chain's thread at quiet moments, between blocks.
 *
 * At a steady load the chain's thread promotes every block it builds to V8's old generation (a
 * block's cells live through its 400 ms and its hot blocks after it, longer than two scavenges), so
 * the old generation grows ~12 MB/s at 50 transfers a second and V8 starts a full collection every
 * ~25 s. V8 picks that moment by heap size alone: in the live bench it always fell just after a
 * seal, while the followers (the index) read the new block, and its marking ran on this thread for
 * 400-600 ms of that read (docs/benchmarks.md, "Live: collections between blocks").
 *
 * This thread knows better when nobody waits on it: after a masterchain seal, once its blocks
 * were read (a getBlock of each answered: the index has them) and no lite query has run for
 * `quietMs`. "No query for 25 ms" alone was taken for "read" when the reader was slow to ask (its
 * thread waiting for a core: the index runs at a lower priority while it catches up), and the
 * collection then held the very read it was to avoid (a 562 ms block in the live bench beside a
 * busy loop). With no reader (no index), `readWaitMs` after the seal counts as read. There it
 * collects itself, when
 * its heap has grown enough since the last full collection that V8 would soon do it anyway, and
 * so V8's own trigger is not reached. Sends that arrive meanwhile wait for the collection; a
 * reader of the block does not.
 */

export interface QuietCollectionsOptions {
  /** The full collection (tvm's fullCollection()). */
  readonly collect: () => void;
  /** This thread's heap in use, bytes. */
  readonly heapUsed: () => number;
  /**
   * Collect once the heap is this many times what the last full collection left (default 1.2)...
   * It must stay under V8's own trigger: at 1.4 V8 came first in one run of the live bench, and
   * `npm start`'s heap policy (src/gcPolicy.ts, process-wide) sets V8's limit at 1.3x.
   */
  readonly growthFactor?: number;
  /** ...and at least this many bytes more (a small heap collects fast by itself). */
  readonly minGrowthBytes?: number;
  /** No lite query (but sends) for this long after a seal: the readers of the block are done. */
  readonly quietMs?: number;
  /** A round's blocks not all read by then: nobody reads them (no follower), quiet alone decides. */
  readonly readWaitMs?: number;
  /** Clock, ms (tests). */
  readonly now?: () => number;
  /** Told of each collection made here. */
  readonly onCollection?: (collection: QuietCollection) => void;
}

/** One full collection made at a quiet moment. */
export interface QuietCollection {
  readonly ms: number;
  readonly heapBeforeBytes: number;
  readonly heapAfterBytes: number;
}

export class QuietCollections {
  private readonly collect: () => void;
  private readonly heapUsed: () => number;
  private readonly growthFactor: number;
  private readonly minGrowthBytes: number;
  private readonly quietMs: number;
  private readonly readWaitMs: number;
  private readonly now: () => number;
  /** The newest round's blocks (root hashes, hex) no getBlock has been answered for yet. */
  private unread = new Set<string>();
  private sealedAt = -Infinity;
  /** The heap a full collection (ours or V8's) left. */
  private baselineBytes: number;
  private due = false;
  /** Lite queries being answered now (a query waiting for a future seqno is not counted). */
  private active = 0;
  private lastActivity = -Infinity;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly onCollection: (collection: QuietCollection) => void;

  constructor(options: QuietCollectionsOptions) {
    this.collect = options.collect;
    this.heapUsed = options.heapUsed;
    this.growthFactor = options.growthFactor ?? 1.2;
    this.minGrowthBytes = options.minGrowthBytes ?? 64 * 1024 * 1024;
    this.quietMs = options.quietMs ?? 25;
    this.readWaitMs = options.readWaitMs ?? 250;
    this.now = options.now ?? (() => performance.now());
    this.onCollection = options.onCollection ?? (() => undefined);
    this.baselineBytes = this.heapUsed();
  }

  /** The heap in use at which the next seal makes a collection due. */
  get thresholdBytes(): number {
    return Math.max(this.baselineBytes * this.growthFactor, this.baselineBytes + this.minGrowthBytes);
  }

  /**
   * A masterchain block was sealed (`blocks`: the root hashes of the round's new blocks, the
   * masterchain block's and its new shard blocks'): its readers come now; collect after them if the
   * heap is due.
   */
  sealed(blocks: readonly Buffer[] = []): void {
    if (this.stopped) return;
    this.unread = new Set(blocks.map((hash) => hash.toString('hex')));
    this.sealedAt = this.now();
    if (!this.due && this.heapUsed() >= this.thresholdBytes) this.due = true;
    // The readers of this block start now: quiet is counted from the seal at the earliest.
    this.lastActivity = Math.max(this.lastActivity, this.now());
    if (this.due) this.schedule(this.quietMs);
  }

  /** A lite query (other than a send) started being answered. */
  queryStarted(): void {
    this.active++;
    this.lastActivity = this.now();
  }

  /** A getBlock of the block with this root hash was answered. */
  blockRead(rootHash: Buffer): void {
    if (this.unread.size > 0) this.unread.delete(rootHash.toString('hex'));
  }

  /** That query was answered (or failed). */
  queryFinished(): void {
    this.active = Math.max(0, this.active - 1);
    this.lastActivity = this.now();
  }

  /**
   * A full collection happened (V8's own, ours seen again by a GC observer, or one made at start):
   * what it left is the new baseline, and a collection still due (no quiet moment came, e.g. a
   * follower catching up) is no longer due.
   */
  collected(): void {
    this.baselineBytes = this.heapUsed();
    this.due = false;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(ms: number): void {
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.check();
    }, ms);
    // The chain's timer and sockets keep the thread alive, not this.
    this.timer.unref();
  }

  private check(): void {
    if (!this.due || this.stopped) return;
    const now = this.now();
    const quietFor = now - this.lastActivity;
    const readWaitLeft = this.unread.size > 0 ? this.readWaitMs - (now - this.sealedAt) : 0;
    if (this.active > 0 || quietFor < this.quietMs || readWaitLeft > 0) {
      this.schedule(Math.max(1, this.quietMs - Math.max(0, quietFor), Math.min(readWaitLeft, this.quietMs)));
      return;
    }
    this.due = false;
    const heapBeforeBytes = this.heapUsed();
    const started = this.now();
    this.collect();
    const collection = { ms: this.now() - started, heapBeforeBytes, heapAfterBytes: this.heapUsed() };
    this.baselineBytes = collection.heapAfterBytes;
    this.onCollection(collection);
  }
}
