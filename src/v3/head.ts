import { v3HeadPublishDelay, v3HeadWarmKeys } from '../metrics';
import type { V3Database } from './db';

/**
 * The index's head as the READ database shows it (its `index_checkpoint` row), for the v3
 * answers cached "at the head": an answer is kept under a key holding this head and is valid until
 * the head changes. It is read from the database the routes read (`--database-read-url`, a
 * replica, when given), never from the writer's own news: a replica behind the primary then keys
 * its answers by the head it has, not by one whose rows it does not hold yet.
 *
 * One query at a time: a poll every `pollMs`, and at once when `refresh()` says this process's
 * index committed (or rolled back). Without warming, and after a rollback, `current()` is then the
 * coming read (a promise: the requests of those few ms wait for the new head rather than compute
 * without the cache, at most HEAD_WAIT_MS). With warming (`--v3-head-warm`), a newer head read is
 * a candidate: the keys read at the published head are computed for it first (`warmUp`), while
 * requests go on with the published head's entries, and it is published when they are done or
 * `maxDelayMs` after the commit was reported, whichever is first. While the database fails, and
 * when the last good read was sent more than `staleAfterMs` ago, it is undefined and nothing is
 * cached: a stuck or failing database never keeps an old head alive.
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
  /**
   * The head to key answers by now: the PUBLISHED head (or the read of it under way), undefined
   * when it is not known (cache nothing).
   */
  current(): IndexHead | undefined | Promise<IndexHead | undefined>;
  /**
   * A newer head than `current()`, read and not yet published while the keys read at the
   * published head are computed again for it (`--v3-head-warm`): an answer the published head's
   * entries do not hold is computed and kept under this one. Undefined otherwise.
   */
  warming?(): IndexHead | undefined;
  /**
   * A key was read at the published head (`id`: the key without its head; `warm` computes and
   * keeps its answer at a given head, true when it was kept): it is computed again for the next
   * head before that head is published.
   */
  readAt?(id: string, warm: WarmKey): void;
}

/** Computes and keeps a key's answer at `head`; false when it was not kept (too large, off-chain data) or failed. */
export type WarmKey = (head: IndexHead) => Promise<boolean>;

/** Longest a request waits for the head read after a commit report, ms; then it is answered without the cache. */
export const HEAD_WAIT_MS = 100;

/**
 * Keys computed at once while a head warms (`--v3-head-warm-concurrency`): each waits for its
 * database round trip, so the warm makes about this many keys a turn of the event loop, a turn
 * being as long as the requests in it take (~30 ms at 50 connections on a busy machine: 2 at
 * a time warmed 10 keys in 143-157 ms). More is more CPU in one turn in front of the requests.
 */
export const WARM_CONCURRENCY = 4;

export interface HeadWarmOptions {
  /**
   * Longest a newer head waits to be published, ms, from when it was reported (this process's
   * commit) or read (another's): then it is published with what is warm, and the rest computes at
   * its first request. The longest an answer trails a committed head, beside the poll.
   */
  readonly maxDelayMs: number;
  /** Most keys remembered for warming (the most recently read kept). */
  readonly maxKeys: number;
  /** Keys computed at once (`--v3-head-warm-concurrency`); default WARM_CONCURRENCY. */
  readonly concurrency?: number;
}

export interface IndexHeadWatcherOptions {
  /** Time between two reads, ms. */
  readonly pollMs: number;
  /** A head read (its query sent) longer ago than this is not used, ms; default 10 polls, at least 1 s. */
  readonly staleAfterMs?: number;
  /**
   * Warm the keys read at the published head before publishing a newer one (absent or
   * maxDelayMs 0: a newer head is published as soon as it is read, and after this process's
   * commit report requests wait for that read).
   */
  readonly warm?: HeadWarmOptions;
  /** False while the index says its database is away: no head then (the routes answer 503 as without the cache). */
  readonly available?: () => boolean;
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

/**
 * The keys read at the last published heads, most recently read last (a Map's order), at most
 * `maxKeys`: each with how to warm it and the publication it was last read under.
 */
class HotKeys {
  private readonly keys = new Map<string, { warm: WarmKey; publication: number }>();

