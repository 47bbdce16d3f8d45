import type pg from 'pg';
import type { Logger } from 'pino';
import type { AppConfig } from '../config';
import { ApiError } from '../errors';
import { writeMetadataCache, type IndexStore, type IndexStoreKind } from '../indexdb';
import type { MetricsJson } from '../metrics';
import type { CommittedMcBlock, Indexer, IndexStatus } from './indexer';
import { MetadataFetcher, type MetadataRequests } from './metadataFetch';

/**
 * What the rest of the server asks of the index, whether its pipeline runs on this thread
 * (`startIndex`: the `index` command, tests) or in its own worker thread (`startIndexThread`:
 * `startServer`, so the API's event loop only serves).
 */

/** What the v3 routes and the health check ask of the index. */
export interface IndexHealth {
  /** false: answer v3 with 503 (the store is still opening, the database is away or the index stopped). */
  readonly available: boolean;
  readonly reason: string | null;
  readonly status: IndexStatus;
}

/**
 * What the API's thread is told of each committed masterchain block: its seqno and the rows the
 * pending traces (src/emulate) match against. The index thread sends only these (a catch-up
 * commits a block every few ms: its whole rows, cloned, then revived on the API's loop, were
 * most of what the index cost the API there).
 */
export interface CommittedBlockRows {
  readonly mcSeqno: number;
  readonly transactions: readonly Pick<CommittedMcBlock['transactions'][number], 'trace_id' | 'account' | 'aborted' | 'compute_skipped' | 'compute_exit_code'>[];
  /** Inbound messages only (the only ones pending traces look at). */
  readonly messages: readonly Pick<CommittedMcBlock['messages'][number], 'msg_hash' | 'direction' | 'source'>[];
  readonly traces: readonly Pick<CommittedMcBlock['traces'][number], 'trace_id' | 'external_hash' | 'external_hash_norm' | 'state' | 'nodes_'>[];
}

/** A `query` over the index's database (pg's signature). */
export type IndexQuery = Pick<pg.Pool, 'query'>;

/** The index's database as readers reach it: `pool` (the primary) and `readPool` (--database-read-url, else the primary). */
export interface IndexReads {
  readonly pool: IndexQuery;
  readonly readPool: IndexQuery;
}

/** The text v3 and streaming answer with (503) while the store opens. */
export const INDEX_STARTING = 'the index is starting (its database is opening)';

export interface IndexService {
  /** Which database, known before it is open (postgres with --database-url). */
  readonly kind: IndexStoreKind;
  /** Resolves once the store is open and migrated and the pipeline runs; rejects if it cannot open. */
  readonly ready: Promise<unknown>;
  /** The open store's reads, or null while the store is opening (or failed to). */
  opened(): { readonly store: IndexReads } | null;
  /** The open store's reads; throws while it is opening (tests and code that ran after `ready`). */
  readonly store: IndexReads;
  health(): IndexHealth;
  /** Each committed masterchain block, in order (what the API needs of it); returns the unsubscribe function. */
  onBlock(listener: (block: CommittedBlockRows) => void): () => void;
  /**
   * The newest committed masterchain block's seqno, nothing else (no rows cross from the index
   * thread, unlike `onBlock`); from the index thread once per batch of blocks committed within
   * 100 ms (a catch-up), not once per block; returns the unsubscribe function.
   */
  onCommit(listener: (mcSeqno: number) => void): () => void;
  /** Each rollback of a rewound chain (the last common masterchain seqno); returns the unsubscribe function. */
  onRollback(listener: (common: number) => void): () => void;
  /**
   * A `query` over the store's pool usable before it is open: until then it fails with the
   * domain error `unavailable` ("the index is starting"), as v3 answers.
   */
  readonly pool: IndexQuery;
  /** The off-chain metadata fetcher (`--metadata-fetch`), absent when off. */
  readonly metadata?: MetadataRequests & { settled(): Promise<void> };
  /**
   * The embedded chain was put back to block `seqno` by its controls: a pipeline with a lite pool
   * of its own (the index thread's) forgets the blocks it proved above it, as the API's pool does.
   */
  chainRewound?(seqno: number): void;
  /** The pipeline's metrics (src/metrics indexMetrics) where they are counted: this thread or the index thread. */
  metrics(): Promise<MetricsJson>;
  stop(): Promise<void>;
}

/** The store and its pipeline, once the store is open and migrated. */
export interface OpenIndex {
  readonly store: IndexStore;
  readonly indexer: Indexer;
}

/** The index with its pipeline on this thread: the store and the pipeline themselves. */
export interface LocalIndexService extends IndexService {
  readonly ready: Promise<OpenIndex>;
  opened(): OpenIndex | null;
  readonly store: IndexStore;
  readonly indexer: Indexer;
  /** The whole block, as the pipeline committed it. */
  onBlock(listener: (block: CommittedMcBlock) => void): () => void;
}

/**
 * `IndexService.pool`'s query: the open store's `pool()`, and until it is open the domain error
 * `unavailable` with `failure()` (why it cannot open) or INDEX_STARTING.
 */
export function queryOnceOpen(pool: () => IndexQuery | null, failure: () => string | null): IndexQuery['query'] {
  return ((...args: Parameters<IndexQuery['query']>) => {
    const open = pool();
    if (!open) {
      const reason = failure();
      return Promise.reject(new ApiError('unavailable', reason ? `the index cannot open: ${reason}` : INDEX_STARTING));
    }
    return (open.query as (...a: typeof args) => unknown)(...args);
  }) as IndexQuery['query'];
}

/** The off-chain metadata fetcher of `--metadata-fetch` (undefined when off), writing its cache through `query`. */
export function configuredMetadataFetcher(config: AppConfig, query: IndexQuery['query'], logger: Logger): MetadataFetcher | undefined {
  if (!config.metadataFetch) return undefined;
  return new MetadataFetcher(
    {
      timeoutMs: config.metadataFetchTimeout,
      maxBytes: config.metadataFetchMaxBytes,
      concurrency: config.metadataFetchConcurrency,
      allowPrivate: config.metadataFetchPrivate,
    },
    (row) => writeMetadataCache({ query }, row),
    logger.child({ component: 'metadata' }),
  );
}

/** The listeners of one kind of index event (`onBlock`, `onRollback`). */
export class IndexListeners<T> {
  private readonly listeners = new Set<(value: T) => void>();

  get size(): number {
    return this.listeners.size;
  }

  /** Adds one; returns its removal (IndexService's unsubscribe). */
  readonly add = (listener: (value: T) => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  emit(value: T): void {
    for (const listener of this.listeners) listener(value);
  }
}
