import request from 'supertest';
import { ADDRESS, DETECT_PATH, buildAuthApp, manualClock, tempDir, writeFile, type AuthTestApp } from './helpers';

/** Keys of the suite; the server serves `local` unless a test says otherwise. */
const SLOW_KEY = 'slow-key-000000000000000001';
const MAINNET_KEY = 'mainnet-key-0000000000000002';
const BATCH_KEY = 'batch-key-00000000000000003';
const FREE_KEY = 'free-key-000000000000000004';
const UNKNOWN_KEY = 'unknown-key-000000000000005';

const KEYS_YAML = `
keys:
  - name: slow
    key: ${SLOW_KEY}
    rps: 0.5
    burst: 2
    networks: [local, testnet]
  - name: mainnet-only
    key: ${MAINNET_KEY}
    rps: 10
    networks: [mainnet]
  - name: batch
    key: ${BATCH_KEY}
    rps: 1
    burst: 5
    networks: [local]
  - name: free
    key: ${FREE_KEY}
    rps: 0
    networks: [local]
`;

const RATE_LIMITED = { ok: false, error: 'Ratelimit exceeded', code: 429, result: 'Ratelimit exceeded' };
const UNAUTHORIZED = { ok: false, error: 'API key does not exist', code: 401 };
const FORBIDDEN = { ok: false, error: 'Network not allowed', code: 403 };

function rpc(id: string | number, method = 'detectAddress'): Record<string, unknown> {
  return { jsonrpc: '2.0', id, method, params: { address: ADDRESS } };
}

function rateLimitHeaders(res: request.Response): Record<string, string | undefined> {
  return {
    policy: res.headers['ratelimit-policy'],
    limit: res.headers['ratelimit-limit'],
    remaining: res.headers['ratelimit-remaining'],
    reset: res.headers['ratelimit-reset'],
    retryAfter: res.headers['retry-after'],
  };
}

const NO_RATE_HEADERS = { policy: undefined, limit: undefined, remaining: undefined, reset: undefined, retryAfter: undefined };

