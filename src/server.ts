import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { createApp } from './app';
import { createIndexReads, createRequestListener, indexReadGate, indexServerUrl, API_VERSION, type AppServices } from './routes';
import { createApiHttpServer } from './intake';
import { createAccessControl, type AccessControl } from './auth';
import { ResponseCache } from './cache';
import type { AppConfig } from './config';
import { createHandlerTable } from './methods';
import { ApiActivityBoard, INDEX_THREAD_NICE, indexEnabled, LiveChainFollower, startIndexThread, type IndexThreadService } from './indexer';
import { lowerNodeThreads } from './platformThreads';
import { type Localnet, type LocalnetControlApi, LocalnetControls } from './localnet';
import { createLitePool, remoteLiteServers, type LitePool, type PooledServer, type TrustAnchor } from './liteclient';
import { observePool, startMetricsServer, type MetricsServer } from './monitoring';
import { checkLiteServersAtStart, startTvmWorkers } from './startup';
import { closeTvm } from './tvm';
import { useNativeCellHashing } from './cells';
import { ChainEventSource, followIndexThread, IndexEventBuilder, pendingEvents, StreamingService, type SourceStatus } from './streaming';
import { AnswerPool, IndexHeadWatcher } from './v3';
import { PENDING_DEFAULTS, PendingTraces, RedisPendingTraces, type PendingOptions, type PendingTraceStore } from './emulate';

/**
 * Connections the kernel holds for us until we accept them. Node's default (511) overflows when a
 * thousand keep-alive clients connect at once while the event loop is busy: the kernel then drops
 * their handshakes, and each dropped client waits for a SYN-ACK retransmission (1, 2, 4, 8 s...),
 * so its first request times out on the client. Linux caps it at net.core.somaxconn (4096 by default).
 */
const LISTEN_BACKLOG = 4096;

/** Longest the start waits for the TVM workers to be ready, ms. */
const TVM_WARM_WAIT_MS = 5000;

/** A running API server and everything it owns, stopped in the right order by `stop()`. */
export interface RunningServer {
  readonly url: string;
  readonly services: AppServices;
  readonly pool: LitePool;
  readonly access: AccessControl;
  /** The Prometheus endpoint (`--metrics-port`), absent when off. */
  readonly metrics: MetricsServer | undefined;
  /** Stops accepting, lets requests in flight finish within the grace period, closes connections. */
  stop(): Promise<void>;
}

/** Something started before the pool that must be stopped after it (the local chain). */
export interface LiteServerSource {
  readonly servers: PooledServer[];
  /** What the servers' masterchain is proven against (the chain's global config `validator` section). */
  readonly anchor?: TrustAnchor | null;
  /** Keep the newest proven key block in --config-cache-dir (false: a chain new at every start). */
  readonly saveKeyBlock?: boolean;
  /** The embedded chain on this thread, when it is the source: its controls are served under /localnet/. */
  readonly localnet?: Localnet;
  /** The embedded chain's controls when it runs in its own thread (served under /localnet/). */
  readonly controls?: LocalnetControlApi;
  stop(): Promise<void>;
}

/**
 * Starts the API: lite servers from `source` (the local chain) or from the config, the pool, the
 * HTTP app. Used by main.ts and by the end-to-end tests, so tests run the very same wiring.
 */
