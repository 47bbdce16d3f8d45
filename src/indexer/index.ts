/**
 * The block indexer: follows the verified masterchain, fetches and checks every block, parses it
 * with src/tlb and commits each masterchain block's rows into the index store (src/indexdb).
 * `startIndex` is what the server and the `index` command start; `IndexService.health()` is what
 * v3 routes check before reading (503 while the database is away); 'block' events feed streaming.
 */
import path from 'node:path';
import type { Logger } from 'pino';
import type { AppConfig } from '../config';
import { IndexStore } from '../indexdb';
import type { LitePool } from '../liteclient';
import { Indexer, type CommittedMcBlock, type IndexStatus } from './indexer';

export { Indexer, isConnectionError, type CommittedMcBlock, type IndexStatus, type IndexState, type IndexerOptions } from './indexer';
export { verifiedBlockRoot, BlockFetcher } from './blockFetcher';
export { parseBlock, type ParsedBlock, type ParsedTransaction, type ParsedMessage } from './parseBlock';
export { indexMetrics } from '../metrics';

/** Whether the index runs: `--index`, else on with the embedded chain or a database URL. */
export function indexEnabled(config: AppConfig, embeddedChain: boolean): boolean {
  if (config.index !== undefined) return config.index === 'on';
  return embeddedChain || config.databaseUrl !== undefined;
}

/** The embedded database's directory: --index-dir, else `<state file>.index` beside --state-file, else none (memory). */
export function indexDirFor(config: AppConfig): string | null {
  if (config.indexDir) return config.indexDir;
  if (config.stateFile) return `${path.resolve(config.stateFile)}.index`;
  return null;
}

/** What the v3 routes and the health check ask of the index. */
export interface IndexHealth {
  /** false: answer v3 with 503 (the database is away or the index stopped). */
  readonly available: boolean;
  readonly reason: string | null;
  readonly status: IndexStatus;
}

export interface IndexService {
  readonly store: IndexStore;
  readonly indexer: Indexer;
  health(): IndexHealth;
  /** Each committed masterchain block, in order; returns the unsubscribe function. */
  onBlock(listener: (block: CommittedMcBlock) => void): () => void;
  stop(): Promise<void>;
}

/** Opens the store (IndexStoreError on a bad URL or a newer schema) and starts the pipeline. */
export async function startIndex(config: AppConfig, pool: LitePool, logger: Logger, embeddedChain: boolean): Promise<IndexService> {
  const indexLogger = logger.child({ component: 'index' });
  const store = await IndexStore.open({
    databaseUrl: config.databaseUrl,
    databaseReadUrl: config.databaseReadUrl,
    indexDir: config.databaseUrl ? null : indexDirFor(config),
    logger: indexLogger,
  });
  const indexer = new Indexer(store, pool, indexLogger, {
    embeddedChain,
    fromSeqno: config.indexFrom,
    retentionDays: config.indexRetention,
  });
  indexer.start();
  let stopping: Promise<void> | undefined;
  return {
    store,
    indexer,
    health: () => {
      const status = indexer.status();
      const db = store.health;
      if (!db.available) return { available: false, reason: `index database unavailable: ${db.reason ?? 'unknown'}`, status };
      if (status.state === 'stopped') return { available: false, reason: 'the index is stopped', status };
      return { available: true, reason: null, status };
    },
    onBlock: (listener) => {
      indexer.on('block', listener);
      return () => indexer.off('block', listener);
    },
    stop: () =>
      (stopping ??= (async () => {
        await indexer.stop();
        await store.close();
      })()),
  };
}
