import { ConfigError, helpText, loadConfig, type AppConfig } from './config';
import { LiteServerConfigError } from './liteclient';
import { createLogger } from './logging';
import { startServer } from './server';

/** Entry point of `npm start` and the `ton-http-bridge` command. */
async function main(argv: readonly string[]): Promise<void> {
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
  const running = await startServer(config, logger);
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

main(process.argv.slice(2)).catch((err: unknown) => {
  const known = err instanceof LiteServerConfigError || err instanceof ConfigError;
  process.stderr.write(`ton-http-bridge: ${known || !(err instanceof Error) ? String(err instanceof Error ? err.message : err) : err.stack}\n`);
  process.exit(1);
});
