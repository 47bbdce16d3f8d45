import { Address } from '@ton/core';
import request from 'supertest';
import { ADDRESS, buildAuthApp, manualClock, tempDir, writeFile } from '../auth/helpers';

/**
 * JSON-RPC where clients post it: `POST /`, `/api/v2` and `/api/v2/` are `/api/v2/jsonRPC` (same
 * answers, keys, rate limits and body limit); `GET /` leads to the docs under `/api/v2/`.
 */

const KEY = 'alias-key-0000000000000001';
const KEYS_YAML = `
keys:
  - name: alias
    key: ${KEY}
    rps: 1
    burst: 2
    networks: [local]
`;
const ALIASES = ['/', '/api/v2', '/api/v2/'];
const parsed = Address.parse(ADDRESS);
const RAW = `${parsed.workChain}:${parsed.hash.toString('hex').toUpperCase()}`;

function call(id: number | string, method = 'unpackAddress', params: Record<string, unknown> = { address: ADDRESS }) {
  return { jsonrpc: '2.0', id, method, params };
}

describe('JSON-RPC aliases', () => {
  const keysFile = writeFile(tempDir(), 'keys.yaml', KEYS_YAML);

  test.each(ALIASES)('POST %s answers exactly as /api/v2/jsonRPC (success, errors, batches)', async (path) => {
    const { app } = await buildAuthApp(['--keyless-rps', '0']);
    for (const body of [
      call(7),
      call('x', 'detectAddress', { address: 'bad' }),
      call(1, 'nope'),
      [call(1), call(2, 'packAddress', { address: RAW })],
    ]) {
      const viaAlias = await request(app).post(path).send(body);
      const canonical = await request(app).post('/api/v2/jsonRPC').send(body);
      expect(viaAlias.status).toBe(canonical.status);
      const strip = (value: unknown): unknown =>
        Array.isArray(value) ? value.map(strip) : { ...(value as Record<string, unknown>), '@extra': undefined };
      expect(strip(viaAlias.body)).toEqual(strip(canonical.body));
    }
    const ok = await request(app).post(path).send(call(7));
    expect(ok.body).toMatchObject({ ok: true, result: RAW, jsonrpc: '2.0', id: 7 });
  });

  test('a query string survives the rewrite (api_key in the URL)', async () => {
    const { app } = await buildAuthApp(['--keys-file', keysFile, '--keyless-rps', '0']);
    const res = await request(app).post(`/?api_key=unknown-key-00000000000001`).send(call(1));
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ ok: false, code: 401, error: 'API key does not exist', jsonrpc: '2.0', id: 1 });
    expect((await request(app).post(`/api/v2?api_key=${KEY}`).send(call(2))).body).toMatchObject({ ok: true, id: 2 });
  });

  test('the same key bucket is charged whichever path is used', async () => {
    const clock = manualClock();
    const { app } = await buildAuthApp(['--keys-file', keysFile], { clock: clock.now });
    expect((await request(app).post('/').set('X-API-Key', KEY).send(call(1))).status).toBe(200);
    expect((await request(app).post('/api/v2/').set('X-API-Key', KEY).send(call(2))).status).toBe(200);
    const refused = await request(app).post('/api/v2/jsonRPC').set('X-API-Key', KEY).send(call(3));
    expect(refused.status).toBe(429);
    const refusedAlias = await request(app).post('/api/v2').set('X-API-Key', KEY).send(call(4));
    expect(refusedAlias.status).toBe(429);
    expect(refusedAlias.body).toMatchObject({ ok: false, code: 429, jsonrpc: '2.0', id: 4 });
    // A batch costs one token per element at an alias too.
    clock.advance(2000);
    expect(
      (
        await request(app)
          .post('/')
          .set('X-API-Key', KEY)
          .send([call(1), call(2), call(3)])
      ).status,
    ).toBe(429);
    expect(
      (
        await request(app)
          .post('/')
          .set('X-API-Key', KEY)
          .send([call(1), call(2)])
      ).status,
    ).toBe(200);
  });

  test('the keyless limit applies at the aliases', async () => {
    const clock = manualClock();
    const { app } = await buildAuthApp(['--keyless-rps', '1'], { clock: clock.now });
    expect((await request(app).post('/').send(call(1))).status).toBe(200);
    expect((await request(app).post('/api/v2').send(call(2))).status).toBe(429);
  });

  test('the body limit applies at the aliases', async () => {
    const { app } = await buildAuthApp(['--keyless-rps', '0', '--body-limit', '1kb']);
    const big = call(1, 'unpackAddress', { address: ADDRESS, padding: 'x'.repeat(4096) });
    for (const path of ALIASES) {
      const res = await request(app).post(path).send(big);
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({ ok: false, code: 413 });
    }
  });

  test('GET / redirects to the docs under /api/v2/; other verbs and paths are unchanged', async () => {
    const { app } = await buildAuthApp(['--keyless-rps', '0']);
    const res = await request(app).get('/');
    expect(res.status).toBe(302);
    expect(res.headers['location']).toBe('/api/v2/');
    expect((await request(app).post('/api/v2/unpackAddress').send({ address: ADDRESS })).body).toMatchObject({ ok: true, result: RAW });
    expect((await request(app).post('/api/v3').send(call(1))).status).toBe(404);
  });
});
