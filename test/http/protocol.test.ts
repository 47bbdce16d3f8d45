import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createApiHttpServer } from '../../src/intake';
import { API_VERSION } from '../../src/routes/http';
import { buildTestApp } from '../helpers/app';

const ADDRESS = 'EQDXZ2c5LnA12Eum-DlguTmfYkMOvNeFCh4rBD0tgmwjcFI-';

describe('REST protocol', () => {
  const { app } = buildTestApp(['--body-limit', '2kb']);

  test('unknown method: 404 in the v2 shape', async () => {
    for (const res of [await request(app).get('/api/v2/noSuchMethod'), await request(app).post('/api/v2/noSuchMethod').send({})]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ ok: false, error: 'Not Found', code: 404 });
    }
    const outside = await request(app).get('/elsewhere');
    expect(outside.status).toBe(404);
    expect(outside.body.code).toBe(404);
  });

  test('wrong verb: 405 JSON (runGetMethod and sendBoc are POST only)', async () => {
    for (const method of ['runGetMethod', 'sendBoc', 'estimateFee', 'runGetMethodStd']) {
      const res = await request(app).get(`/api/v2/${method}`);
      expect(res.status).toBe(405);
      expect(res.body).toEqual({ ok: false, error: 'method GET is not supported', code: 405 });
    }
    const put = await request(app).put('/api/v2/detectAddress').send({ address: ADDRESS });
    expect(put.status).toBe(405);
    const rpcGet = await request(app).get('/api/v2/jsonRPC');
    expect(rpcGet.status).toBe(405);
    expect(rpcGet.body.code).toBe(405);
  });

  test('malformed JSON body: 422 JSON, not a 500 or HTML', async () => {
    const res = await request(app).post('/api/v2/detectAddress').set('Content-Type', 'application/json').send('{"address": ');
    expect(res.status).toBe(422);
    expect(res.type).toBe('application/json');
    expect(res.body).toEqual({ ok: false, code: 422, error: 'failed to parse post request: the body is not valid JSON' });
  });

  test('a body that is not an object is rejected', async () => {
    const res = await request(app).post('/api/v2/detectAddress').set('Content-Type', 'application/json').send('[1,2]');
    expect(res.status).toBe(422);
  });

  test('a JSON body is parsed whatever its Content-Type (curl -d)', async () => {
    const res = await request(app)
      .post('/api/v2/detectAddress')
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send(JSON.stringify({ address: ADDRESS }));
    expect(res.status).toBe(200);
    expect(res.body.result.raw_form).toBe('0:d76767392e7035d84ba6f83960b9399f62430ebcd7850a1e2b043d2d826c2370');
  });

  test('a body over the configured limit: 413 JSON', async () => {
    const res = await request(app)
      .post('/api/v2/sendBoc')
      .send({ boc: 'A'.repeat(4096) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ ok: false, code: 413, error: 'request body is larger than 2048 bytes' });
  });

  test('unknown GET parameters are ignored, api_key never reaches the handler', async () => {
    const res = await request(app).get('/api/v2/detectAddress').query({ address: ADDRESS, foo: 'bar', api_key: 'k' });
    expect(res.status).toBe(200);
  });

  test('methods not built yet answer 501 in the v2 shape once their parameters are valid', async () => {
    const res = await request(app).get('/api/v2/getConsensusBlock');
    expect([501, 503]).toContain(res.status);
    expect(res.body.ok).toBe(false);
  });

  test('the success envelope has ok, result and @extra', async () => {
    const res = await request(app).get('/api/v2/unpackAddress').query({ address: ADDRESS });
    expect(Object.keys(res.body)).toEqual(['ok', 'result', '@extra']);
    expect(res.body['@extra']).toMatch(/^\d+:_:\d+\.\d{3}$/);
  });
});

describe('headers and CORS', () => {
  const { app } = buildTestApp();

  test('X-API-Version, X-Request-Id and CORS on successes and errors', async () => {
    for (const res of [
      await request(app).get('/api/v2/detectAddress').query({ address: ADDRESS }),
      await request(app).get('/api/v2/detectAddress').query({ address: 'bad' }),
      await request(app).get('/api/v2/nothing'),
    ]) {
      expect(res.headers['x-api-version']).toBe('2.1');
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers['access-control-allow-origin']).toBe('*');
    }
  });

  test('a caller-chosen X-Request-Id is echoed', async () => {
    const res = await request(app).get('/api/v2/detectAddress').set('X-Request-Id', 'trace-42').query({ address: ADDRESS });
    expect(res.headers['x-request-id']).toBe('trace-42');
  });

  test('preflight allows the headers TonClient and tonweb send', async () => {
    const res = await request(app)
      .options('/api/v2/jsonRPC')
      .set('Origin', 'https://wallet.example')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'content-type,x-api-key,x-ton-client-version');
    expect(res.status).toBe(204);
    const allowed = String(res.headers['access-control-allow-headers']).toLowerCase();
    for (const header of ['content-type', 'x-api-key', 'x-ton-client-version']) expect(allowed).toContain(header);
    expect(res.headers['access-control-allow-methods']).toContain('POST');
  });

  test('the health route answers', async () => {
    const res = await request(app).get('/api/v2/healthcheck');
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
  });
});

