import type { Server } from 'node:http';
import { createApp } from './app';
import { createAccessControl } from './auth';
import { ConfigError, helpText, loadConfig, type AppConfig } from './config';
import { createHandlerTable } from './handlers';
import { createLogger } from './logging';

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
  // API keys and rate limits (src/auth): SIGHUP re-reads the keys file.
  const access = await createAccessControl(config, logger);
  process.on('SIGHUP', () => void access.reloadKeys());
  const app = createApp({ config, logger, table: createHandlerTable(), access });
  const server: Server = app.listen(config.port, config.host, () => {
    logger.info({ host: config.host, port: config.port, network: config.network }, 'TON HTTP API v2 listening');
  });
  const stop = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    server.close(() => void access.close().finally(() => process.exit(0)));
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`ton-http-bridge: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
