/**
 * The index with its pipeline in a worker thread of its own (indexThreadWorker.ts), as
 * `startServer` runs it: fetching, decoding, parsing and committing blocks never hold the API's
 * event loop (measured before, in the API's thread: getMasterchainInfo p99 9x idle during a
 * catch-up; docs/benchmarks.md, "The index"). This side is the IndexService the API uses, fed by
 * the thread's messages: its health on every change, committed blocks, rollbacks.
 *
 * Reads: with PostgreSQL the API's thread has pools of its own (the primary, and the replica of
 * --database-read-url). The embedded PGlite serves one connection at a time (pgliteWorker.ts) and
 * is the index thread's (it starts it, as `startIndex` does everywhere): the API's reads of it go
 * to that thread as messages and run on its connection, between the writer's transactions as
 * they did on one thread.
 *
 * A crash of the thread (an uncaught exception, a resource limit) never reaches the API: v3 and
 * streaming answer 503 with the reason, and the thread starts again after a pause that doubles at
 * every crash in a row (1 s up to 30 s).
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { EventLoopUtilization } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import type { Logger } from 'pino';
import type { AppConfig } from '../config';
import { ApiError } from '../errors';
import { IndexStoreError, type IndexStoreKind } from '../indexdb';
import type { LiteServerSet, ServerStatus } from '../liteclient';
import { indexMetricsRegistry, useRemoteIndexMetrics, type IndexMetricsSource, type MetricsJson } from '../metrics';
import { STARTING_STATUS } from './indexer';
import {
  configuredMetadataFetcher,
  INDEX_STARTING,
  IndexListeners,
  queryOnceOpen,
  type CommittedBlockRows,
  type IndexHealth,
  type IndexQuery,
  type IndexReads,
  type IndexService,
} from './service';
import {
  fromTransferable,
  toTransferable,
  type AnnotationsWanted,
  type FromIndexThread,
  type IndexThreadData,
  type QueryFailure,
  type StreamingInThread,
  type ToIndexThread,
} from './threadProtocol';
import type { ApiActivityBoard } from './apiActivity';
import type { ThreadPriorityState } from './threadPriority';

export interface IndexThreadOptions {
  /** Resolve at once, the store opening in the background (the embedded PGlite); else once it is open (a bad URL is a start error). */
  readonly background?: boolean;
  /** The API's pool keeps the proven key block in --config-cache-dir: the thread's pool starts from it. */
  readonly keyBlockSaved?: boolean;
  /** The API's request counter (the server counts every request): a catch-up yields to its requests. */
  readonly apiActivity?: ApiActivityBoard;
}

/** Where the streaming events the index thread builds go (src/streaming/threadEvents.ts's API side). */
export interface ThreadEventsTarget {
  /** The module that builds them in the thread (its path; it exports `startInIndexThread`). */
  readonly module: string;
  /** The newest block whose events were delivered (a restarted thread goes on after it); null: none yet. */
  after(): number | null;
  /** Which annotations connections want now. */
  wants(): AnnotationsWanted;
  /** A block's events (streaming's SourceBlock, as the module sent it). */
  events(block: unknown): void;
  rewind(seqno: number): void;
  /** The events of block `seqno` could not be built in the thread (its follower retries). */
  failed(seqno: number): void;
}

/** The index thread's handle beyond IndexService (tests make it fail to see it recover). */
export interface IndexThreadService extends IndexService {
  /** Makes the thread fail as an uncaught exception would. */
  crashThread(): void;
  /** The servers of the thread's own lite pool, as the pipeline sees them (a server it refused a block of is out). */
  liteServers(): Promise<ServerStatus[]>;
  /** The thread's event-loop utilization (Node's `performance.eventLoopUtilization`, since `since`); null while none runs. */
  threadLoop(since?: EventLoopUtilization): EventLoopUtilization | null;
  /** The running thread's id (null between a crash and the restart). */
  readonly threadId: number | null;
  /** The thread's kernel id and nice value as it last reported them (threadPriority.ts); null before its first report. */
  readonly priority: { readonly tid: number | null; readonly nice: number; readonly reason: ThreadPriorityState['reason'] } | null;
  /** The running thread's store files outside its data directory, removed when it dies (tests). */
  readonly temporaryPaths: readonly string[];
  /** Build the streaming events of committed blocks in the thread, from now on and after every restart. */
  streamEvents(target: ThreadEventsTarget): void;
  /** The connections' wanted annotations changed (ThreadEventsTarget.wants). */
  annotationsWanted(wants: AnnotationsWanted): void;
}

