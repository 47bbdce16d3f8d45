// Only what reading the command line and starting the TVM threads need is imported here; the
// chain and the server (most of the code: ~0.5 s of module loading) are loaded after that, so
// that a fixed TVM pool (--tvm-idle-timeout 0) loads its own code meanwhile.
// First: it notes Node's own threads before any other thread of the process exists.
import './platformThreads';
import { ConfigError, helpText, loadConfig, type AppConfig } from './config';
import { LiteServerConfigError, StartupError } from './errors';
import { useServingHeapPolicy } from './gcPolicy';
import { createLogger } from './logging';
import { installProcessGuards } from './processGuards';
import { StartupClock, startTvmWorkers } from './startup';

/** Entry point of `npm start` and the `ton-http-bridge` command. */
async function main(argv: readonly string[]): Promise<void> {
  const clock = new StartupClock();
  // Node's start, bin/'s freshness check of the compiled code and the loading of the modules above.
  clock.mark('entered');
  let config: AppConfig;
  let command: string;
  try {
    ({ config, command } = loadConfig(argv));
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`ton-http-bridge: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  if (command === 'help') {
    process.stdout.write(`${helpText()}\n`);
    return;
  }
  const logger = createLogger(config.logLevel);
  // A V8 flag for the whole process, so set by the process's entry, not by startServer, which
  // tests and embedders call inside processes of their own (src/gcPolicy.ts).
  useServingHeapPolicy();
  if (command === 'localnet') {
    await runLocalnetOnly(config, logger);
    return;
  }
  if (command === 'index') {
    await runIndexOnly(config, logger);
    return;
  }
  // A fixed pool's TVM threads warm up on the other core while this thread loads the server and
  // builds the local chain; by default they start with the first task and there is nothing to wait for.
  const tvmWarming = startTvmWorkers(config, logger);
  if (config.tvmIdleTimeout === 0) void tvmWarming.then(() => clock.mark('tvmWarm'));
  // Without --liteservers, the local network is the embedded chain, reached over TCP like any other.
  // Only then are its modules loaded: a bridge to remote lite servers never holds them (~17 MB).
  const embedded = config.network === 'local' && !config.liteservers;
  const [localnetModule, { startServer }] = await Promise.all([embedded ? import('./localnetSource') : undefined, import('./server')]);
  clock.mark('modulesLoaded');
  // The chain runs in its own thread: executing and sealing never hold the API's event loop.
  const local = localnetModule ? await localnetModule.startLocalnetThreadSource(config, logger) : undefined;
  if (local) {
    clock.mark('localnetReady');
    process.stdout.write(`${local.description}\n`);
  }
  const running = await startServer(config, logger, local, tvmWarming);
  clock.mark('ready');
  // From the process start (module loading and the local chain's genesis included) to serving
  // with a healthy lite server: what /api/v2/healthcheck needs to answer 200.
  process.stdout.write(`ready in ${process.uptime().toFixed(1)} s: ${running.url}/api/v2/\n`);
  logger.info({ msSinceProcessStart: clock.phases }, 'start-up phases');
  installProcessGuards({ logger, stop: () => running.stop(), graceMs: config.shutdownGrace });
  // SIGHUP re-reads the API keys file without a restart.
  process.on('SIGHUP', () => void running.access.reloadKeys());

  const shutdown = (signal: string) => {
    logger.info({ signal, graceMs: config.shutdownGrace }, 'shutting down');
    running.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

/** `ton-http-bridge localnet`: the chain and its lite server only, for any lite client. */
async function runLocalnetOnly(config: AppConfig, logger: ReturnType<typeof createLogger>): Promise<void> {
  const { describeLocalnet, startConfiguredLocalnet, writeGlobalConfig } = await import('./localnetSource');
  const localnet = await startConfiguredLocalnet(config, logger);
  process.stdout.write(`${await describeLocalnet(localnet)}\n`);
  if (config.configOut) {
    writeGlobalConfig(localnet, config.configOut);
    process.stdout.write(`Global config written to ${config.configOut}\n`);
  } else {
    process.stdout.write(`${localnet.globalConfigJson}\n`);
  }
  const shutdown = (signal: string) => {
    logger.info({ signal }, 'stopping the local chain');
    localnet.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

/**
 * `ton-http-bridge index`: the block indexer alone, no HTTP API (metrics still on --metrics-port).
 * Lite servers as for `serve` (the embedded chain when --network local has no --liteservers); the
 * index in --database-url, else the embedded database. Several may run on one database: one writes.
 */
async function runIndexOnly(config: AppConfig, logger: ReturnType<typeof createLogger>): Promise<void> {
  const embedded = config.network === 'local' && !config.liteservers;
  const { startIndex } = await import('./indexer');
  const { createLitePool, remoteLiteServers } = await import('./liteclient');
  const { checkLiteServersAtStart } = await import('./startup');
  const { startMetricsServer } = await import('./monitoring');
  const local = embedded ? await (await import('./localnetSource')).startLocalnetSource(config, logger) : undefined;
  const set = local ? { servers: local.servers, anchor: local.anchor ?? null } : await remoteLiteServers(config, logger);
  const pool = createLitePool(set, config, logger, local?.saveKeyBlock ?? true);
  await pool.start();
  await checkLiteServersAtStart(pool, config.startTimeout, logger);
  const metrics = config.metricsPort !== 0 ? await startMetricsServer(config.metricsPort, config.host, logger) : undefined;
  const index = await startIndex(config, pool, logger, config.network === 'local');
  process.stdout.write(`indexing (${index.kind})\n`);
  const shutdown = (signal: string) => {
    logger.info({ signal }, 'stopping the indexer');
    void (async () => {
      await index.stop();
      pool.close();
      await metrics?.close();
      await local?.stop();
    })().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'stopping the indexer failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main(process.argv.slice(2)).catch((err: unknown) => {
  const known =
    err instanceof LiteServerConfigError || err instanceof ConfigError || err instanceof StartupError || (err instanceof Error && err.name === 'IndexStoreError');
  process.stderr.write(
    `ton-http-bridge: ${known || !(err instanceof Error) ? String(err instanceof Error ? err.message : err) : err.stack}\n`,
  );
  process.exit(1);
});