  constructor(private readonly maxKeys: number) {}

  read(id: string, warm: WarmKey, publication: number): void {
    this.keys.delete(id);
    this.keys.set(id, { warm, publication });
    if (this.keys.size > this.maxKeys) this.keys.delete(this.keys.keys().next().value as string);
  }

  drop(id: string): void {
    this.keys.delete(id);
  }

  /** The keys read under publication `since` or later, most recently read first; the older are forgotten. */
  due(since: number): { id: string; warm: WarmKey }[] {
    const due: { id: string; warm: WarmKey }[] = [];
    for (const [id, key] of this.keys) {
      if (key.publication < since) this.keys.delete(id);
      else due.push({ id, warm: key.warm });
    }
    return due.reverse();
  }

  get size(): number {
    return this.keys.size;
  }
}

export class IndexHeadWatcher implements IndexHeadSource {
  /** The published head: what requests key by. */
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
  /** With warming: the head read and not yet published, and when the first unpublished change was known. */
  private candidate: IndexHead | undefined;
  private lastReadAt = 0;
  private unpublishedSince: number | undefined;
  private deadline: NodeJS.Timeout | undefined;
  private warmingNow = false;
  /** Bumped at every publication: the hot keys are stamped with it. */
  private publication = 0;
  private readonly hot: HotKeys | undefined;
  private readonly warm: HeadWarmOptions | undefined;

  constructor(
    private readonly db: V3Database,
    private readonly options: IndexHeadWatcherOptions,
  ) {
    this.staleAfterMs = options.staleAfterMs ?? Math.max(1000, options.pollMs * 10);
    if (options.warm && options.warm.maxDelayMs > 0 && options.warm.maxKeys > 0) {
      this.warm = options.warm;
      this.hot = new HotKeys(options.warm.maxKeys);
    }
  }

  /** Starts polling (the first read at once). */
  start(): this {
    void this.read();
    return this;
  }

  current(): IndexHead | undefined | Promise<IndexHead | undefined> {
    if (this.options.available && !this.options.available()) return undefined;
    if (this.coming) return this.coming.promise;
    const head = this.head;
    if (!head || performance.now() - Math.max(head.sentAt, this.lastReadAt) > this.staleAfterMs) return undefined;
    return head.value;
  }

  warming(): IndexHead | undefined {
    return this.candidate;
  }

  readAt(id: string, warm: WarmKey): void {
    this.hot?.read(id, warm, this.publication);
  }

