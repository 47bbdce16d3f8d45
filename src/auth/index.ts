import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { ipKeyGenerator } from 'express-rate-limit';
import type { Logger } from 'pino';
import { ForbiddenError, UnauthorizedError } from '../errors';
import type { AppConfig } from '../config';
import { MemoryBucketStore, type BucketRate, type BucketStore, type Clock } from './bucket';
import { createAccessGate, type AccessGate, type FailurePolicy } from './gate';
import { KeysFileError, loadKeysFile, type Keyring } from './keys';
import { RedisBucketStore, describeRedisUrl } from './redis-store';

export { KeysFileError, hashApiKey } from './keys';
export type { AccessGate, FailurePolicy, JsonRpcTest, RefusalBodyReader } from './gate';
export { isJsonRpcPath } from './gate';

/**
 * Who opens a stream and how much it may hold: `limitingKey` is an API key's name or a keyless
 * client's IP (as the rate limits group them); 0 = no limit.
 */
export interface StreamAllowance {
  readonly limitingKey: string;
  readonly maxConnections: number;
  readonly maxAddresses: number;
}

/** The keyless streaming limits (--stream-keyless-connections, --stream-keyless-addresses). */
export interface KeylessStreamLimits {
  readonly connections: number;
  readonly addresses: number;
}

/** The key of a request: the X-API-Key header, else the api_key query parameter (any request, upgrades too). */
export function presentedKeyOf(req: IncomingMessage): string | undefined {
  const header = req.headers['x-api-key'];
  if (typeof header === 'string' && header.length > 0) return header;
  const query = (req.url ?? '').split('?', 2)[1];
  if (!query) return undefined;
  const value = new URLSearchParams(query).get('api_key');
  return value ? value : undefined;
}

export type ReloadOutcome = { readonly ok: true; readonly keys: number } | { readonly ok: false; readonly error: string };

/** API keys and rate limits of the /api/v2 routes; built once per process by main.ts. */
export interface AccessControl {
  /** The gate's two stages, around the body (src/intake mounts them). */
  readonly gate: AccessGate;
  readonly storeKind: 'memory' | 'redis';
  /** Re-reads the keys file (SIGHUP). Never rejects: a bad file is logged and the old keys stay. */
  reloadKeys(): Promise<ReloadOutcome>;
  /**
   * The streaming limits of a client (`ip`: the address the rate limits use). An unknown key is
   * UnauthorizedError, a key of another network ForbiddenError; without a keys file keys are ignored.
   */
  streamAllowance(req: IncomingMessage, ip: string, keyless: KeylessStreamLimits): StreamAllowance;
  /** Stops timers and closes the Redis connection. */
  close(): Promise<void>;
}

/** The subset of the configuration this module reads. */
export type AccessConfig = Pick<
  AppConfig,
  'network' | 'keysFile' | 'keylessRps' | 'redisUrl' | 'redisFailurePolicy' | 'redisTimeout' | 'limiterPrefix'
>;

export interface AccessControlOptions {
  /** Test hook: a fake clock for the buckets (memory; for Redis it replaces the server's TIME). */
  readonly clock?: Clock;
}

/**
 * Builds the access control from the configuration: loads the keys file (a bad one throws
 * KeysFileError, so the server does not start with keys it cannot read) and connects to Redis
 * if one is configured (an unreachable Redis is logged and the failure policy applies until
 * it answers; it is not fatal).
 */
export async function createAccessControl(
  config: AccessConfig,
  logger: Logger,
  options: AccessControlOptions = {},
): Promise<AccessControl> {
  const log = logger.child({ component: 'auth' });
  const keysFile = config.keysFile ? path.resolve(config.keysFile) : undefined;
  let keyring: Keyring | undefined = keysFile ? await loadKeysFile(keysFile) : undefined;
  const policy: FailurePolicy = config.redisFailurePolicy;

  let buckets: BucketStore;
  if (config.redisUrl) {
    const where = describeRedisUrl(config.redisUrl);
    const consequence = policy === 'open' ? 'requests pass without rate limits' : 'rate-limited requests get 503';
    const redis = new RedisBucketStore({
      url: config.redisUrl,
      keyPrefix: config.limiterPrefix,
      timeoutMs: config.redisTimeout,
      ...(options.clock ? { clock: options.clock } : {}),
      onAvailabilityChange(available, detail) {
        if (available) log.warn({ redis: where }, 'Redis rate-limit store reachable again: limits are enforced across instances');
        else log.error({ redis: where, reason: detail, policy }, `Redis rate-limit store unreachable (policy ${policy}: ${consequence})`);
      },
    });
    await redis.connect();
    buckets = redis;
  } else {
    buckets = new MemoryBucketStore(options.clock);
  }

  const keylessRate: BucketRate | undefined = config.keylessRps > 0 ? { rps: config.keylessRps, burst: config.keylessRps } : undefined;
  log.info(
    {
      keysFile: keysFile ?? null,
      keys: keyring?.size ?? null,
      keylessRps: config.keylessRps,
      store: buckets.kind,
      ...(config.redisUrl ? { redis: describeRedisUrl(config.redisUrl), failurePolicy: policy } : {}),
    },
    keysFile ? 'API keys and rate limits enabled' : 'no keys file: API keys are not checked, every client gets the keyless limit',
  );

  const gate = createAccessGate({
    network: config.network,
    keyring: () => keyring,
    keylessRate,
    buckets,
    failurePolicy: policy,
    logger: log,
  });

  // Reloads run one after another, so the last signal always wins.
  let reloading: Promise<ReloadOutcome> = Promise.resolve({ ok: true, keys: keyring?.size ?? 0 });
  const reloadOnce = async (): Promise<ReloadOutcome> => {
    if (!keysFile) {
      log.info('keys reload requested but no keys file is configured');
      return { ok: false, error: 'no keys file is configured' };
    }
    try {
      const next = await loadKeysFile(keysFile);
      keyring = next;
      log.info({ keysFile, keys: next.size }, 'API keys reloaded');
      return { ok: true, keys: next.size };
    } catch (err) {
      const error = err instanceof KeysFileError ? err.message : 'unexpected error while reading the keys file';
      log.error({ keysFile, error, keptKeys: keyring?.size ?? 0 }, 'API keys file rejected; the previous keys stay in force');
      return { ok: false, error };
    }
  };

  return {
    gate,
    storeKind: buckets.kind,
    reloadKeys() {
      reloading = reloading.then(reloadOnce, reloadOnce);
      return reloading;
    },
    streamAllowance(req, ip, keyless) {
      const key = keyring ? presentedKeyOf(req) : undefined;
      if (key !== undefined && keyring) {
        const record = keyring.lookup(key);
        if (!record) throw new UnauthorizedError();
        if (!record.networks.has(config.network)) throw new ForbiddenError();
        return {
          limitingKey: `key:${record.name}`,
          maxConnections: record.streamingConnections ?? keyless.connections,
          maxAddresses: record.streamingAddresses ?? keyless.addresses,
        };
      }
      // --keyless-rps 0 lifts every keyless limit, the streaming ones too.
      const unlimited = config.keylessRps === 0;
      return {
        limitingKey: `ip:${ipKeyGenerator(ip)}`,
        maxConnections: unlimited ? 0 : keyless.connections,
        maxAddresses: unlimited ? 0 : keyless.addresses,
      };
    },
    close: () => buckets.close(),
  };
}
