import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { createApp } from './app';
import { createAccessControl, type AccessControl } from './auth';
import type { AppConfig } from './config';
import { createHandlerTable } from './handlers';
import { createLitePool, remoteLiteServers, type LitePool, type PooledServer } from './liteclient';
import type { AppServices } from './services';

/** A running API server and everything it owns, stopped in the right order by `stop()`. */
export interface RunningServer {
  readonly url: string;
  readonly services: AppServices;
  readonly pool: LitePool;
  readonly access: AccessControl;
  /** Stops accepting, lets requests in flight finish within the grace period, closes connections. */
  stop(): Promise<void>;
}

/** Something started before the pool that must be stopped after it (the local chain). */
export interface LiteServerSource {
  readonly servers: PooledServer[];
  stop(): Promise<void>;
}

/**
 * Starts the API: lite servers from `source` (the local chain) or from the config, the pool, the
 * HTTP app. Used by main.ts and by the end-to-end tests, so tests run the very same wiring.
 */
export async function startServer(config: AppConfig, logger: Logger, source?: LiteServerSource): Promise<RunningServer> {
  const servers = source?.servers ?? (await remoteLiteServers(config, logger));
  // API keys and rate limits (src/auth); a keys file that cannot be read stops the start.
  const access = await createAccessControl(config, logger);
  const pool = createLitePool(servers, config, logger);
  await pool.start();
  const services: AppServices = { config, logger, table: createHandlerTable(), lite: pool, access };
  const app = createApp(services);
  const http: Server = await new Promise((resolve, reject) => {
    const listening = app.listen(config.port, config.host, () => resolve(listening));
    listening.once('error', reject);
  });
  const address = http.address() as AddressInfo;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${address.port}`;
  // Time since the process started (module loading and, with the local chain, its genesis included).
  const startupMs = Math.round(process.uptime() * 1000);
  logger.info({ url: `${url}/api/v2/`, network: config.network, liteServers: servers.length, startupMs }, 'TON HTTP API v2 listening');

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
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
      pool.close();
      await access.close();
      await source?.stop();
    })());
  return { url, services, pool, access, stop };
}
