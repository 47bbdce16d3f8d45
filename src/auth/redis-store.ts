import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { LimiterUnavailableError, type BucketRate, type BucketStore, type Clock, type TakeOutcome } from './bucket';

/**
 * Token buckets in Redis, shared by every instance. One EVALSHA per request: the script
 * refills, takes and writes back atomically, so N instances together never let through more
 * than one bucket allows. Time comes from the Redis server (`TIME`), so the instances' clocks
 * do not matter. The key expires when the bucket would be full: a missing key is a full bucket.
 *
 * KEYS[1] bucket; ARGV rps, burst, cost[, now_ms]. Returns {allowed 0|1, tokens as text}.
 * Floats are written with %.17g because Lua's tostring keeps only 14 digits.
 */
export const TAKE_SCRIPT = `
local rps = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local now
if ARGV[4] then
  now = tonumber(ARGV[4])
else
  if redis.replicate_commands then redis.replicate_commands() end
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
end
local saved = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(saved[1])
local at = tonumber(saved[2])
if tokens == nil or at == nil then
  tokens = burst
  at = now
end
if now > at then
  tokens = tokens + (now - at) * rps / 1000
  at = now
end
if tokens > burst then tokens = burst end
local allowed = 0
if tokens >= cost then
  tokens = tokens - cost
  allowed = 1
end
local ttl = math.ceil((burst - tokens) * 1000 / rps)
if ttl > 0 then
  redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', tokens), 'at', string.format('%.17g', at))
  redis.call('PEXPIRE', KEYS[1], ttl)
else
  redis.call('DEL', KEYS[1])
end
return {allowed, string.format('%.17g', tokens)}
`;

const TAKE_SCRIPT_SHA = createHash('sha1').update(TAKE_SCRIPT).digest('hex');

export interface RedisBucketStoreOptions {
  readonly url: string;
  /** Prepended to every bucket id (lets deployments share one Redis). */
  readonly keyPrefix: string;
  /** Longest wait for one answer, ms; then the request gets the failure policy. */
  readonly timeoutMs: number;
  /** Called once when Redis becomes unreachable (with the reason) and once when it is back. */
  readonly onAvailabilityChange: (available: boolean, detail: string) => void;
  /** Only for tests: take time from this clock instead of the Redis server. */
  readonly clock?: Clock;
}

/** What is safe to log about a Redis URL: never the password. */
export function describeRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return '(unparsable Redis URL)';
  }
}

export class RedisBucketStore implements BucketStore {
  readonly kind = 'redis';
  private readonly client: Redis;
  private available = false;
  /** An outage was reported and recovery was not yet; starts false so a first failure is reported. */
  private reportedDown = false;
  private closed = false;

  constructor(private readonly options: RedisBucketStoreOptions) {
    this.client = new Redis(options.url, {
      lazyConnect: true,
      // Never queue while disconnected and never resend: a request waits for Redis at most
      // `timeoutMs`, then the failure policy answers it.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      commandTimeout: options.timeoutMs,
      connectTimeout: Math.max(1000, options.timeoutMs),
      retryStrategy: (attempt) => Math.min(100 * attempt, 2000),
      connectionName: 'ton-http-bridge-ratelimit',
      // close() on a connection that is already dead would otherwise hold the process 2 s.
      disconnectTimeout: 200,
    });
    // Without a listener ioredis prints every reconnect failure; one line per outage is enough.
    this.client.on('error', (err: Error) => this.markUnavailable(err));
    this.client.on('close', () => {
      if (!this.closed) this.markUnavailable(new Error('connection closed'));
    });
    this.client.on('ready', () => this.markAvailable());
  }

  /** Connects; resolves either way within the connect timeout (an absent Redis is not fatal). */
  async connect(): Promise<boolean> {
    try {
      await this.client.connect();
    } catch (err) {
      this.markUnavailable(err instanceof Error ? err : new Error(String(err)));
    }
    return this.available;
  }

  get isAvailable(): boolean {
    return this.available;
  }

  async take(bucketId: string, rate: BucketRate, cost: number): Promise<TakeOutcome> {
    const key = this.options.keyPrefix + bucketId;
    const args: (string | number)[] = [rate.rps, rate.burst, cost];
    if (this.options.clock) args.push(this.options.clock());
    let reply: unknown;
    try {
      try {
        reply = await this.client.evalsha(TAKE_SCRIPT_SHA, 1, key, ...args);
      } catch (err) {
        if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
        // First call on this Redis (or after SCRIPT FLUSH): EVAL also caches the script.
        reply = await this.client.eval(TAKE_SCRIPT, 1, key, ...args);
      }
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      this.markUnavailable(error);
      throw new LimiterUnavailableError(`Redis rate-limit store unavailable: ${error.message}`);
    }
    if (!Array.isArray(reply) || reply.length !== 2) throw new LimiterUnavailableError('unexpected reply from the rate-limit script');
    const tokens = Number(reply[1]);
    if (!Number.isFinite(tokens)) throw new LimiterUnavailableError('unexpected reply from the rate-limit script');
    return { allowed: Number(reply[0]) === 1, tokens };
  }

  async reset(bucketId: string): Promise<void> {
    await this.client.del(this.options.keyPrefix + bucketId);
  }

  async close(): Promise<void> {
    this.closed = true;
    try {
      if (this.client.status === 'ready') await this.client.quit();
      else this.client.disconnect();
    } catch {
      this.client.disconnect();
    }
  }

  /** Reports each change between reachable and unreachable once, not every reconnect attempt. */
  private markUnavailable(err: Error): void {
    if (this.closed) return;
    const wasAvailable = this.available;
    this.available = false;
    if (wasAvailable || !this.reportedDown) {
      this.reportedDown = true;
      this.options.onAvailabilityChange(false, err.message);
    }
  }

  private markAvailable(): void {
    const wasDown = this.reportedDown;
    this.available = true;
    this.reportedDown = false;
    if (wasDown) this.options.onAvailabilityChange(true, 'ready');
  }
}
