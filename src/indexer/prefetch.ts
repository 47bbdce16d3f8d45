import type { BlockRef } from '../proofs';
import type { McBlockSource, PreparedMcBlock } from './mcBlockSource';

function quiet<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

/**
 * Masterchain blocks fetched and prepared ahead of their commit, from `first` upwards (the lanes
 * of the pipeline: the live one and the backfill). Each block's preparation needs the shard tops
 * of the one before it, so a block waits for its predecessor's head only, not its whole
 * preparation: the window fetches its blocks in parallel and the caller takes them in order.
 */
export class PrefetchWindow {
  /** The shard tops of each scheduled block, which the next one's preparation needs (not the whole head: its cells). */
  private readonly tops = new Map<number, Promise<readonly BlockRef[]>>();
  private readonly prepared = new Map<number, Promise<PreparedMcBlock>>();
  /** Blocks prepared and not taken yet: what a batch may add without waiting. */
  private readonly ready = new Map<number, PreparedMcBlock>();
  /** The last seqno scheduled. */
  scheduled: number;

  constructor(
    private readonly source: McBlockSource,
    private readonly first: number,
    /** The shard tops of the masterchain block before `first` (empty before the first block of the chain). */
    private readonly firstTops: readonly BlockRef[],
  ) {
    this.scheduled = first - 1;
  }

  /** Schedules every block up to `last`. */
  fill(last: number): void {
    while (this.scheduled < last) this.schedule(++this.scheduled);
  }

  private schedule(seqno: number): void {
    const head = quiet(this.source.head(seqno));
    this.tops.set(seqno, quiet(head.then((h) => h.parsed.shardTops)));
    const prepared = quiet(
      (async () => {
        const tops = seqno === this.first ? this.firstTops : await this.tops.get(seqno - 1)!;
        const block = await this.source.prepare(await head, tops);
        if (this.prepared.has(seqno)) this.ready.set(seqno, block);
        return block;
      })(),
    );
    this.prepared.set(seqno, prepared);
  }

  /** Block `seqno` once prepared (it must be scheduled). */
  take(seqno: number): Promise<PreparedMcBlock> {
    return this.prepared.get(seqno)!;
  }

  /** Block `seqno` if it is prepared already. */
  readyBlock(seqno: number): PreparedMcBlock | undefined {
    return this.ready.get(seqno);
  }

  /** Forgets block `seqno` (committed). */
  done(seqno: number): void {
    this.tops.delete(seqno - 1);
    this.prepared.delete(seqno);
    this.ready.delete(seqno);
  }
}
