import pino from 'pino';
import { ResponseCache, type CachedAnswer } from '../../src/cache/responseCache';
import { metricsRegistry } from '../../src/metrics/registry';
import { TvmPool } from '../../src/tvm';
import { ECHO_CODE, GAS_LOOP_CODE, getMethodTask } from '../hostile/tvmSupport';
import { until } from '../helpers/waiting';

/**
 * The TVM worker pool and response cache metrics, read from the registry the metrics server
 * serves, against a real piscina pool running the sandbox emulator, a real LRU and Redis at
 * 127.0.0.1:6379.
 */

const logger = pino({ level: 'silent' });

/** A sample's value for exactly these labels (0 when the series does not exist yet); histograms by `<name>_count`/`_sum`. */
async function valueOf(name: string, labels: Record<string, string> = {}): Promise<number> {
  const base = name.replace(/_(count|sum)$/, '');
  const metric = metricsRegistry.getSingleMetric(name) ?? metricsRegistry.getSingleMetric(base);
  if (!metric) throw new Error(`no metric ${name}`);
  const { values } = await metric.get();
  const wanted = Object.entries(labels);
  const found = values.find((v) => {
    // Histogram samples name their series (`_bucket`, `_sum`, `_count`); others carry no name.
    const sample = (v as { metricName?: string }).metricName ?? name;
    if (sample !== name) return false;
    const own = Object.entries(v.labels).filter(([, value]) => value !== undefined);
    return own.length === wanted.length && wanted.every(([key, value]) => v.labels[key] === value);
  });
  return found?.value ?? 0;
}

describe('TVM worker pool metrics', () => {
  let pool: TvmPool;

  beforeAll(async () => {
    pool = new TvmPool({ workers: 1 });
    await pool.warmAll();
  }, 60_000);

  afterAll(async () => {
    await pool.close();
  });

  test('a run is counted by kind and outcome and its duration observed', async () => {
    const okBefore = await valueOf('ton_bridge_tvm_runs_total', { kind: 'getMethod', outcome: 'ok' });
    const timedBefore = await valueOf('ton_bridge_tvm_run_duration_seconds_count', { kind: 'getMethod' });
    const answer = await pool.getMethod(getMethodTask(ECHO_CODE, [{ type: 'int', value: 7n }]), Date.now() + 30_000);
    expect(answer.exitCode).toBe(0);
    expect(await valueOf('ton_bridge_tvm_runs_total', { kind: 'getMethod', outcome: 'ok' })).toBe(okBefore + 1);
    expect(await valueOf('ton_bridge_tvm_run_duration_seconds_count', { kind: 'getMethod' })).toBe(timedBefore + 1);
    expect(await valueOf('ton_bridge_tvm_run_duration_seconds_sum', { kind: 'getMethod' })).toBeGreaterThan(0);
    expect(await valueOf('ton_bridge_tvm_runs_total', { kind: 'warm', outcome: 'ok' })).toBeGreaterThanOrEqual(1);
  }, 60_000);

  test('tasks waiting for the one worker show in the queue length; a task past its deadline counts as deadline and its worker as replaced', async () => {
    const deadlineBefore = await valueOf('ton_bridge_tvm_runs_total', { kind: 'getMethod', outcome: 'deadline' });
    const replacedBefore = await valueOf('ton_bridge_tvm_worker_replacements_total');
    // Three endless loops on one worker: one runs, two wait; each is aborted at its deadline.
    const loops = [0, 1, 2].map(() => pool.getMethod(getMethodTask(GAS_LOOP_CODE, [], { methodId: 1 }), Date.now() + 400));
    expect(await valueOf('ton_bridge_tvm_queue_length')).toBe(2);
    const settled = await Promise.allSettled(loops);
    for (const outcome of settled) expect(outcome).toMatchObject({ status: 'rejected', reason: { kind: 'timeout' } });
    expect(await valueOf('ton_bridge_tvm_queue_length')).toBe(0);
    expect(await valueOf('ton_bridge_tvm_runs_total', { kind: 'getMethod', outcome: 'deadline' })).toBe(deadlineBefore + 3);
    // Only the running task's thread is terminated; the waiting ones were never on a thread.
    await until(async () => (await valueOf('ton_bridge_tvm_worker_replacements_total')) >= replacedBefore + 1, 10_000);
    expect(await valueOf('ton_bridge_tvm_worker_replacements_total')).toBeLessThanOrEqual(replacedBefore + 3);
    // The replacement serves.
    const again = await pool.getMethod(getMethodTask(ECHO_CODE, [{ type: 'int', value: 1n }]), Date.now() + 30_000);
    expect(again.exitCode).toBe(0);
  }, 60_000);
});

