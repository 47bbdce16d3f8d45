/**
 * Token buckets: a bucket holds up to `burst` tokens, gains `rps` tokens per second, and a
 * request costing `cost` tokens passes only if that many are there. A bucket that is full is
 * the same as one that does not exist, so stores forget buckets once they have refilled.
 *
 * The same arithmetic runs here (memory store, tests) and in the Redis Lua script.
 */

export interface BucketRate {
  /** Tokens added per second; > 0. */
  readonly rps: number;
  /** Bucket size: the most requests that can pass at once; integer >= 1. */
  readonly burst: number;
}

export interface BucketState {
  readonly tokens: number;
  /** Clock reading (ms) at which `tokens` was true. */
  readonly at: number;
}

export interface TakeOutcome {
  readonly allowed: boolean;
  /** Tokens left after this request (fractional). */
  readonly tokens: number;
}

/** Refills a bucket to `now`, then takes `cost` tokens if they are there. */
export function takeTokens(
  state: BucketState | undefined,
  now: number,
  rate: BucketRate,
  cost: number,
): { outcome: TakeOutcome; state: BucketState } {
  let tokens = state ? state.tokens : rate.burst;
  let at = state ? state.at : now;
  // A clock that goes back (a Redis failover to a host behind ours) must not mint tokens.
  if (now > at) {
    tokens += ((now - at) * rate.rps) / 1000;
    at = now;
  }
  // Also clamps a bucket whose burst was lowered by a keys-file reload.
  tokens = Math.min(rate.burst, tokens);
  const allowed = tokens >= cost;
  if (allowed) tokens -= cost;
  return { outcome: { allowed, tokens }, state: { tokens, at } };
}

/** Milliseconds until a bucket with `tokens` is full again. */
export function msUntilFull(tokens: number, rate: BucketRate): number {
  return Math.max(0, ((rate.burst - tokens) * 1000) / rate.rps);
}

export interface BucketReport {
  /** Whole requests that would pass right now (`RateLimit-Remaining`). */
  readonly remaining: number;
  /** Seconds until the bucket is full (`RateLimit-Reset`). */
  readonly resetSeconds: number;
  /**
   * Seconds until a request of the same cost can pass (`Retry-After`), at least 1. A cost
   * above the burst never passes; it is told the time to a full bucket.
   */
  readonly retryAfterSeconds: number;
}

export function reportBucket(outcome: TakeOutcome, rate: BucketRate, cost: number): BucketReport {
  const needed = Math.min(cost, rate.burst) - outcome.tokens;
  return {
    remaining: Math.max(0, Math.floor(outcome.tokens + 1e-9)),
    resetSeconds: Math.max(0, Math.ceil(msUntilFull(outcome.tokens, rate) / 1000 - 1e-9)),
    retryAfterSeconds: Math.max(1, Math.ceil(needed / rate.rps - 1e-9)),
  };
}

/** Where buckets live: one process (memory) or every instance at once (Redis). */
export interface BucketStore {
  readonly kind: 'memory' | 'redis';
  /** Refills and takes in one atomic step. Rejects with LimiterUnavailableError when the store cannot answer. */
  take(bucketId: string, rate: BucketRate, cost: number): Promise<TakeOutcome>;
  /** Forgets a bucket (it is full again). */
  reset(bucketId: string): Promise<void>;
  close(): Promise<void>;
}

/** The shared store did not answer; the middleware applies the failure policy. */
export class LimiterUnavailableError extends Error {}

/** A monotonic millisecond clock. */
export type Clock = () => number;

const monotonicClock: Clock = () => performance.now();

interface MemoryBucket {
  state: BucketState;
  fullAt: number;
}

/** Buckets in this process only: the default for a single instance. */
export class MemoryBucketStore implements BucketStore {
  readonly kind = 'memory';
  private readonly buckets = new Map<string, MemoryBucket>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly clock: Clock = monotonicClock,
    sweepIntervalMs = 30_000,
  ) {
    // Without this, every client IP ever seen would stay in the map.
    this.sweeper = setInterval(() => this.sweep(), sweepIntervalMs);
    this.sweeper.unref();
  }

  async take(bucketId: string, rate: BucketRate, cost: number): Promise<TakeOutcome> {
    const now = this.clock();
    const { outcome, state } = takeTokens(this.buckets.get(bucketId)?.state, now, rate, cost);
    this.buckets.set(bucketId, { state, fullAt: now + msUntilFull(state.tokens, rate) });
    return outcome;
  }

  async reset(bucketId: string): Promise<void> {
    this.buckets.delete(bucketId);
  }

  /** Drops the buckets that have refilled; returns how many remain. */
  sweep(): number {
    const now = this.clock();
    for (const [id, bucket] of this.buckets) if (bucket.fullAt <= now) this.buckets.delete(id);
    return this.buckets.size;
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.buckets.clear();
  }
}