describe('access gate (memory store)', () => {
  const keysFile = writeFile(tempDir(), 'keys.yaml', KEYS_YAML);
  let clock: ReturnType<typeof manualClock>;
  let subject: AuthTestApp;

  async function build(flags: string[] = []): Promise<AuthTestApp> {
    clock = manualClock();
    subject = await buildAuthApp(['--keys-file', keysFile, ...flags], { clock: clock.now });
    return subject;
  }

  afterEach(async () => {
    await subject?.access.close();
  });

  describe('REST', () => {
    it('401 for an unknown key, in the header or the query, and nothing counted', async () => {
      const { app } = await build();
      for (const res of [
        await request(app).get(DETECT_PATH).set('X-API-Key', UNKNOWN_KEY),
        await request(app).get(`${DETECT_PATH}&api_key=${UNKNOWN_KEY}`),
        await request(app).post('/api/v2/detectAddress').set('X-API-Key', UNKNOWN_KEY).send({ address: ADDRESS }),
      ]) {
        expect(res.status).toBe(401);
        expect(res.body).toEqual(UNAUTHORIZED);
        expect(rateLimitHeaders(res)).toEqual(NO_RATE_HEADERS);
      }
    });

    it('403 for a key of another network', async () => {
      const { app } = await build();
      const res = await request(app).get(DETECT_PATH).set('X-API-Key', MAINNET_KEY);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
      expect(rateLimitHeaders(res)).toEqual(NO_RATE_HEADERS);
    });

    it('the same key is allowed on a network it lists', async () => {
      const { app } = await build(['--network', 'mainnet']);
      const res = await request(app).get(DETECT_PATH).set('X-API-Key', MAINNET_KEY);
      expect(res.status).toBe(200);
      expect(res.body.result.raw_form).toBe('0:ed1691307050047117b998b561d8de82d31fbf84910ced6eb5fc92e7485ef8a7');
    });

    it("holds a key's own rate and burst, with exact RateLimit-* and Retry-After", async () => {
      const { app } = await build();
      const first = await request(app).get(DETECT_PATH).set('X-API-Key', SLOW_KEY);
      expect(first.status).toBe(200);
      expect(rateLimitHeaders(first)).toEqual({ policy: '2;w=4', limit: '2', remaining: '1', reset: '2', retryAfter: undefined });
      const second = await request(app).get(`${DETECT_PATH}&api_key=${SLOW_KEY}`);
      expect(second.status).toBe(200);
      expect(rateLimitHeaders(second)).toEqual({ policy: '2;w=4', limit: '2', remaining: '0', reset: '4', retryAfter: undefined });
      const third = await request(app).get(DETECT_PATH).set('X-API-Key', SLOW_KEY);
      expect(third.status).toBe(429);
      expect(third.body).toEqual(RATE_LIMITED);
      expect(rateLimitHeaders(third)).toEqual({ policy: '2;w=4', limit: '2', remaining: '0', reset: '4', retryAfter: '2' });

      clock.advance(1999);
      expect((await request(app).get(DETECT_PATH).set('X-API-Key', SLOW_KEY)).status).toBe(429);
      clock.advance(1);
      const refilled = await request(app).get(DETECT_PATH).set('X-API-Key', SLOW_KEY);
      expect(refilled.status).toBe(200);
      expect(rateLimitHeaders(refilled)).toEqual({ policy: '2;w=4', limit: '2', remaining: '0', reset: '4', retryAfter: undefined });
      expect((await request(app).get(DETECT_PATH).set('X-API-Key', SLOW_KEY)).status).toBe(429);
    });

    it('keyless: 1 request per second per IP holds under a burst of 50', async () => {
      const { app } = await build();
      const statuses = await Promise.all(
        Array.from({ length: 50 }, () =>
          request(app)
            .get(DETECT_PATH)
            .then((res) => res.status),
        ),
      );
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect(statuses.filter((status) => status === 429)).toHaveLength(49);
      clock.advance(1000);
      const next = await Promise.all(
        Array.from({ length: 10 }, () =>
          request(app)
            .get(DETECT_PATH)
            .then((res) => res.status),
        ),
      );
      expect(next.filter((status) => status === 200)).toHaveLength(1);
      const refused = await request(app).get(DETECT_PATH);
      expect(refused.body).toEqual(RATE_LIMITED);
      expect(rateLimitHeaders(refused)).toEqual({ policy: '1;w=1', limit: '1', remaining: '0', reset: '1', retryAfter: '1' });
    });

    it('a key has its own bucket, apart from the keyless one of the same IP', async () => {
      const { app } = await build();
      expect((await request(app).get(DETECT_PATH)).status).toBe(200);
      expect((await request(app).get(DETECT_PATH)).status).toBe(429);
      expect((await request(app).get(DETECT_PATH).set('X-API-Key', SLOW_KEY)).status).toBe(200);
    });

    it('--keyless-rps N sets the keyless rate and burst; 0 lifts the keyless limit', async () => {
      const { app } = await build(['--keyless-rps', '3']);
      const statuses = await Promise.all(
        Array.from({ length: 10 }, () =>
          request(app)
            .get(DETECT_PATH)
            .then((res) => res.status),
        ),
      );
      expect(statuses.filter((status) => status === 200)).toHaveLength(3);
      await subject.access.close();

      const lifted = (await build(['--keyless-rps', '0'])).app;
      const all = await Promise.all(Array.from({ length: 50 }, () => request(lifted).get(DETECT_PATH)));
      expect(all.every((res) => res.status === 200)).toBe(true);
      expect(rateLimitHeaders(all[0]!)).toEqual(NO_RATE_HEADERS);
    });

    it('a key with rps 0 is not limited', async () => {
      const { app } = await build();
      const all = await Promise.all(Array.from({ length: 20 }, () => request(app).get(DETECT_PATH).set('X-API-Key', FREE_KEY)));
      expect(all.every((res) => res.status === 200)).toBe(true);
      expect(rateLimitHeaders(all[0]!)).toEqual(NO_RATE_HEADERS);
    });

    it('health checks are never limited nor counted', async () => {
      const { app } = await build();
      for (let i = 0; i < 10; i++) {
        const res = await request(app).get('/api/v2/healthcheck');
        expect(res.status).toBe(200);
        expect(res.headers['ratelimit-limit']).toBeUndefined();
      }
      expect((await request(app).get(DETECT_PATH)).status).toBe(200);
    });

    it('refuses before the handler runs: an exhausted client gets 429, not the 503 of the missing lite servers', async () => {
      const { app } = await build();
      const first = await request(app).get('/api/v2/getMasterchainInfo');
      expect(first.status).toBe(503);
      const second = await request(app).get('/api/v2/getMasterchainInfo');
      expect(second.status).toBe(429);
      expect(second.body).toEqual(RATE_LIMITED);
    });

    it('without --trust-proxy X-Forwarded-For is ignored; with it each forwarded client has its own bucket', async () => {
      const direct = (await build()).app;
      expect((await request(direct).get(DETECT_PATH).set('X-Forwarded-For', '203.0.113.1')).status).toBe(200);
      expect((await request(direct).get(DETECT_PATH).set('X-Forwarded-For', '203.0.113.2')).status).toBe(429);
      await subject.access.close();

      const proxied = (await build(['--trust-proxy'])).app;
      expect((await request(proxied).get(DETECT_PATH).set('X-Forwarded-For', '203.0.113.1')).status).toBe(200);
      expect((await request(proxied).get(DETECT_PATH).set('X-Forwarded-For', '203.0.113.2')).status).toBe(200);
      expect((await request(proxied).get(DETECT_PATH).set('X-Forwarded-For', '203.0.113.2')).status).toBe(429);
      // Only the hop the proxy added counts: a client cannot pick its address by prepending one.
      expect((await request(proxied).get(DETECT_PATH).set('X-Forwarded-For', '198.51.100.7, 203.0.113.2')).status).toBe(429);
    });

    it('without a keys file, keys are ignored and every client gets the keyless limit', async () => {
      clock = manualClock();
      subject = await buildAuthApp([], { clock: clock.now });
      const { app } = subject;
      expect((await request(app).get(DETECT_PATH).set('X-API-Key', UNKNOWN_KEY)).status).toBe(200);
      expect((await request(app).get(DETECT_PATH).set('X-API-Key', SLOW_KEY)).status).toBe(429);
    });
  });

  describe('JSON-RPC', () => {
    it('401, 403 and 429 in the v2 envelope with jsonrpc and the caller id', async () => {
      const { app } = await build();
      const unknown = await request(app).post('/api/v2/jsonRPC').set('X-API-Key', UNKNOWN_KEY).send(rpc('a1'));
      expect(unknown.status).toBe(401);
      expect(unknown.body).toEqual({ ...UNAUTHORIZED, jsonrpc: '2.0', id: 'a1' });

      const wrongNetwork = await request(app).post('/api/v2/jsonRPC').set('X-API-Key', MAINNET_KEY).send(rpc(7));
      expect(wrongNetwork.status).toBe(403);
      expect(wrongNetwork.body).toEqual({ ...FORBIDDEN, jsonrpc: '2.0', id: 7 });

      for (let i = 0; i < 2; i++)
        expect((await request(app).post('/api/v2/jsonRPC').set('X-API-Key', SLOW_KEY).send(rpc(i))).status).toBe(200);
      const limited = await request(app).post('/api/v2/jsonRPC').set('X-API-Key', SLOW_KEY).send(rpc('x'));
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({ ...RATE_LIMITED, jsonrpc: '2.0', id: 'x' });
      expect(rateLimitHeaders(limited)).toEqual({ policy: '2;w=4', limit: '2', remaining: '0', reset: '4', retryAfter: '2' });
    });

    it('every batch element costs a token; a batch passes whole or not at all', async () => {
      const { app } = await build();
      const three = await request(app)
        .post('/api/v2/jsonRPC')
        .set('X-API-Key', BATCH_KEY)
        .send([rpc(1), rpc(2), rpc(3)]);
      expect(three.status).toBe(200);
      expect(three.body).toHaveLength(3);
      expect(three.headers['ratelimit-remaining']).toBe('2');

      const again = await request(app)
        .post('/api/v2/jsonRPC')
        .set('X-API-Key', BATCH_KEY)
        .send([rpc(4), rpc(5), rpc(6)]);
      expect(again.status).toBe(429);
      expect(again.body).toEqual({ ...RATE_LIMITED, jsonrpc: '2.0', id: null });
      expect(rateLimitHeaders(again)).toEqual({ policy: '5;w=5', limit: '5', remaining: '2', reset: '3', retryAfter: '1' });

      // The refused batch took nothing: two single calls still fit.
      expect(
        (
          await request(app)
            .post('/api/v2/jsonRPC')
            .set('X-API-Key', BATCH_KEY)
            .send([rpc(7), rpc(8)])
        ).status,
      ).toBe(200);
      expect((await request(app).post('/api/v2/jsonRPC').set('X-API-Key', BATCH_KEY).send(rpc(9))).status).toBe(429);
    });

    it('a batch larger than the burst is refused; Retry-After is the time to a full bucket', async () => {
      const { app } = await build();
      const six = await request(app)
        .post('/api/v2/jsonRPC')
        .set('X-API-Key', BATCH_KEY)
        .send([1, 2, 3, 4, 5, 6].map((id) => rpc(id)));
      expect(six.status).toBe(429);
      expect(rateLimitHeaders(six)).toEqual({ policy: '5;w=5', limit: '5', remaining: '5', reset: '0', retryAfter: '1' });
    });

    it('keyless batches count per element too', async () => {
      const { app } = await build(['--keyless-rps', '2']);
      const res = await request(app)
        .post('/api/v2/jsonRPC')
        .send([rpc(1), rpc(2), rpc(3)]);
      expect(res.status).toBe(429);
      expect(
        (
          await request(app)
            .post('/api/v2/jsonRPC')
            .send([rpc(1), rpc(2)])
        ).status,
      ).toBe(200);
    });
  });

  it('never writes a key to the logs nor echoes it in an answer', async () => {
    const { app, logLines } = await build();
    const answers = [
      await request(app).get(DETECT_PATH).set('X-API-Key', UNKNOWN_KEY),
      await request(app).get(`${DETECT_PATH}&api_key=${UNKNOWN_KEY}`),
      await request(app).get(`${DETECT_PATH}&api_key=${SLOW_KEY}`),
      await request(app).get(DETECT_PATH).set('X-API-Key', SLOW_KEY),
      await request(app).get(DETECT_PATH).set('X-API-Key', SLOW_KEY),
      await request(app).post('/api/v2/jsonRPC').set('X-API-Key', MAINNET_KEY).send(rpc(1)),
    ];
    expect(answers.map((res) => res.status)).toEqual([401, 401, 200, 200, 429, 403]);
    expect(logLines.length).toBeGreaterThan(6);
    const everything = logLines.join('\n') + answers.map((res) => res.text).join('\n');
    for (const key of [UNKNOWN_KEY, SLOW_KEY, MAINNET_KEY]) expect(everything).not.toContain(key);
    expect(logLines.some((line) => line.includes('api_key=[redacted]'))).toBe(true);
  });
});