export async function startServer(
  config: AppConfig,
  logger: Logger,
  source?: LiteServerSource,
  tvmWarming?: Promise<void>,
): Promise<RunningServer> {
  // Proof checking is mostly cell hashing (see src/converters/cellHashing.ts).
  useNativeCellHashing();
  const set = source ? { servers: source.servers, anchor: source.anchor ?? null } : await remoteLiteServers(config, logger);
  const servers = set.servers;
  // API keys and rate limits (src/auth); a keys file that cannot be read stops the start.
  const access = await createAccessControl(config, logger);
  const pool = createLitePool(set, config, logger, source?.saveKeyBlock ?? true);
  const unobserve = observePool(pool);
  let metrics: MetricsServer | undefined;
  let index: IndexThreadService | undefined;
  // The API's requests as the index thread's catch-up sees them (it yields to a serving API).
  const apiActivity = new ApiActivityBoard();
  try {
    await pool.start();
    // One line per lite server; none usable within --start-timeout stops the start with the reasons.
    await checkLiteServersAtStart(pool, config.startTimeout, logger);
    if (config.metricsPort !== 0) metrics = await startMetricsServer(config.metricsPort, config.host, logger);
    // The block index (v3's store): a bad database URL or a newer schema stops the start here.
    // A local network (embedded, or `localnet` reached through --liteservers) is indexed from genesis and may rewind.
    // The embedded PGlite store opens in the background (seconds): v2 is healthy at once, v3 and
    // streaming answer 503 "the index is starting" until it is open. A PostgreSQL server is opened
    // here, so a bad URL or a newer schema is a start error.
    // The pipeline runs in a worker thread of its own with its own pool to the same lite servers
    // (src/indexer/indexThread.ts): this event loop only serves.
    const localChain = config.network === 'local';
    const embeddedChain = source?.localnet !== undefined || source?.controls !== undefined;
    if (indexEnabled(config, embeddedChain)) {
      // The index's garbage collection and compiles run on Node's shared threads: at the index
      // thread's priority, or a catch-up keeps them competing with the API's thread for the cores.
      lowerNodeThreads(INDEX_THREAD_NICE);
      index = await startIndexThread(config, set, logger, localChain, { background: !config.databaseUrl, keyBlockSaved: source?.saveKeyBlock ?? true, apiActivity });
    }
  } catch (err) {
    unobserve();
    await metrics?.close();
    pool.close();
    await access.close();
    await source?.stop();
    throw err;
  }
  // The TVM worker threads start now (unless main.ts started them earlier). We give them a few
  // seconds to load their code and create their emulators before listening, so the first get-methods do not spend their deadline on
  // it, but never hold the start for long (a loaded machine): they go on warming in the background.
  const warming = tvmWarming ?? startTvmWorkers(config, logger);
  let warmWait: NodeJS.Timeout | undefined;
  await Promise.race([warming, new Promise((resolve) => (warmWait = setTimeout(resolve, TVM_WARM_WAIT_MS)))]);
  clearTimeout(warmWait);
  const cache =
    config.cacheSize > 0
      ? new ResponseCache({
          maxBytes: config.cacheSize,
          redisUrl: config.cacheRedis,
          redisTimeoutMs: config.redisTimeout,
          logger: logger.child({ component: 'response-cache' }),
        })
      : undefined;
  await cache?.connect();
  // The streaming API's events are the index's committed blocks; without the index, the verified
  // head's blocks read live (the index pipeline's fetch and checks, nothing stored: resume within
  // the in-memory window only).
  const streamingLogger = logger.child({ component: 'streaming' });
  const builder = index ? new IndexEventBuilder(index.pool, config.network === 'testnet', index.metadata) : undefined;
  const indexService = index;
  let chainSource: ChainEventSource | undefined;
  const streaming: StreamingService = new StreamingService({
    config,
    logger: streamingLogger,
    access,
    ...(builder ? { replay: builder } : {}),
    // The follower in the index thread (the index's reads and the events' JSON of every committed
    // block) starts at the first streaming request: an instance nobody streams from holds none of
    // it (its modules, the builder's caches, the reads of each block; docs/index.md).
    ...(indexService ? { startSource: () => followIndexThread(indexService, streaming) } : {}),
    sourceStatus: (): SourceStatus => {
      if (!indexService) return chainSource?.status() ?? { ok: false, reason: 'the chain source is not started', source: 'chain' };
      const health = indexService.health();
      return { ok: health.available, reason: health.reason, source: 'index' };
    },
  });
  let follower: { stop(): Promise<void> } | undefined;
  if (!index) {
    chainSource = new ChainEventSource(new LiveChainFollower(pool, streamingLogger), streaming, streamingLogger);
    chainSource.start();
    follower = chainSource;
  }
  // Messages sent through us, emulated at once and kept until the index commits them (pending
  // traces): only with the index, which both serves them (v3) and says when they landed. With
  // --redis-url every instance shares them (and their streaming events); else this one's memory.
  let pending: PendingTraceStore | undefined;
  if (index && config.pendingTraces > 0) {
    const pendingOptions: PendingOptions = {
      ...PENDING_DEFAULTS,
      ttlMs: config.pendingTtl,
      maxTraces: config.pendingTraces,
      emulationTimeoutMs: config.requestTimeout,
      openSession: (deadline) => pool.openSession({}, deadline),
      landedInIndex: async (hashes) => {
        // The store may still be opening (the embedded PGlite): a rejection keeps the entries a round.
        const open = index.opened();
        if (!open) throw new Error('the index is starting');
        const { rows } = await open.store.readPool.query<{ msg_hash: Buffer }>(
          "select msg_hash from messages where msg_hash = any($1::bytea[]) and direction = 'in'",
          [hashes],
        );
        return new Set(rows.map((row) => row.msg_hash.toString('hex')));
      },
      logger: logger.child({ component: 'pending' }),
    };
    let started: PendingTraceStore;
    if (config.redisUrl) {
      const shared = new RedisPendingTraces({ ...pendingOptions, url: config.redisUrl, keyPrefix: config.pendingPrefix, timeoutMs: config.redisTimeout });
      await shared.connect();
      started = shared;
    } else {
      started = new PendingTraces(pendingOptions);
    }
    started.listen({
      added: (entry) => streaming.publishPending(pendingEvents(entry.trace)),
      invalidated: (hashNorm) => streaming.publishPending([{ type: 'trace_invalidated', traceExternalHashNorm: hashNorm }]),
    });
    index.onBlock((block) => void started.committed(block));
    pending = started;
  }
  // v3's reads, and the head its answers are cached at: both of the read database (a replica's
  // own head, never the writer's news), re-read at once when this process's index commits.
  const indexReads = index ? createIndexReads(config, index) : undefined;
  const headWatcher =
    index && indexReads && cache && config.v3HeadCache
      ? new IndexHeadWatcher(indexReads, {
          pollMs: config.v3HeadPoll,
          warm: { maxDelayMs: config.v3HeadWarm, maxKeys: config.v3HeadWarmKeys, concurrency: config.v3HeadWarmConcurrency },
          // While the index says its database is away, no head: the routes answer 503 as without the cache, never a kept answer.
          available: () => index.health().available,
        }).start()
      : undefined;
  if (index && headWatcher) {
    index.onCommit(() => headWatcher.refresh());
    // A rollback is never warmed: the published head's answers may hold blocks the chain dropped.
    index.onRollback(() => headWatcher.refresh(true));
  }
  // Large v3 answers are assembled in threads of their own (src/v3/answers), never on the event loop.
  // On a PostgreSQL server the threads also read the large transactions pages themselves, so their text never reaches the event loop.
  const answerReads = index ? indexServerUrl(config, index) : undefined;
  const v3Answers =
    index && indexReads
      ? new AnswerPool({
          threads: config.v3AnswerThreads,
          queue: config.v3AnswerQueue,
          inlineBelow: config.v3AnswerInlineBelow,
          maxTaskBytes: config.v3AnswerMax,
          nice: config.v3AnswerNice,
          ...(answerReads ? { databaseUrl: answerReads, gate: indexReadGate(index) } : {}),
        })
      : undefined;
  const services: AppServices = {
    config,
    ...(indexReads ? { indexReads } : {}),
    ...(v3Answers ? { v3Answers } : {}),
    ...(headWatcher ? { v3Head: { source: headWatcher, maxAnswerBytes: config.v3HeadCacheMaxAnswer } } : {}),
    logger,
    streaming,
    ...(pending ? { pending } : {}),
    table: createHandlerTable(),
    lite: pool,
    access,
    ...(cache ? { cache } : {}),
    ...(source?.controls ? { localnet: source.controls } : source?.localnet ? { localnet: new LocalnetControls(source.localnet) } : {}),
    ...(index ? { index } : {}),
  };
  const app = createApp(services);
  // Cached hits are answered ahead of the app (src/routes/fastPath.ts); everything else goes to it.
  const http: Server = createApiHttpServer(createRequestListener(app, services), logger, API_VERSION, app);
  // Longer than load balancers' idle timeouts, so they never reuse a socket we are closing.
  http.keepAliveTimeout = config.keepAliveTimeout;
  http.headersTimeout = config.keepAliveTimeout + 1000;
  // Every request is counted for the index thread: its catch-up yields to a serving API.
  http.prependListener('request', () => apiActivity.requestStarted());
  // WebSocket upgrades: the streaming API's; any other is refused.
  http.on('upgrade', (req, socket, head: Buffer) => {
    if (!streaming.handleUpgrade(req, socket, head)) socket.destroy();
  });
  try {
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG }, () => {
        http.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    unobserve();
    headWatcher?.stop();
    await v3Answers?.close();
    await pending?.close();
    await streaming.close();
    await follower?.stop();
    await index?.stop();
    pool.close();
    await metrics?.close();
    await access.close();
    await source?.stop();
    throw err;
  }
  const address = http.address() as AddressInfo;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${address.port}`;
  // Time since the process started (module loading and, with the local chain, its genesis included).
  const startupMs = Math.round(process.uptime() * 1000);
  logger.info({ url: `${url}/api/v2/`, network: config.network, liteServers: servers.length, startupMs }, 'TON HTTP API v2 listening');

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      headWatcher?.stop();
      await pending?.close();
      // Streams never end on their own: each gets its reason frame and is closed first.
      await streaming.close();
      await follower?.stop();
      await new Promise<void>((resolve) => {
        const grace = setTimeout(() => {
          logger.warn({ graceMs: config.shutdownGrace }, 'grace period over; closing the remaining connections');
          http.closeAllConnections();
        }, config.shutdownGrace);
        grace.unref();
        http.close(() => {
          clearTimeout(grace);
          resolve();
        });
        // Idle keep-alive sockets would hold close() open for nothing.
        http.closeIdleConnections();
      });
      unobserve();
      // The index thread's last commit and its database's close.
      await index?.stop();
      pool.close();
      await metrics?.close();
      await closeTvm();
      await v3Answers?.close();
      await cache?.close();
      await access.close();
      await source?.stop();
    })());
  return { url, services, pool, access, metrics, stop };
}
