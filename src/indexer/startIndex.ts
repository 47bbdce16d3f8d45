import type { Logger } from 'pino';
import { useFastBits, useNativeCellHashing } from '../cells';
import type { AppConfig } from '../config';
import { IndexStore, IndexStoreError, type IndexStoreKind } from '../indexdb';
import type { LitePool } from '../liteclient';
import { indexMetricsRegistry } from '../metrics';
import { tvmPool } from '../tvm';
import { dnsRootsFor } from './dns';
import { Indexer, STARTING_STATUS, type CommittedMcBlock } from './indexer';
import { indexDirFor } from './options';
import { configuredMetadataFetcher, INDEX_STARTING, IndexListeners, queryOnceOpen, type LocalIndexService, type OpenIndex } from './service';
import type { ApiActivity } from './apiActivity';

export interface StartIndexOptions {
  /**
   * Open the store in the background (the embedded PGlite takes seconds): startIndex returns at
   * once; v3 answers 503 "the index is starting" until it is open. The directory is still claimed
   * at once, so a directory in use stops the start. A later failure to open is logged and the
   * index stays unavailable with its reason.
   */
  readonly background?: boolean;
  /** The API sharing the machine (the index thread's): a catch-up yields to its requests (Indexer's apiActivity). */
  readonly apiActivity?: ApiActivity;
}

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
): Promise<LocalIndexService> {
  // Verifying and parsing blocks is mostly cell hashing: Node's SHA-256, not @ton/crypto's JS one
  // (`ton-http-bridge index` and the bench start no API, which would have switched it).
  useNativeCellHashing();
  // @ton/core's BitReader reads through bytes and numbers, not a BigInt per bit (src/cells/fastBits.ts,
  // the same values): every account a block touched is read with its loadAccount, whose address,
  // balances and storage figures were ~4 % of the pipeline's thread on the jetton bench (--cpu-prof).
  useFastBits();
  const indexLogger = logger.child({ component: 'index' });
  const kind: IndexStoreKind = config.databaseUrl ? 'postgres' : 'pglite';
  const indexDir = config.databaseUrl ? null : indexDirFor(config);
  // Read before anything opens: a mistyped address stops the start with its text.
  const dnsRoots = dnsRootsFor(config.network, (config.dnsCollections ?? '').split(',').map((a) => a.trim()).filter((a) => a !== ''));
  const claimed = kind === 'pglite' ? IndexStore.claimDirectory(indexDir) : undefined;
  const blockListeners = new IndexListeners<CommittedMcBlock>();
  const rollbackListeners = new IndexListeners<number>();
  let open: OpenIndex | null = null;
  let failure: string | null = null;
  let stopping: Promise<void> | undefined;
  const startedAt = Date.now();
  // Token detection's TVM threads start on demand, each compiling the emulator (~0.3 s from
  // compiled code, seconds under tsx): started now, beside the store's open, rather than when the
  // first block's detection asks for them, which held that block and every block after it.
  tvmPool()
    .warmAll()
    .catch(() => {});
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
      ...(options.apiActivity ? { apiActivity: options.apiActivity } : {}),
    });
    indexer.on('block', (block: CommittedMcBlock) => {
      blockListeners.emit(block);
    });
    indexer.on('rollback', (common: number) => {
      rollbackListeners.emit(common);
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
  const poolQuery = queryOnceOpen(() => open?.store.pool ?? null, () => failure);
  const metadata = configuredMetadataFetcher(config, poolQuery, indexLogger);
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
    metrics: () => indexMetricsRegistry.getMetricsAsJSON(),
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
    onBlock: blockListeners.add,
    onRollback: rollbackListeners.add,
    onCommit: (listener) => blockListeners.add((block) => listener(block.mcSeqno)),
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