function answer(bytes: number, fill = 1): CachedAnswer {
  return { status: 200, bytes: Buffer.alloc(bytes, fill) };
}

describe('response cache metrics', () => {
  test('hits by level, misses, bytes and entries follow the cache', async () => {
    const hitsBefore = await valueOf('ton_bridge_response_cache_hits_total', { level: 'memory' });
    const inflightBefore = await valueOf('ton_bridge_response_cache_hits_total', { level: 'inflight' });
    const missesBefore = await valueOf('ton_bridge_response_cache_misses_total');
    const bytesBefore = await valueOf('ton_bridge_response_cache_bytes');
    const entriesBefore = await valueOf('ton_bridge_response_cache_entries');

    const cache = new ResponseCache({ maxBytes: 10_000, logger });
    await cache.lookup('a', async () => answer(1000));
    await cache.lookup('a', async () => answer(1000));
    await cache.lookup('a', async () => answer(1000));
    // Three identical concurrent misses: one computation, two joined it.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const joined = [0, 1, 2].map(() => cache.lookup('b', async () => (await gate, answer(500))));
    release();
    await Promise.all(joined);

    expect(await valueOf('ton_bridge_response_cache_misses_total')).toBe(missesBefore + 2);
    expect(await valueOf('ton_bridge_response_cache_hits_total', { level: 'memory' })).toBe(hitsBefore + 2);
    expect(await valueOf('ton_bridge_response_cache_hits_total', { level: 'inflight' })).toBe(inflightBefore + 2);
    expect(cache.entries).toBe(2);
    expect(await valueOf('ton_bridge_response_cache_entries')).toBe(entriesBefore + 2);
    expect(await valueOf('ton_bridge_response_cache_bytes')).toBe(bytesBefore + cache.size);
    expect(cache.size).toBeGreaterThan(1500);

    // Past the byte bound the oldest answers go, and the gauges follow the evictions.
    for (let i = 0; i < 20; i++) await cache.lookup(`c${i}`, async () => answer(1000, i));
    expect(cache.size).toBeLessThanOrEqual(10_000);
    expect(await valueOf('ton_bridge_response_cache_bytes')).toBe(bytesBefore + cache.size);
    expect(await valueOf('ton_bridge_response_cache_entries')).toBe(entriesBefore + cache.entries);

    await cache.close();
    expect(await valueOf('ton_bridge_response_cache_bytes')).toBe(bytesBefore);
    expect(await valueOf('ton_bridge_response_cache_entries')).toBe(entriesBefore);
  });

  test('an answer another instance put in Redis counts as a redis hit', async () => {
    const prefix = `ton-http-bridge-test:metrics:${process.pid}:${Date.now()}:`;
    const options = { maxBytes: 1 << 20, logger, redisUrl: 'redis://127.0.0.1:6379/0', redisPrefix: prefix, redisTtlSeconds: 30 };
    const writer = new ResponseCache(options);
    const reader = new ResponseCache(options);
    try {
      await writer.connect();
      await reader.connect();
      const redisBefore = await valueOf('ton_bridge_response_cache_hits_total', { level: 'redis' });
      const missesBefore = await valueOf('ton_bridge_response_cache_misses_total');
      await writer.lookup('shared', async () => answer(100, 7));
      // The write to Redis is not awaited by the lookup: wait until the other instance sees it.
      let found = await reader
        .lookup('shared', async () => {
          throw new Error('not there yet');
        })
        .catch(() => undefined);
      for (let i = 0; i < 20 && !found; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        found = await reader
          .lookup('shared', async () => {
            throw new Error('not there yet');
          })
          .catch(() => undefined);
      }
      expect(found).toMatchObject({ hit: true });
      expect(found!.answer.bytes[0]).toBe(7);
      expect(await valueOf('ton_bridge_response_cache_hits_total', { level: 'redis' })).toBe(redisBefore + 1);
      // The writer's computation and any tries of the reader before the value arrived.
      expect(await valueOf('ton_bridge_response_cache_misses_total')).toBeGreaterThanOrEqual(missesBefore + 1);
    } finally {
      await writer.close();
      await reader.close();
    }
  });
});
