import { MemoryBucketStore, reportBucket, takeTokens, type BucketState } from '../../src/auth/bucket';
import { manualClock } from './helpers';

describe('token bucket arithmetic', () => {
  const rate = { rps: 2, burst: 3 };

  it('starts full and lets exactly the burst through at one instant', () => {
    let state: BucketState | undefined;
    const allowed: boolean[] = [];
    for (let i = 0; i < 5; i++) {
      const step = takeTokens(state, 1000, rate, 1);
      state = step.state;
      allowed.push(step.outcome.allowed);
    }
    expect(allowed).toEqual([true, true, true, false, false]);
    expect(state).toEqual({ tokens: 0, at: 1000 });
  });

  it('refills rps tokens per second, never above the burst', () => {
    const empty: BucketState = { tokens: 0, at: 0 };
    expect(takeTokens(empty, 499, rate, 1).outcome).toEqual({ allowed: false, tokens: 0.998 });
    expect(takeTokens(empty, 500, rate, 1).outcome).toEqual({ allowed: true, tokens: 0 });
    expect(takeTokens(empty, 60_000, rate, 1).outcome).toEqual({ allowed: true, tokens: 2 });
  });

  it('charges a batch its size at once, all or nothing', () => {
    const state: BucketState = { tokens: 2.5, at: 0 };
    expect(takeTokens(state, 0, rate, 3).outcome).toEqual({ allowed: false, tokens: 2.5 });
    expect(takeTokens(state, 0, rate, 2).outcome).toEqual({ allowed: true, tokens: 0.5 });
  });

  it('never passes a batch larger than the burst', () => {
    expect(takeTokens(undefined, 0, rate, 4).outcome).toEqual({ allowed: false, tokens: 3 });
  });

  it('mints nothing when the clock goes back, and clamps to a lowered burst', () => {
    expect(takeTokens({ tokens: 1, at: 5000 }, 4000, rate, 1)).toEqual({
      outcome: { allowed: true, tokens: 0 },
      state: { tokens: 0, at: 5000 },
    });
    expect(takeTokens({ tokens: 10, at: 0 }, 0, rate, 1).outcome).toEqual({ allowed: true, tokens: 2 });
  });

  it('reports remaining, reset and retry-after in whole units', () => {
    expect(reportBucket({ allowed: true, tokens: 1.5 }, rate, 1)).toEqual({ remaining: 1, resetSeconds: 1, retryAfterSeconds: 1 });
    expect(reportBucket({ allowed: false, tokens: 0.2 }, { rps: 0.1, burst: 10 }, 1)).toEqual({
      remaining: 0,
      resetSeconds: 98,
      retryAfterSeconds: 8,
    });
    // A batch of 5 under a burst of 3: the time to a full bucket, at least a second.
    expect(reportBucket({ allowed: false, tokens: 3 }, rate, 5)).toEqual({ remaining: 3, resetSeconds: 0, retryAfterSeconds: 1 });
    expect(reportBucket({ allowed: false, tokens: 0 }, rate, 5)).toEqual({ remaining: 0, resetSeconds: 2, retryAfterSeconds: 2 });
  });
});

describe('MemoryBucketStore', () => {
  it('keeps one bucket per id and forgets those that refilled', async () => {
    const clock = manualClock();
    const store = new MemoryBucketStore(clock.now);
    try {
      const rate = { rps: 1, burst: 2 };
      expect((await store.take('a', rate, 2)).allowed).toBe(true);
      expect((await store.take('a', rate, 1)).allowed).toBe(false);
      expect((await store.take('b', rate, 1)).allowed).toBe(true);
      expect(store.sweep()).toBe(2);
      clock.advance(1000);
      // b is full again (1 token missing, 1 s at 1 rps); a still misses one token.
      expect(store.sweep()).toBe(1);
      expect((await store.take('a', rate, 1)).allowed).toBe(true);
      await store.reset('a');
      expect(await store.take('a', rate, 2)).toEqual({ allowed: true, tokens: 0 });
    } finally {
      await store.close();
    }
  });
});
