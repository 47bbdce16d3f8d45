import type { Logger } from 'pino';
import type { AppConfig } from '../config';
import { HeadVerifier } from './headVerifier';
import { LitePool, type PoolOptions } from './pool';
import type { PooledServer } from './gateway';
import { LiteServerConfigError } from '../errors';
import { loadNetworkGlobalConfig, parseGlobalConfig, readGlobalConfigJson } from './sources';
import { KeyBlockStore, trustAnchorOf, type TrustAnchor } from './trust';

export { LitePool } from './pool';
export type { BroadcastOutcome, LiteGateway, LiteSession, LiteSessionOptions, PooledServer, ServerStatus, TrackedHead } from './gateway';
export { parseGlobalConfig, loadGlobalConfigFile, loadNetworkConfig } from './sources';
export { trustAnchorOf, type TrustAnchor } from './trust';

/** The lite servers to use and what their answers are proven against (null: the config names no zero state). */
export interface LiteServerSet {
  readonly servers: PooledServer[];
  readonly anchor: TrustAnchor | null;
}

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
export async function remoteLiteServers(config: AppConfig, logger: Logger): Promise<LiteServerSet> {
  if (config.liteservers) {
    const json = readGlobalConfigJson(config.liteservers);
    return { servers: parseGlobalConfig(json, config.liteservers), anchor: trustAnchorOf(json, config.liteservers, config.trustedBlock) };
  }
  if (config.network === 'local') throw new Error('the local network has no remote lite servers');
  const { servers, json } = await loadNetworkGlobalConfig(
    config.network,
    { cacheDir: config.configCacheDir, timeoutMs: 10000 },
    (message) => logger.warn(message),
  );
  return { servers, anchor: trustAnchorOf(json, `${config.network} global config`, config.trustedBlock) };
}

/**
 * The pool, proving every masterchain head from `anchor` unless `--trust-liteservers`. `saveKeyBlock`:
 * keep the newest proven key block in `--config-cache-dir` (not for the embedded chain, which is
 * new at every start).
 */
/**
 * `keyBlock`: true keeps the newest proven key block in --config-cache-dir (and starts from it);
 * 'read' only starts from the saved one (another pool of the process saves it); false neither.
 */
export function createLitePool(set: LiteServerSet, config: AppConfig, logger: Logger, keyBlock: boolean | 'read' = true): LitePool {
  const poolLogger = logger.child({ component: 'lite-pool' });
  const options = poolOptionsFrom(config);
  if (!config.trustLiteservers) {
    if (!set.anchor) {
      throw new LiteServerConfigError(
        "the global config has no validator.zero_state to prove the lite servers' answers against; " +
          'use a config with its "validator" section (as ton.org publishes), or pass --trust-liteservers',
      );
    }
    const store = keyBlock ? new KeyBlockStore(config.configCacheDir, set.anchor.zeroState, keyBlock === 'read') : null;
    options.verifier = new HeadVerifier(set.anchor, store, poolLogger.child({ component: 'head-verifier' }));
  }
  return new LitePool(set.servers, poolLogger, options);
}
export { type ProbeEvent } from './pool';