/**
 * The index thread's young generation (V8's nursery), MB: V8 lets a thread's nursery grow to 32 MB
 * (two 16 MB semi-spaces) while it allocates a lot, as this one does catching up, and a worker
 * thread keeps it at that size afterwards (the API's thread gives it back when idle, a worker's
 * did not: 32 MB of new space 60 s after `npm start`). Capped at 12 MB (4 MB semi-spaces): `npm
 * start` with the index 308 -> 289 MB RSS at rest with the chain thread's cap below
 * (docs/benchmarks.md, "The index"). Scavenges come more often, each no longer (a scavenge's cost
 * is what survives it); what that costs a long catch-up was not measured (the ingest bench runs the
 * pipeline on its own main thread, without this limit).
 */
const INDEX_THREAD_YOUNG_GENERATION_MB = 12;
const RESTART_FIRST_MS = 1000;
const RESTART_MAX_MS = 30_000;
/** A thread that ran this long before it failed failed for a new reason: the pause starts again at RESTART_FIRST_MS. */
const HEALTHY_RUN_MS = 60_000;
/** Longest a stop waits for the thread to close the store (its last commit, the embedded database's checkpoint). */
const STOP_WAIT_MS = 15_000;
/** Longest the API waits for the thread's metrics. */
const METRICS_WAIT_MS = 5000;
/** Connections of the API thread's own pools of a PostgreSQL index (streaming's and the pending traces' reads; v3 has its own). */
const READ_CONNECTIONS = 4;

interface Waiter {
  resolve(value: unknown): void;
  reject(err: Error): void;
}

/** pg's failure again, with its SQLSTATE (src/v3/db.ts maps it). */
function queryError(failure: QueryFailure): Error {
  const err = new Error(failure.message) as Error & { code?: string };
  if (failure.code !== undefined) err.code = failure.code;
  return err;
}