  /**
   * The index of this process committed a block (`rollback` false) or rolled back. Without
   * warming, and after a rollback (the published head's answers may be of blocks no longer in the
   * chain), the head known so far is dropped at once (requests wait for the next read, at most
   * HEAD_WAIT_MS, then nothing is cached until it is read). With warming, after a commit, the
   * published head stays while the new one is read and its hot keys computed, at most
   * `maxDelayMs` from now.
   */
  refresh(rollback = false): void {
    if (this.stopped) return;
    this.generation++;
    if (this.warm && !rollback) {
      this.unpublishedSince ??= performance.now();
      this.armDeadline();
    } else {
      this.head = undefined;
      this.dropCandidate();
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
    this.dropCandidate();
    clearTimeout(this.timer);
    this.settleComing();
  }

  /** The requests waiting for the head after a commit report get what is known now. */
  private settleComing(): void {
    const coming = this.coming;
    this.coming = undefined;
    coming?.resolve(this.current() as IndexHead | undefined);
  }

  private dropCandidate(): void {
    this.candidate = undefined;
    this.unpublishedSince = undefined;
    clearTimeout(this.deadline);
    this.deadline = undefined;
  }

  /**
   * The bound on how long a newer head waits: at the deadline it is published with what is warm;
   * if it has not been read yet (a commit reported, its read slow), the published head is dropped
   * (nothing cached until the read), so no answer trails a reported commit by more than the bound.
   */
  private armDeadline(): void {
    if (this.deadline || this.unpublishedSince === undefined || !this.warm) return;
    const wait = Math.max(0, this.unpublishedSince + this.warm.maxDelayMs - performance.now());
    this.deadline = setTimeout(() => {
      this.deadline = undefined;
      if (this.candidate) this.publish(this.candidate, 'deadline');
      else {
        this.head = undefined;
        this.unpublishedSince = undefined;
      }
    }, wait);
    this.deadline.unref();
  }

  private publish(head: IndexHead, why: 'warm' | 'deadline' | 'at_once'): void {
    if (this.unpublishedSince !== undefined) v3HeadPublishDelay.observe({ why }, (performance.now() - this.unpublishedSince) / 1000);
    this.head = { value: head, sentAt: this.lastReadAt };
    this.publication++;
    this.dropCandidate();
  }

  /** A head read (of the current generation), or undefined: no checkpoint row, or the database failed. */
  private seen(head: IndexHead | undefined, sentAt: number): void {
    if (!head) {
      this.head = undefined;
      this.dropCandidate();
      return;
    }
    this.lastReadAt = sentAt;
    const published = this.head?.value;
    if (published && head.token === published.token) {
      // Nothing new (a commit of the writer a replica does not hold yet, or a report raced by the poll).
      this.head = { value: published, sentAt };
      this.dropCandidate();
      return;
    }
    const back = published && (head.mcSeqno < published.mcSeqno || (head.mcSeqno === published.mcSeqno && !head.rootHash.equals(published.rootHash)));
    // No warming, nothing published to serve meanwhile, or the chain went back (the published
    // head's answers may be of blocks it no longer holds): published at once.
    if (!this.warm || !this.hot || !published || back) {
      this.publish(head, 'at_once');
      return;
    }
    this.candidate = head;
    this.unpublishedSince ??= sentAt;
    if (this.hot.due(this.publication - 1).length === 0) {
      this.publish(head, 'at_once');
      return;
    }
    this.armDeadline();
    if (!this.warmingNow) void this.warmUp();
  }

  /**
   * Computes the hot keys at the candidate head, `concurrency` at a time, yielding to the event
   * loop between two (requests meanwhile are answered from the published head's entries), then
   * publishes it. A newer candidate read meanwhile restarts the round for it; the deadline may
   * publish first.
   */
  private async warmUp(): Promise<void> {
    const hot = this.hot!;
    this.warmingNow = true;
    try {
      for (;;) {
        const target = this.candidate;
        if (!target || this.stopped) return;
        const due = hot.due(this.publication - 1);
        let next = 0;
        const worker = async () => {
          while (next < due.length && this.candidate === target) {
            const key = due[next++]!;
            const kept = await key.warm(target);
            v3HeadWarmKeys.inc({ outcome: kept ? 'kept' : 'not_kept' });
            if (!kept) hot.drop(key.id);
            await new Promise<void>((resolve) => setImmediate(resolve));
          }
        };
        await Promise.all(Array.from({ length: Math.min(due.length, this.warm!.concurrency ?? WARM_CONCURRENCY) }, worker));
        if (this.candidate === target) {
          this.publish(target, 'warm');
          return;
        }
      }
    } finally {
      this.warmingNow = false;
    }
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
        this.seen(
          row
            ? {
                mcSeqno: row.mc_seqno,
                rootHash: row.root_hash,
                token: `${row.mc_seqno}:${row.root_hash.toString('hex')}:${row.committed_at}:${row.first_mc_seqno}:${row.backfill_next ?? ''}`,
              }
            : undefined,
          sentAt,
        );
      }
    } catch {
      // The database is away (or the index stopped): no head, so no cached answer, until a read succeeds.
      if (generation === this.generation) this.seen(undefined, sentAt);
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
