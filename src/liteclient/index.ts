import type { Logger } from 'pino';
import type { AppConfig } from '../config';
import { LitePool, type PoolOptions, type PooledServer } from './pool';
import { loadGlobalConfigFile, loadNetworkConfig } from './sources';

export { LitePool } from './pool';
export type { PooledServer, ServerStatus } from './pool';
export { parseGlobalConfig, loadGlobalConfigFile, loadNetworkConfig, LiteServerConfigError } from './sources';

export function poolOptionsFrom(config: AppConfig): PoolOptions {
  return {
    healthIntervalMs: config.healthInterval,
    healthTimeoutMs: Math.min(config.queryTimeout, 3000),
    maxLagBlocks: config.maxLag,
    checkProofs: !config.trustLiteservers,
    engine: {
      queryTimeoutMs: config.queryTimeout,
      connectTimeoutMs: 3000,
      keepaliveMs: 15000,
      reconnectMinMs: 100,
      reconnectMaxMs: 5000,
    },
  };
}

/**
 * The lite servers a non-local server talks to: `--liteservers` wins, otherwise the official
 * config of `--network`. (The local chain supplies its own; see src/server.ts.)
 */
export async function remoteLiteServers(config: AppConfig, logger: Logger): Promise<PooledServer[]> {
  if (config.liteservers) return loadGlobalConfigFile(config.liteservers);
  if (config.network === 'local') throw new Error('the local network has no remote lite servers');
  return loadNetworkConfig(config.network, { cacheDir: config.configCacheDir, timeoutMs: 10000 }, (message) => logger.warn(message));
}

export function createLitePool(servers: readonly PooledServer[], config: AppConfig, logger: Logger): LitePool {
  return new LitePool(servers, logger.child({ component: 'lite-pool' }), poolOptionsFrom(config));
}
