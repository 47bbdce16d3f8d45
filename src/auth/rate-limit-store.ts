import { AsyncLocalStorage } from 'node:async_hooks';
import type { ClientRateLimitInfo, Store } from 'express-rate-limit';
import { msUntilFull, type BucketRate, type BucketStore, type TakeOutcome } from './bucket';

/**
 * What one request costs and from which bucket it takes.
 *
 * express-rate-limit's `Store.increment(key)` receives only the key, yet a token bucket needs
 * the key's rate and the request's cost (a JSON-RPC batch of N calls costs N). Packing those
 * into the key string would leak into `req.rateLimit.key` and the double-count check, and one
 * increment per batch element would cost N round trips and could pass half a batch. So the
 * gate runs the library's middleware inside `chargeScope.run(charge, ...)`, and the store reads
 * the charge of the request it is serving from there (AsyncLocalStorage follows the awaits
 * between the two), and leaves the outcome on it for the headers.
 */
export interface Charge {
  readonly bucketId: string;
  readonly rate: BucketRate;
  readonly cost: number;
  outcome?: TakeOutcome;
}

export const chargeScope = new AsyncLocalStorage<Charge>();

export function currentCharge(): Charge {
  const charge = chargeScope.getStore();
  if (!charge) throw new Error('the rate limiter ran outside of the access gate (no charge for this request)');
  return charge;
}

/**
 * A token bucket behind express-rate-limit's hit-counter interface. The library allows a
 * request while `totalHits <= limit`, with `limit` set to the burst; so a request that passed
 * reports `burst - floor(tokens left)` hits (remaining = whole tokens left, at least 1 hit
 * because it took at least one token) and a refused one reports `burst + 1`.
 */
export class TokenBucketRateLimitStore implements Store {
  readonly localKeys: boolean;

  constructor(private readonly buckets: BucketStore) {
    this.localKeys = buckets.kind === 'memory';
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    const charge = currentCharge();
    if (charge.bucketId !== key) throw new Error('rate limiter key does not match the charge of this request');
    const outcome = await this.buckets.take(key, charge.rate, charge.cost);
    charge.outcome = outcome;
    const burst = charge.rate.burst;
    return {
      totalHits: outcome.allowed ? Math.max(1, burst - Math.floor(outcome.tokens + 1e-9)) : burst + 1,
      resetTime: new Date(Date.now() + msUntilFull(outcome.tokens, charge.rate)),
    };
  }

  /** Tokens are never given back: every call a client makes costs, whatever its outcome. */
  async decrement(): Promise<void> {}

  async resetKey(key: string): Promise<void> {
    await this.buckets.reset(key);
  }
}
