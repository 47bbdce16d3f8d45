/**
 * The block indexer: follows the verified masterchain, fetches and checks every block, parses it
 * with src/tlb and commits each masterchain block's rows into the index store (src/indexdb).
 * `startIndex` is what the server and the `index` command start; `IndexService.health()` is what
 * v3 routes check before reading (503 while the database is away); 'block' events feed streaming.
 */
import path from 'node:path';
import type { Logger } from 'pino';
import { useNativeCellHashing } from '../cells';
import type { AppConfig } from '../config';
import { ApiError } from '../errors';
import { IndexStore, IndexStoreError, writeMetadataCache, type IndexStoreKind } from '../indexdb';
import type { LitePool } from '../liteclient';
import { dnsRootsFor } from './dns';
import { Indexer, STARTING_STATUS, type CommittedMcBlock, type IndexStatus } from './indexer';
import { MetadataFetcher, type MetadataRequests } from './metadataFetch';

export { isConnectionError } from './connectionErrors';
export { Indexer, type CommittedMcBlock, type IndexStatus, type IndexState, type IndexerOptions } from './indexer';
export { verifiedBlockRoot, BlockFetcher } from './blockFetcher';
export { parseBlock, type ParsedBlock, type ParsedTransaction, type ParsedMessage } from './parseBlock';
export { indexMetrics } from '../metrics';
export { tokenEvents } from './tokenEvents';
export { LiveChainFollower, type ChainBlock, type LiveChainStatus, type LiveChainOptions } from './liveChain';
export { TokenDetector, NO_TOKENS, type BlockTokens, type TouchedAccount } from './tokenDetection';
export { dnsRootsFor, type DomainMethod } from './dns';
export { MetadataFetcher, fetchMetadataDocument, isPrivateAddress, MetadataFetchError, type MetadataFetchOptions, type MetadataRequests } from './metadataFetch';

/**
 * Whether the index runs: `--index`, else on with a database URL or with the embedded chain (its
 * PGlite store opens in the background, so the start is not held: docs/index.md, "Defaults").
 */
export function indexEnabled(config: AppConfig, embeddedChain: boolean): boolean {
  if (config.index !== undefined) return config.index === 'on';
  return config.databaseUrl !== undefined || embeddedChain;
}

/** The embedded database's directory: --index-dir, else `<state file>.index` beside --state-file, else none (memory). */
export function indexDirFor(config: AppConfig): string | null {
  if (config.indexDir) return config.indexDir;
  if (config.stateFile) return `${path.resolve(config.stateFile)}.index`;
  return null;
}

/** What the v3 routes and the health check ask of the index. */
export interface IndexHealth {
  /** false: answer v3 with 503 (the store is still opening, the database is away or the index stopped). */
  readonly available: boolean;
  readonly reason: string | null;
  readonly status: IndexStatus;
}

/** The store and its pipeline, once the store is open and migrated. */
export interface OpenIndex {
  readonly store: IndexStore;
  readonly indexer: Indexer;
}

export interface IndexService {
  /** Which database, known before it is open (postgres with --database-url). */
  readonly kind: IndexStoreKind;
  /** Resolves once the store is open and migrated and the pipeline runs; rejects if it cannot open. */
  readonly ready: Promise<OpenIndex>;
  /** The open store and pipeline, or null while the store is opening (or failed to). */
  opened(): OpenIndex | null;
  /** The open store; throws while it is opening (tests and code that ran after `ready`). */
  readonly store: IndexStore;
  readonly indexer: Indexer;
  health(): IndexHealth;
  /** Each committed masterchain block, in order; returns the unsubscribe function. */
  onBlock(listener: (block: CommittedMcBlock) => void): () => void;
  /** Each rollback of a rewound chain (the last common masterchain seqno); returns the unsubscribe function. */
  onRollback(listener: (common: number) => void): () => void;
  /**
   * A `query` over the store's pool usable before it is open: until then it fails with the
   * domain error `unavailable` ("the index is starting"), as v3 answers.
   */
  readonly pool: Pick<IndexStore['pool'], 'query'>;
  /** The off-chain metadata fetcher (`--metadata-fetch`), absent when off. */
  readonly metadata?: MetadataRequests & { settled(): Promise<void> };
  stop(): Promise<void>;
}

export interface StartIndexOptions {
  /**
   * Open the store in the background (the embedded PGlite takes seconds): startIndex returns at
   * once; v3 answers 503 "the index is starting" until it is open. The directory is still claimed
   * at once, so a directory in use stops the start. A later failure to open is logged and the
   * index stays unavailable with its reason.
   */
  readonly background?: boolean;
}

/** The text v3 and streaming answer with (503) while the store opens. */
export const INDEX_STARTING = 'the index is starting (its database is opening)';

/**
 * Opens the store (IndexStoreError on a bad URL or a newer schema) and starts the pipeline; with
 * `background` the open goes on after this returns.
 */
