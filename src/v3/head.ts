import type { V3Database } from './db';

/**
 * The index's head as the READ database shows it (its `index_checkpoint` row), for the v3
 * answers cached "at the head": an answer is kept under a key holding this head and is valid until
 * the head changes. It is read from the database the routes read (`--database-read-url`, a
 * replica, when given), never from the writer's own news: a replica behind the primary then keys
 * its answers by the head it has, not by one whose rows it does not hold yet.
 *
 * One query at a time: a poll every `pollMs`, and at once when `refresh()` says this process's
 * index committed (or rolled back). After such news `current()` is the coming read (a promise:
 * the requests of those few ms wait for the new head rather than compute without the cache, at
 * most HEAD_WAIT_MS). While the database fails, and when the last good read was sent more than
 * `staleAfterMs` ago, it is undefined and nothing is cached: a stuck or failing database never
 * keeps an old head alive.
 */

export interface IndexHead {
  readonly mcSeqno: number;
  readonly rootHash: Buffer;
  /**
   * Everything the checkpoint row says, as one text: the seqno and root hash, the commit's time
   * (`committed_at`, set by every commit and every rollback, so a chain rolled back to a block it
   * held before gets another key than the answers made when the index first held that block), the
   * first block (retention moves it) and the backfill's progress.
   */
  readonly token: string;
}

export interface IndexHeadSource {
  /** The head to key answers by now (or the read of it under way), undefined when it is not known (cache nothing). */
  current(): IndexHead | undefined | Promise<IndexHead | undefined>;
}

/** Longest a request waits for the head read after a commit report, ms; then it is answered without the cache. */
export const HEAD_WAIT_MS = 100;

export interface IndexHeadWatcherOptions {
  /** Time between two reads, ms. */
  readonly pollMs: number;
  /** A head read (its query sent) longer ago than this is not used, ms; default 10 polls, at least 1 s. */
  readonly staleAfterMs?: number;
}

/** One statement, one row (the checkpoint's primary key): committed_at as text keeps its microseconds. */
const HEAD_SQL =
  'select mc_seqno, root_hash, first_mc_seqno, committed_at::text as committed_at, backfill_next from index_checkpoint where id = 1';

interface HeadRow {
  mc_seqno: number;
  root_hash: Buffer;
  first_mc_seqno: number;
  committed_at: string;
  backfill_next: number | null;
}

export class IndexHeadWatcher implements IndexHeadSource {
  private head: { value: IndexHead; sentAt: number } | undefined;
  /** Bumped by refresh(): a read sent before it may hold the head before a commit, so its result is dropped. */
  private generation = 0;
  private reading = false;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly staleAfterMs: number;
  /** After a commit report, until a read of its generation ends: what `current()` gives. */
  private coming: { promise: Promise<IndexHead | undefined>; resolve(head: IndexHead | undefined): void } | undefined;

  constructor(
    private readonly db: V3Database,
    private readonly options: IndexHeadWatcherOptions,
  ) {
    this.staleAfterMs = options.staleAfterMs ?? Math.max(1000, options.pollMs * 10);
  }

  /** Starts polling (the first read at once). */
  start(): this {
    void this.read();
    return this;
  }

  current(): IndexHead | undefined | Promise<IndexHead | undefined> {
    if (this.coming) return this.coming.promise;
    const head = this.head;
    if (!head || performance.now() - head.sentAt > this.staleAfterMs) return undefined;
    return head.value;
  }

  /**
   * The index of this process committed a block or rolled back: the head known so far is
   * dropped at once (nothing is cached until it is read again) and read now.
   */
  refresh(): void {
    if (this.stopped) return;
    this.generation++;
    this.head = undefined;
    if (!this.coming) {
      let resolve!: (head: IndexHead | undefined) => void;
      const read = new Promise<IndexHead | undefined>((settle) => (resolve = settle));
      let timer: NodeJS.Timeout | undefined;
      const bounded = new Promise<undefined>((settle) => {
        timer = setTimeout(() => settle(undefined), HEAD_WAIT_MS);
        timer.unref();
      });
      this.coming = {
        promise: Promise.race([read, bounded]),
        resolve: (head) => {
          clearTimeout(timer);
          resolve(head);
        },
      };
    }
    if (this.reading) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    void this.read();
  }

  stop(): void {
    this.stopped = true;
    this.head = undefined;
    clearTimeout(this.timer);
    this.settleComing();
  }

  /** The requests waiting for the head after a commit report get what is known now. */
  private settleComing(): void {
    const coming = this.coming;
    this.coming = undefined;
    coming?.resolve(this.current() as IndexHead | undefined);
  }

  private async read(): Promise<void> {
    if (this.stopped) return;
    this.reading = true;
    this.again = false;
    const generation = this.generation;
    const sentAt = performance.now();
    try {
      const row = (await this.db.query<HeadRow>(HEAD_SQL, []))[0];
      if (generation === this.generation) {
        this.head = row
          ? {
              sentAt,
              value: {
                mcSeqno: row.mc_seqno,
                rootHash: row.root_hash,
                token: `${row.mc_seqno}:${row.root_hash.toString('hex')}:${row.committed_at}:${row.first_mc_seqno}:${row.backfill_next ?? ''}`,
              },
            }
          : undefined;
      }
    } catch {
      // The database is away (or the index stopped): no head, so no cached answer, until a read succeeds.
      if (generation === this.generation) this.head = undefined;
    } finally {
      this.reading = false;
    }
    if (generation === this.generation) this.settleComing();
    if (this.stopped) return;
    if (this.again) {
      void this.read();
      return;
    }
    this.timer = setTimeout(() => void this.read(), this.options.pollMs);
    // The poll never holds the process open (it stops with the server; tests may not stop it).
    this.timer.unref();
  }
}