export async function startIndexThread(
  config: AppConfig,
  liteServers: LiteServerSet,
  logger: Logger,
  embeddedChain: boolean,
  options: IndexThreadOptions = {},
): Promise<IndexThreadService> {
  const indexLogger = logger.child({ component: 'index' });
  const kind: IndexStoreKind = config.databaseUrl ? 'postgres' : 'pglite';
  const data: Omit<IndexThreadData, 'blockRows' | 'streaming'> = {
    config,
    liteServers: toTransferable(liteServers),
    keyBlock: options.keyBlockSaved ? 'read' : false,
    embeddedChain,
    logLevel: logger.level,
    ...(options.apiActivity ? { apiActivity: options.apiActivity.buffer } : {}),
  };
  const blockListeners = new IndexListeners<CommittedBlockRows>();
  const commitListeners = new IndexListeners<number>();
  let eventsTarget: ThreadEventsTarget | undefined;
  const streamingAsked = (target: ThreadEventsTarget): StreamingInThread => ({
    module: target.module,
    after: target.after(),
    wants: target.wants(),
  });
  const rollbackListeners = new IndexListeners<number>();
  const waiting = new Map<number, Waiter>();
  let nextId = 0;
  let worker: Worker | null = null;
  let health: IndexHealth = { available: false, reason: INDEX_STARTING, status: STARTING_STATUS };
  let priority: IndexThreadService['priority'] = null;
  /** Why the thread is not running (it failed and waits for its restart), null while it runs. */
  let down: string | null = null;
  let failure: string | null = null;
  let opened = false;
  let stopping: Promise<void> | undefined;
  let restartTimer: NodeJS.Timeout | undefined;
  let restartDelay = RESTART_FIRST_MS;
  let lastMetricsText = '';

  // The API thread's own reads of a PostgreSQL index; the embedded one is read through the thread.
  let pgPools: pg.Pool[] = [];
  let reads: IndexReads | null = null;
  const threadQuery = (read: boolean): IndexQuery => ({
    query: ((text: unknown, values?: unknown) => {
      const config =
        typeof text === 'object' && text !== null
          ? (text as { text: string; values?: unknown[] })
          : { text: String(text), values: values as unknown[] | undefined };
      return request({ type: 'query', id: 0, read, text: config.text, values: toTransferable(config.values ?? []) }).then((result) =>
        fromTransferable(result),
      );
    }) as IndexQuery['query'],
  });
  const openReads = (): IndexReads => {
    if (reads) return reads;
    if (kind === 'pglite') {
      reads = { pool: threadQuery(false), readPool: threadQuery(true) };
      return reads;
    }
    const primary = new pg.Pool({ connectionString: config.databaseUrl, max: READ_CONNECTIONS, connectionTimeoutMillis: 5000 });
    const replica = config.databaseReadUrl
      ? new pg.Pool({ connectionString: config.databaseReadUrl, max: READ_CONNECTIONS, connectionTimeoutMillis: 5000 })
      : primary;
    pgPools = replica === primary ? [primary] : [primary, replica];
    // An idle connection's failure (a restarted server) must not crash the process; the next query reconnects.
    for (const created of pgPools) created.on('error', () => undefined);
    reads = { pool: primary, readPool: replica };
    return reads;
  };

  function request(message: Extract<ToIndexThread, { id: number }>, waitMs?: number): Promise<unknown> {
    const current = worker;
    if (!current || down) return Promise.reject(new ApiError('unavailable', down ?? INDEX_STARTING));
    const id = ++nextId;
    return new Promise<unknown>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      if (waitMs !== undefined) {
        timer = setTimeout(() => {
          waiting.delete(id);
          reject(new Error('the index thread did not answer in time'));
        }, waitMs);
        timer.unref();
      }
      waiting.set(id, {
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        reject: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      });
      current.postMessage({ ...message, id });
    });
  }

  let settleReady: { resolve(): void; reject(err: Error): void } | undefined;
  const ready = new Promise<void>((resolve, reject) => (settleReady = { resolve, reject }));
  ready.catch((err: unknown) => {
    failure = err instanceof Error ? err.message : String(err);
    if (!stopping) indexLogger.error({ err: failure }, 'the index database cannot open; v3 answers 503');
  });

  /** The running thread's store files outside its data directory (threadProtocol 'opened'). */
  let leftBehind: readonly string[] = [];
  const onMessage = (message: FromIndexThread) => {
    switch (message.type) {
      case 'opened':
        leftBehind = message.temporaryPaths;
        opened = true;
        openReads();
        settleReady?.resolve();
        return;
      case 'failed':
        if (!opened) {
          // The first start: a bad URL or a newer schema is the operator's to fix, as without the thread.
          settleReady?.reject(new IndexStoreError(message.message));
          void worker?.terminate();
        } else {
          // A restarted thread that cannot open (the database away): it starts again after a pause.
          indexLogger.warn({ err: message.message }, 'the index thread cannot open its database; it starts again');
          void worker?.terminate();
        }
        return;
      case 'health':
        health = message.health;
        return;
      case 'priority':
        priority = { tid: message.tid, nice: message.nice, reason: message.reason };
        return;
      case 'committed':
        for (const block of message.blocks) blockListeners.emit(fromTransferable<CommittedBlockRows>(block));
        commitListeners.emit(message.seqno);
        return;
      case 'events':
        eventsTarget?.events(message.block);
        return;
      case 'eventsRewind':
        eventsTarget?.rewind(message.seqno);
        return;
      case 'eventsFailed':
        eventsTarget?.failed(message.seqno);
        return;
      case 'metadataFetch':
        metadata?.request(message.uris);
        return;
      case 'rollback':
        rollbackListeners.emit(message.common);
        return;
      case 'reply': {
        const waiter = waiting.get(message.id);
        if (!waiter) return;
        waiting.delete(message.id);
        if (message.error) waiter.reject(queryError(message.error));
        else waiter.resolve(message.result);
        return;
      }
      case 'stopped':
        return;
    }
  };

  const start = () => {
    restartTimer = undefined;
    const started = Date.now();
    let crash: string | null = null;
    const threadData: IndexThreadData = {
      ...data,
      blockRows: blockListeners.size > 0,
      ...(eventsTarget ? { streaming: streamingAsked(eventsTarget) } : {}),
    };
    const thread = new Worker(path.join(__dirname, 'indexThreadEntry.js'), {
      workerData: threadData,
      name: 'index',
      resourceLimits: { maxYoungGenerationSizeMb: INDEX_THREAD_YOUNG_GENERATION_MB },
    });
    worker = thread;
    down = null;
    health = { available: false, reason: INDEX_STARTING, status: STARTING_STATUS };
    thread.on('message', onMessage);
    thread.on('error', (err) => {
      crash = err.message;
      indexLogger.error({ err: err.message }, 'the index thread failed');
    });
    thread.on('exit', (code) => {
      if (worker === thread) worker = null;
      // A thread that died took its PGlite thread with it, unclosed: its socket (and an in-memory
      // store's scratch directory) would stay in the temporary directory, one set per crash.
      for (const file of leftBehind) rmSync(file, { recursive: true, force: true });
      leftBehind = [];
      for (const waiter of waiting.values()) waiter.reject(new ApiError('unavailable', 'the index thread stopped'));
      waiting.clear();
      if (stopping) return;
      if (!opened && !options.background && failure === null) {
        // The start waits for the store: the thread ending first is a start error.
        settleReady?.reject(new IndexStoreError(`the index thread ended before its database opened (${crash ?? `exit code ${code}`})`));
        return;
      }
      if (!opened && failure !== null) {
        // It never opened and the reason is known (the first start's): no restart, as without the thread.
        down = `the index cannot open: ${failure}`;
        return;
      }
      if (Date.now() - started >= HEALTHY_RUN_MS) restartDelay = RESTART_FIRST_MS;
      const delay = restartDelay;
      restartDelay = Math.min(restartDelay * 2, RESTART_MAX_MS);
      down = `the index thread failed (${crash ?? `exit code ${code}`}); it starts again in ${Math.round(delay / 1000)} s`;
      indexLogger.error({ code, restartMs: delay }, down);
      restartTimer = setTimeout(start, delay);
    });
  };
  start();

  const metricsSource: IndexMetricsSource = {
    text: async () => {
      try {
        lastMetricsText = (await request({ type: 'metrics', id: 0, format: 'text' }, METRICS_WAIT_MS)) as string;
      } catch {
        // A thread restarting: its last figures (counters start again from zero in the new thread).
      }
      return lastMetricsText;
    },
  };
  const releaseMetrics = useRemoteIndexMetrics(metricsSource);

  const poolQuery = queryOnceOpen(
    () => (opened && reads ? reads.pool : null),
    () => failure,
  );
  const metadata = configuredMetadataFetcher(config, poolQuery, indexLogger);

  const service: IndexThreadService = {
    kind,
    ready,
    opened: () => (opened && reads ? { store: reads } : null),
    get store(): IndexReads {
      if (!opened || !reads)
        throw new Error(failure ? `the index cannot open: ${failure}` : 'the index database is still opening (await ready)');
      return reads;
    },
    pool: { query: poolQuery },
    ...(metadata ? { metadata } : {}),
    get temporaryPaths() {
      return leftBehind;
    },
    get threadId() {
      return worker && !down ? worker.threadId : null;
    },
    get priority() {
      return priority;
    },
    liteServers: async () => (await request({ type: 'liteServers', id: 0 }, METRICS_WAIT_MS)) as ServerStatus[],
    threadLoop: (since) => (worker && !down ? worker.performance.eventLoopUtilization(since) : null),
    chainRewound: (seqno) => {
      worker?.postMessage({ type: 'chainRewound', seqno } satisfies ToIndexThread);
    },
    crashThread: () => {
      worker?.postMessage({ type: 'crash' } satisfies ToIndexThread);
    },
    metrics: async () => {
      if (!worker || down) return indexMetricsRegistry.getMetricsAsJSON();
      return (await request({ type: 'metrics', id: 0, format: 'json' }, METRICS_WAIT_MS)) as MetricsJson;
    },
    health: (): IndexHealth => {
      if (stopping) return { available: false, reason: 'the index is stopped', status: { ...health.status, state: 'stopped' } };
      if (down) return { available: false, reason: down, status: { ...health.status, lastError: down } };
      if (!opened && failure)
        return { available: false, reason: `the index cannot open: ${failure}`, status: { ...STARTING_STATUS, lastError: failure } };
      return health;
    },
    onBlock: (listener) => {
      const remove = blockListeners.add(listener);
      worker?.postMessage({ type: 'blockRows' } satisfies ToIndexThread);
      return remove;
    },
    onRollback: rollbackListeners.add,
    onCommit: commitListeners.add,
    streamEvents: (target) => {
      eventsTarget = target;
      worker?.postMessage({ type: 'streaming', streaming: streamingAsked(target) } satisfies ToIndexThread);
    },
    annotationsWanted: (wants) => {
      worker?.postMessage({ type: 'streamingWants', wants } satisfies ToIndexThread);
    },
    stop: () =>
      (stopping ??= (async () => {
        clearTimeout(restartTimer);
        await metadata?.stop();
        const thread = worker;
        if (thread) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(() => void thread.terminate(), STOP_WAIT_MS);
            thread.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            thread.postMessage({ type: 'stop' } satisfies ToIndexThread);
          });
        }
        releaseMetrics();
        await Promise.all(pgPools.map((created) => created.end().catch(() => undefined)));
      })()),
  };
  if (!options.background) {
    await ready.catch(async (err: unknown) => {
      await service.stop();
      throw err;
    });
  }
  return service;
}