export async function startIndex(
  config: AppConfig,
  pool: LitePool,
  logger: Logger,
  embeddedChain: boolean,
  options: StartIndexOptions = {},
): Promise<IndexService> {
  // Verifying and parsing blocks is mostly cell hashing: Node's SHA-256, not @ton/crypto's JS one
  // (`ton-http-bridge index` and the bench start no API, which would have switched it).
  useNativeCellHashing();
  const indexLogger = logger.child({ component: 'index' });
  const kind: IndexStoreKind = config.databaseUrl ? 'postgres' : 'pglite';
  const indexDir = config.databaseUrl ? null : indexDirFor(config);
  // Read before anything opens: a mistyped address stops the start with its text.
  const dnsRoots = dnsRootsFor(config.network, (config.dnsCollections ?? '').split(',').map((a) => a.trim()).filter((a) => a !== ''));
  const claimed = kind === 'pglite' ? IndexStore.claimDirectory(indexDir) : undefined;
  const blockListeners = new Set<(block: CommittedMcBlock) => void>();
  const rollbackListeners = new Set<(common: number) => void>();
  let open: OpenIndex | null = null;
  let failure: string | null = null;
  let stopping: Promise<void> | undefined;
  const startedAt = Date.now();
  const ready = (async (): Promise<OpenIndex> => {
    const store = await IndexStore.open({
      databaseUrl: config.databaseUrl,
      databaseReadUrl: config.databaseReadUrl,
      indexDir,
      ...(claimed ? { claimed } : {}),
      logger: indexLogger,
    });
    if (stopping) {
      await store.close();
      throw new IndexStoreError('the index was stopped while its database opened');
    }
    const indexer = new Indexer(store, pool, indexLogger, {
      embeddedChain,
      fromSeqno: config.indexFrom,
      retentionDays: config.indexRetention,
      dnsRoots,
    });
    indexer.on('block', (block: CommittedMcBlock) => {
      for (const listener of blockListeners) listener(block);
    });
    indexer.on('rollback', (common: number) => {
      for (const listener of rollbackListeners) listener(common);
    });
    indexer.start();
    open = { store, indexer };
    indexLogger.info({ store: kind, openMs: Date.now() - startedAt }, 'index database open');
    return open;
  })();
  ready.catch((err: unknown) => {
    failure = err instanceof Error ? err.message : String(err);
  });
  if (options.background) {
    ready.catch((err: unknown) => {
      if (!stopping) indexLogger.error({ err: err instanceof Error ? err.message : String(err) }, 'the index database cannot open; v3 answers 503');
    });
  } else {
    await ready;
  }
  const poolQuery = ((...args: Parameters<IndexStore['pool']['query']>) => {
    if (!open) return Promise.reject(new ApiError('unavailable', failure ? `the index cannot open: ${failure}` : INDEX_STARTING));
    return (open.store.pool.query as (...a: typeof args) => unknown)(...args);
  }) as IndexStore['pool']['query'];
  const metadata = config.metadataFetch
    ? new MetadataFetcher(
        {
          timeoutMs: config.metadataFetchTimeout,
          maxBytes: config.metadataFetchMaxBytes,
          concurrency: config.metadataFetchConcurrency,
          allowPrivate: config.metadataFetchPrivate,
        },
        (row) => writeMetadataCache({ query: poolQuery }, row),
        indexLogger.child({ component: 'metadata' }),
      )
    : undefined;
  const need = (): OpenIndex => {
    if (!open) throw new Error(failure ? `the index cannot open: ${failure}` : 'the index database is still opening (await ready)');
    return open;
  };
  return {
    kind,
    ready,
    opened: () => open,
    get store() {
      return need().store;
    },
    get indexer() {
      return need().indexer;
    },
    pool: { query: poolQuery },
    ...(metadata ? { metadata } : {}),
    health: () => {
      if (!open) {
        const reason = failure ? `the index cannot open: ${failure}` : INDEX_STARTING;
        return { available: false, reason, status: { ...STARTING_STATUS, state: stopping ? 'stopped' : 'starting', lastError: failure } };
      }
      const status = open.indexer.status();
      const db = open.store.health;
      if (!db.available) return { available: false, reason: `index database unavailable: ${db.reason ?? 'unknown'}`, status };
      if (status.state === 'stopped') return { available: false, reason: 'the index is stopped', status };
      return { available: true, reason: null, status };
    },
    onBlock: (listener) => {
      blockListeners.add(listener);
      return () => blockListeners.delete(listener);
    },
    onRollback: (listener) => {
      rollbackListeners.add(listener);
      return () => rollbackListeners.delete(listener);
    },
    stop: () =>
      (stopping ??= (async () => {
        await metadata?.stop();
        const running = await ready.catch(() => null);
        if (!running) return;
        await running.indexer.stop();
        await running.store.close();
      })()),
  };
}
