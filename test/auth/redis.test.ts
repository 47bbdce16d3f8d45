import { Redis } from 'ioredis';
import request from 'supertest';
import { takeTokens, type BucketState } from '../../src/auth/bucket';
import { RedisBucketStore } from '../../src/auth/redis-store';
import {
  ADDRESS,
  DETECT_PATH,
  REDIS_URL,
  buildAuthApp,
  deleteKeysWithPrefix,
  describeWithRedis,
  listen,
  manualClock,
  redisReachableSync,
  tempDir,
  uniquePrefix,
  writeFile,
  type AuthTestApp,
  type Listening,
} from './helpers';

const SHARED_KEY = 'shared-key-0000000000000001';
const SLOW_KEY = 'slow-key-000000000000000002';

const KEYS_YAML = `
keys:
  - name: shared
    key: ${SHARED_KEY}
    rps: 0.01
    burst: 10
    networks: [local]
  - name: slow
    key: ${SLOW_KEY}
    rps: 0.5
    burst: 2
    networks: [local]
`;

const reachable = redisReachableSync(REDIS_URL);

describeWithRedis('rate limits in Redis', reachable, () => {
  const prefix = uniquePrefix();
  const keysFile = writeFile(tempDir(), 'keys.yaml', KEYS_YAML);
  const opened: AuthTestApp[] = [];
  const servers: Listening[] = [];

  async function instance(flags: string[] = [], clock?: () => number): Promise<AuthTestApp> {
    const subject = await buildAuthApp(
      ['--keys-file', keysFile, '--redis-url', REDIS_URL, '--limiter-prefix', prefix, ...flags],
      clock ? { clock } : {},
    );
    opened.push(subject);
    return subject;
  }

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await Promise.all(opened.map((subject) => subject.access.close()));
    if (reachable) await deleteKeysWithPrefix(REDIS_URL, prefix);
  });

  it('the Lua script computes exactly what the TypeScript bucket computes', async () => {
    const clock = manualClock();
    const store = new RedisBucketStore({
      url: REDIS_URL,
      keyPrefix: prefix,
      timeoutMs: 1000,
      clock: clock.now,
      onAvailabilityChange: () => undefined,
    });
    try {
      expect(await store.connect()).toBe(true);
      const rate = { rps: 3, burst: 4 };
      const steps: [advanceMs: number, cost: number][] = [
        [0, 1],
        [0, 2],
        [0, 2],
        [100, 1],
        [250, 1],
        [0, 1],
        [333, 1],
        [1, 3],
        [5000, 5],
        [0, 4],
        [10, 1],
        [-50, 1],
        [700, 1],
      ];
      let state: BucketState | undefined;
      for (const [advance, cost] of steps) {
        clock.advance(advance);
        const expected = takeTokens(state, clock.now(), rate, cost);
        state = expected.state;
        expect(await store.take('parity', rate, cost)).toEqual(expected.outcome);
      }
    } finally {
      await store.close();
    }
  });

  it('two instances sharing Redis let exactly the burst through under 50 concurrent requests', async () => {
    const [a, b] = [await instance(), await instance()];
    const [urlA, urlB] = [await listen(a.app), await listen(b.app)];
    servers.push(urlA, urlB);
    const statuses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        fetch(`${(i % 2 === 0 ? urlA : urlB).url}${DETECT_PATH}`, { headers: { 'X-API-Key': SHARED_KEY } }).then(async (res) => {
          await res.arrayBuffer();
          return res.status;
        }),
      ),
    );
    // burst 10 at 0.01 rps: a refill adds one token per 100 s, far longer than this test.
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(40);

    const redis = new Redis(REDIS_URL);
    try {
      const bucketKey = `${prefix}local:key:shared`;
      expect(Number(await redis.hget(bucketKey, 'tokens'))).toBeLessThan(1);
      // The bucket expires when it would be full again (10 tokens at 0.01 rps = 1000 s).
      const ttl = await redis.pttl(bucketKey);
      expect(ttl).toBeGreaterThan(990_000);
      expect(ttl).toBeLessThanOrEqual(1_000_000);
      const stored = await redis.keys(`${prefix}*`);
      expect(stored.some((key) => key.includes(SHARED_KEY))).toBe(false);
    } finally {
      redis.disconnect();
    }
  });

  it('keyless 1 rps per IP holds across two instances under a burst of 50', async () => {
    const [a, b] = [await instance(['--network', 'testnet']), await instance(['--network', 'testnet'])];
    const [urlA, urlB] = [await listen(a.app), await listen(b.app)];
    servers.push(urlA, urlB);
    const started = Date.now();
    const statuses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        fetch(`${(i % 2 === 0 ? urlA : urlB).url}${DETECT_PATH}`).then(async (res) => {
          await res.arrayBuffer();
          return res.status;
        }),
      ),
    );
    const elapsedSeconds = (Date.now() - started) / 1000;
    const passed = statuses.filter((status) => status === 200).length;
    // One token at the start, then one per second of server time while the burst lasted.
    expect(passed).toBeGreaterThanOrEqual(1);
    expect(passed).toBeLessThanOrEqual(1 + Math.floor(elapsedSeconds + 0.1));
    expect(statuses.filter((status) => status === 429)).toHaveLength(50 - passed);
  });

  it("holds a key's own rate and burst with exact headers (Redis, manual clock)", async () => {
    const clock = manualClock();
    const { app } = await instance(['--network', 'local', '--limiter-prefix', `${prefix}clocked:`], clock.now);
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await request(app).get(DETECT_PATH).set('X-API-Key', SLOW_KEY));
    expect(answers.map((res) => res.status)).toEqual([200, 200, 429]);
    expect(answers.map((res) => res.headers['ratelimit-remaining'])).toEqual(['1', '0', '0']);
    expect(answers[2]!.body).toEqual({ ok: false, error: 'Ratelimit exceeded', code: 429, result: 'Ratelimit exceeded' });
    expect(answers[2]!.headers['retry-after']).toBe('2');
    expect(answers[2]!.headers['ratelimit-policy']).toBe('2;w=4');
    expect(answers[2]!.headers['ratelimit-reset']).toBe('4');
    clock.advance(2000);
    expect((await request(app).get(DETECT_PATH).set('X-API-Key', SLOW_KEY)).status).toBe(200);
    expect((await request(app).get(DETECT_PATH).set('X-API-Key', SLOW_KEY)).status).toBe(429);

    const rpc = await request(app)
      .post('/api/v2/jsonRPC')
      .set('X-API-Key', SLOW_KEY)
      .send({ jsonrpc: '2.0', id: 'q', method: 'detectAddress', params: { address: ADDRESS } });
    expect(rpc.status).toBe(429);
    expect(rpc.body).toEqual({ ok: false, error: 'Ratelimit exceeded', code: 429, result: 'Ratelimit exceeded', jsonrpc: '2.0', id: 'q' });
  });

  it('buckets of different networks do not share tokens', async () => {
    const clock = manualClock();
    const flags = [
      '--limiter-prefix',
      `${prefix}networks:`,
      '--keys-file',
      writeFile(tempDir(), 'k.yaml', KEYS_YAML.replace(/networks: \[local\]/g, 'networks: [mainnet, testnet]')),
    ];
    const mainnet = (await instance(['--network', 'mainnet', ...flags], clock.now)).app;
    const testnet = (await instance(['--network', 'testnet', ...flags], clock.now)).app;
    expect((await request(mainnet).get(DETECT_PATH).set('X-API-Key', SLOW_KEY)).status).toBe(200);
    expect((await request(mainnet).get(DETECT_PATH).set('X-API-Key', SLOW_KEY)).status).toBe(200);
    expect((await request(mainnet).get(DETECT_PATH).set('X-API-Key', SLOW_KEY)).status).toBe(429);
    expect((await request(testnet).get(DETECT_PATH).set('X-API-Key', SLOW_KEY)).status).toBe(200);
  });
});