describe('JSON-RPC', () => {
  const { app } = buildTestApp();
  const rpc = (body: unknown) => request(app).post('/api/v2/jsonRPC').send(body as object);

  test('echoes a numeric id as a number and a string id as a string', async () => {
    const numeric = await rpc({ jsonrpc: '2.0', id: 1, method: 'unpackAddress', params: { address: ADDRESS } });
    expect(numeric.status).toBe(200);
    expect(numeric.body).toMatchObject({ ok: true, jsonrpc: '2.0', id: 1 });
    const text = await rpc({ jsonrpc: '2.0', id: '1', method: 'unpackAddress', params: { address: ADDRESS } });
    expect(text.body).toMatchObject({ ok: true, jsonrpc: '2.0', id: '1' });
    expect(Object.keys(text.body)).toEqual(['ok', 'result', '@extra', 'jsonrpc', 'id']);
  });

  test('answers a request without id or jsonrpc (toncenter never drops a call)', async () => {
    const res = await rpc({ method: 'unpackAddress', params: { address: ADDRESS } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, id: null });
  });

  test('POST-only methods are callable', async () => {
    const res = await rpc({ jsonrpc: '2.0', id: 3, method: 'sendBoc', params: { boc: 'not base64!' } });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ ok: false, code: 422, jsonrpc: '2.0', id: 3 });
  });

  test('errors carry the code as HTTP status with jsonrpc and id', async () => {
    const res = await rpc({ jsonrpc: '2.0', id: 'x', method: 'detectAddress', params: { address: 'nope' } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      ok: false,
      error: "failed to parse post request: failed to parse address: Failed to parse ton_addr: 'nope'",
      code: 422,
      jsonrpc: '2.0',
      id: 'x',
    });
  });

  test('unknown method, missing method and non-object params: clear 422s', async () => {
    const unknown = await rpc({ jsonrpc: '2.0', id: 1, method: 'getEverything', params: {} });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error).toBe("Unknown method 'getEverything'");
    const missing = await rpc({ jsonrpc: '2.0', id: 2, params: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.error).toBe('JSON-RPC request has no method');
    const arrayParams = await rpc({ jsonrpc: '2.0', id: 3, method: 'detectAddress', params: [ADDRESS] });
    expect(arrayParams.status).toBe(422);
    expect(arrayParams.body.error).toBe('params must be a JSON object of named parameters');
  });

  test('aliases resolve to the same handler', async () => {
    const res = await rpc({ jsonrpc: '2.0', id: 1, method: 'shards', params: { seqno: 0 } });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('failed to validate request: seqno should be positive');
  });

  test('a batch is answered element by element, in order', async () => {
    const res = await rpc([
      { jsonrpc: '2.0', id: 1, method: 'unpackAddress', params: { address: ADDRESS } },
      { jsonrpc: '2.0', id: 'two', method: 'detectAddress', params: { address: 'bad' } },
      { jsonrpc: '2.0', id: 3, method: 'nope' },
      42,
      { jsonrpc: '2.0', id: 5, method: 'packAddress', params: { address: '0:d76767392e7035d84ba6f83960b9399f62430ebcd7850a1e2b043d2d826c2370' } },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(5);
    expect(res.body[0]).toMatchObject({ ok: true, id: 1, result: '0:D76767392E7035D84BA6F83960B9399F62430EBCD7850A1E2B043D2D826C2370' });
    expect(res.body[1]).toMatchObject({ ok: false, id: 'two', code: 422 });
    expect(res.body[2]).toMatchObject({ ok: false, id: 3, code: 422 });
    expect(res.body[3]).toMatchObject({ ok: false, id: null, code: 422 });
    expect(res.body[4]).toMatchObject({ ok: true, id: 5, result: 'EQDXZ2c5LnA12Eum-DlguTmfYkMOvNeFCh4rBD0tgmwjcFI-' });
  });

  test('an empty batch is an error', async () => {
    const res = await rpc([]);
    expect(res.status).toBe(422);
  });
});

describe('logging', () => {
  test('every request is logged with id, method, status and duration; keys are redacted', async () => {
    const { app, logLines } = buildTestApp();
    const secret = 'very-secret-key-0123456789';
    await request(app).get('/api/v2/detectAddress').set('X-API-Key', secret).query({ address: ADDRESS });
    await request(app).get('/api/v2/detectAddress').query({ address: ADDRESS, api_key: secret });
    await request(app).post('/api/v2/jsonRPC').set('X-API-Key', secret).send({ id: 1, method: 'detectAddress', params: { address: ADDRESS } });
    await request(app).post(`/api/v2/jsonRPC?api_key=${secret}`).send({ id: 1, method: 'detectAddress', params: { address: 'bad' } });
    expect(logLines.length).toBeGreaterThanOrEqual(4);
    for (const line of logLines) expect(line).not.toContain(secret);
    const entries = logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const completed = entries.filter((entry) => entry['msg'] === 'request completed');
    expect(completed).toHaveLength(4);
    for (const entry of completed) {
      expect(entry).toMatchObject({ req: { method: expect.any(String), id: expect.any(String) }, res: { statusCode: expect.any(Number) } });
      expect(typeof entry['responseTime']).toBe('number');
    }
    expect(JSON.stringify(entries[1])).toContain('api_key=[redacted]');
  });
});

describe('the API HTTP server', () => {
  test("requests and responses are born with the app's prototypes and served by it as before", async () => {
    const { app, services } = buildTestApp();
    const seen: boolean[] = [];
    const http = createApiHttpServer(
      (req, res) => {
        seen.push(Object.getPrototypeOf(req) === app.request && Object.getPrototypeOf(res) === app.response);
        app(req, res);
      },
      services.logger,
      API_VERSION,
      app,
    );
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}/api/v2`;
      const got = await fetch(`${base}/detectAddress?address=${ADDRESS}`);
      expect(got.status).toBe(200);
      expect(((await got.json()) as { result: { raw_form: string } }).result.raw_form).toMatch(/^0:[0-9a-f]{64}$/);
      const posted = await fetch(`${base}/detectAddress`, { method: 'POST', body: JSON.stringify({ address: 'bad' }) });
      expect(posted.status).toBe(422);
      expect(seen).toEqual([true, true]);
    } finally {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    }
  });
});
