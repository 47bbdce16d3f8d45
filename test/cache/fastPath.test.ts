import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../../src/logging/index';
import { httpRequests } from '../../src/metrics/registry';
import { deleteKeysWithPrefix, describeWithRedis, REDIS_URL, redisReachableSync, uniquePrefix } from '../auth/helpers';
import { viaFastPath } from '../helpers/fastPath';
import { startExpressOnly, startLocalStack, type LocalStack } from '../helpers/localStack';
import { until } from '../helpers/waiting';
import { rawRequest, type Answer } from '../hostile/support';
import { logLineSink } from '../helpers/logLines';

/**
 * The fast path (src/routes/fastPath.ts) against the Express app it stands in front of: the same
 * local chain, pool, response cache and access gate (buckets in Redis) served twice, by the API
 * as it runs (fast path first) and by the app alone. For every cached method and mode, a hit
 * must give the same status, headers and body bytes (but for the time and elapsed figures of
 * `@extra`), the same refusals, the same log line; misses go to the app and then hit.
 */

const FREE_KEY = 'fast-path-free-key-000000000001';
const MAINNET_KEY = 'fast-path-mainnet-key-00000000002';
/** Two keys with the same small limit, one per path, so that both paths see the same bucket states. */
const LIMITED_KEYS = { fast: 'fast-path-limited-key-0000000003', express: 'fast-path-limited-key-0000000004' };
const UNKNOWN_KEY = 'fast-path-unknown-key-00000000005';
const REQUEST_ID = 'fast-path-compare-1';

interface Call {
  readonly name: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: string;
}

const logLines: string[] = [];
const prefix = uniquePrefix();
let stack: LocalStack;
let express: Awaited<ReturnType<typeof startExpressOnly>>;
let account: string;
let otherAccount: string;

function send(base: string, call: Call, headers: Record<string, string> = {}): Promise<Answer> {
  return rawRequest(base, {
    method: call.method,
    path: call.path,
    headers: {
      'X-Request-Id': REQUEST_ID,
      'X-API-Key': FREE_KEY,
      ...(call.body === undefined ? {} : { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(call.body)) }),
      ...headers,
    },
    ...(call.body === undefined ? {} : { body: call.body }),
  });
}

const EXTRA = /"@extra":"\d+:([^:"]*):\d+\.\d{3}"/;

/** An answer as both paths must give it: `@extra`'s time and elapsed figures (and so the length and ETag) aside. */
function comparable(answer: Answer): { status: number; headers: Record<string, unknown>; text: string } {
  const text = answer.text.replace(EXTRA, '"@extra":"<time>:$1:<elapsed>"');
  const headers: Record<string, unknown> = { ...answer.headers };
  expect(headers['content-length']).toBe(String(Buffer.byteLength(answer.text)));
  for (const varying of ['date', 'content-length', 'etag']) {
    if (varying in headers) headers[varying] = '<present>';
  }
  return { status: answer.status, headers, text };
}

const resultOf = (answer: Answer) => (answer.body as { result: Record<string, unknown> }).result;
const seqnoOf = (block: unknown) => (block as { seqno: number }).seqno;

async function mine(): Promise<void> {
  const mined = await rawRequest(stack.url, { method: 'POST', path: '/localnet/mine', headers: { 'X-API-Key': FREE_KEY } });
  expect(mined.status).toBe(200);
}

describeWithRedis('the fast path answers cached calls as the app does', redisReachableSync(REDIS_URL), () => {
  beforeAll(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thb-fast-path-'));
    const keysFile = path.join(dir, 'keys.yaml');
    const limited = (name: string, key: string) =>
      `  - name: ${name}\n    key: ${key}\n    rps: 0.01\n    burst: 2\n    networks: [local]\n`;
    fs.writeFileSync(
      keysFile,
      `keys:\n  - name: free\n    key: ${FREE_KEY}\n    rps: 0\n    networks: [local]\n  - name: mainnet\n    key: ${MAINNET_KEY}\n    rps: 0\n    networks: [mainnet]\n` +
        limited('limited-fast', LIMITED_KEYS.fast) +
        limited('limited-express', LIMITED_KEYS.express),
    );
    const sink = logLineSink(logLines);
    // Blocks only when mined, so that both paths answer at the same head; keyless clients are told
    // apart by X-Forwarded-For; buckets live in Redis (the gate's asynchronous path).
    stack = await startLocalStack(
      [
        '--block-interval',
        '0',
        '--keys-file',
        keysFile,
        '--keyless-rps',
        '1',
        '--trust-proxy',
        '--redis-url',
        REDIS_URL,
        '--limiter-prefix',
        prefix,
      ],
      createLogger('info', sink),
    );
    express = await startExpressOnly(stack);
    account = stack.localnet.wallets.wallets[0]!.address.toString();
    otherAccount = stack.localnet.wallets.wallets[1]!.address.toString();
  }, 120_000);

  afterAll(async () => {
    await express?.close();
    await stack?.stop();
    await deleteKeysWithPrefix(REDIS_URL, prefix);
  });

  test('every cached method, GET, POST and JSON-RPC: the same status, headers and bytes as the app', async () => {
    const head = seqnoOf(resultOf(await send(stack.url, { name: 'head', method: 'GET', path: '/api/v2/getMasterchainInfo' }))['last']);
    const calls: Call[] = [
      { name: 'getMasterchainInfo GET', method: 'GET', path: '/api/v2/getMasterchainInfo' },
      { name: 'getMasterchainInfo POST', method: 'POST', path: '/api/v2/getMasterchainInfo', body: '{}' },
      { name: 'getAddressInformation GET', method: 'GET', path: `/api/v2/getAddressInformation?address=${account}` },
      {
        name: 'getAddressInformation POST',
        method: 'POST',
        path: '/api/v2/getAddressInformation',
        body: JSON.stringify({ address: account }),
      },
      { name: 'getAddressInformation at a seqno', method: 'GET', path: `/api/v2/getAddressInformation?address=${account}&seqno=${head}` },
      { name: 'getWalletInformation', method: 'GET', path: `/api/v2/getWalletInformation?address=${account}` },
      { name: 'getAddressBalance', method: 'GET', path: `/api/v2/getAddressBalance?address=${account}` },
      { name: 'getConfigParam', method: 'GET', path: '/api/v2/getConfigParam?config_id=34' },
      { name: 'shards (alias of getShards)', method: 'GET', path: `/api/v2/shards?seqno=${head}` },
      { name: 'getTransactions', method: 'GET', path: `/api/v2/getTransactions?address=${account}&limit=3` },
      {
        name: 'runGetMethod seqno',
        method: 'POST',
        path: '/api/v2/runGetMethod',
        body: JSON.stringify({ address: account, method: 'seqno', stack: [] }),
      },
      {
        name: 'JSON-RPC getAddressInformation',
        method: 'POST',
        path: '/api/v2/jsonRPC',
        body: JSON.stringify({ jsonrpc: '2.0', id: 'call-1', method: 'getAddressInformation', params: { address: account } }),
      },
      {
        name: 'JSON-RPC runGetMethod at POST /',
        method: 'POST',
        path: '/',
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'runGetMethod', params: { address: account, method: 'seqno', stack: [] } }),
      },
    ];
    // The key in the query instead of the header: read by the gate, never part of the parameters.
    const withKeyInQuery = { 'X-API-Key': '' };
    calls.push({
      name: 'api_key in the query',
      method: 'GET',
      path: `/api/v2/getAddressInformation?address=${account}&api_key=${FREE_KEY}`,
    });
    for (const call of calls) {
      const headers = call.name === 'api_key in the query' ? withKeyInQuery : {};
      // The app computes the answer once; its second answer is a hit, as the fast path's must be.
      await send(express.url, call, headers);
      const fromApp = await send(express.url, call, headers);
      const fromFastPath = await viaFastPath('hit', () => send(stack.url, call, headers));
      expect({ call: call.name, status: fromApp.status }).toEqual({ call: call.name, status: 200 });
      if (!call.name.startsWith('JSON-RPC')) expect(fromApp.headers['x-cache']).toBe('hit');
      expect({ call: call.name, ...comparable(fromFastPath) }).toEqual({ call: call.name, ...comparable(fromApp) });
    }
  }, 60_000);

  test('a hit counts in the request metrics and writes the line pino-http writes', async () => {
    const call: Call = { name: 'getAddressBalance', method: 'GET', path: `/api/v2/getAddressBalance?address=${account}` };
    await send(express.url, call);
    const counted = async () =>
      (await httpRequests.get()).values.find(
        (v) => v.labels.method === 'getAddressBalance' && v.labels.mode === 'rest' && v.labels.status === '200',
      )?.value ?? 0;
    const lines = async (base: string, headers: Record<string, string> = {}): Promise<Record<string, unknown>> => {
      const from = logLines.length;
      await send(base, call, headers);
      await until(() => logLines.slice(from).some((line) => line.includes(REQUEST_ID)), 5000, 'the request log line');
      const line = JSON.parse(logLines.slice(from).find((text) => text.includes(REQUEST_ID))!) as Record<string, unknown>;
      delete line['time'];
      delete line['responseTime'];
      return line;
    };
    const before = await counted();
    const fromFastPath = await viaFastPath('hit', () => lines(stack.url));
    expect(await counted()).toBe(before + 1);
    const fromApp = await lines(express.url);
    expect(Object.keys(fromFastPath)).toEqual(Object.keys(fromApp));
    expect(fromFastPath).toEqual(fromApp);
    expect(fromFastPath).toEqual(expect.objectContaining({ level: 30, msg: 'request completed', res: { statusCode: 200 } }));
    // A refusal: a warning line on both paths.
    const refusedFast = await viaFastPath('refused', () => lines(stack.url, { 'X-API-Key': UNKNOWN_KEY }));
    expect(refusedFast).toEqual(await lines(express.url, { 'X-API-Key': UNKNOWN_KEY }));
    expect(refusedFast).toEqual(expect.objectContaining({ level: 40, res: { statusCode: 401 } }));
  }, 60_000);

  test('a hit after a new block: a "latest" answer never outlives its head', async () => {
    const call: Call = { name: 'getAddressInformation', method: 'GET', path: `/api/v2/getAddressInformation?address=${account}` };
    const info: Call = { name: 'getMasterchainInfo', method: 'GET', path: '/api/v2/getMasterchainInfo' };
    await send(stack.url, call);
    await send(stack.url, info);
    const before = await viaFastPath('hit', () => send(stack.url, call));
    const headBefore = await viaFastPath('hit', () => send(stack.url, info));
    const seqno = seqnoOf(resultOf(before)['block_id']);
    expect(seqnoOf(resultOf(headBefore)['last'])).toBe(seqno);
    await mine();
    // The head tracker has the new block (the control waits for it): the cached answer is not served.
    const after = await viaFastPath('handed_over', () => send(stack.url, call));
    expect(after.headers['x-cache']).toBe('miss');
    expect(seqnoOf(resultOf(after)['block_id'])).toBe(seqno + 1);
    const headAfter = await viaFastPath('handed_over', () => send(stack.url, info));
    expect(seqnoOf(resultOf(headAfter)['last'])).toBe(seqno + 1);
    const again = await viaFastPath('hit', () => send(stack.url, call));
    expect(resultOf(again)).toEqual(resultOf(after));
    expect(seqnoOf(resultOf(await viaFastPath('hit', () => send(stack.url, info)))['last'])).toBe(seqno + 1);
    // An answer at an explicit seqno stays a hit after newer blocks.
    const atSeqno: Call = { name: 'at seqno', method: 'GET', path: `/api/v2/getAddressBalance?address=${account}&seqno=${seqno + 1}` };
    await send(stack.url, atSeqno);
    await mine();
    const old = await viaFastPath('hit', () => send(stack.url, atSeqno));
    expect(old.body).toEqual(expect.objectContaining({ ok: true, '@extra': expect.stringMatching(/^\d+:_:\d+\.\d{3}$/) }));
  }, 60_000);

  test('401, 403 and 429 (keyed, keyless, JSON-RPC) are the refusals the app sends', async () => {
    const call: Call = { name: 'getMasterchainInfo', method: 'GET', path: '/api/v2/getMasterchainInfo' };
    await send(express.url, call);
    const both = async (
      outcome: 'hit' | 'refused',
      fastHeaders: Record<string, string>,
      appHeaders: Record<string, string>,
      what: Call = call,
    ) => {
      const fromFastPath = await viaFastPath(outcome, () => send(stack.url, what, fastHeaders));
      const fromApp = await send(express.url, what, appHeaders);
      expect(comparable(fromFastPath)).toEqual(comparable(fromApp));
      return fromFastPath;
    };
    const unknown = await both('refused', { 'X-API-Key': UNKNOWN_KEY }, { 'X-API-Key': UNKNOWN_KEY });
    expect(unknown.text).toBe('{"ok":false,"error":"API key does not exist","code":401}');
    const mainnet = await both('refused', { 'X-API-Key': MAINNET_KEY }, { 'X-API-Key': MAINNET_KEY });
    expect(mainnet.text).toBe('{"ok":false,"error":"Network not allowed","code":403}');
    // A key with a burst of 2: two hits (RateLimit headers), then 429 with Retry-After.
    const fast = { 'X-API-Key': LIMITED_KEYS.fast };
    const app = { 'X-API-Key': LIMITED_KEYS.express };
    expect((await both('hit', fast, app)).headers['ratelimit-remaining']).toBe('1');
    expect((await both('hit', fast, app)).headers['ratelimit-remaining']).toBe('0');
    const limited = await both('refused', fast, app);
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('100');
    expect(limited.body).toEqual({ ok: false, error: 'Ratelimit exceeded', code: 429, result: 'Ratelimit exceeded' });
    // JSON-RPC: the refusal echoes the call's id.
    const rpc: Call = {
      name: 'JSON-RPC',
      method: 'POST',
      path: '/api/v2/jsonRPC',
      body: JSON.stringify({ jsonrpc: '2.0', id: 'limited-9', method: 'getMasterchainInfo', params: {} }),
    };
    const rpcLimited = await both('refused', fast, app, rpc);
    expect(rpcLimited.body).toEqual(expect.objectContaining({ code: 429, jsonrpc: '2.0', id: 'limited-9' }));
    // Keyless: 1 rps per client address (the proxy's X-Forwarded-For here), the same on both paths.
    const keyless = (address: string) => ({ 'X-API-Key': '', 'X-Forwarded-For': address });
    expect((await both('hit', keyless('10.1.0.1'), keyless('10.1.0.2'))).headers['ratelimit-limit']).toBe('1');
    const keylessLimited = await both('refused', keyless('10.1.0.1'), keyless('10.1.0.2'));
    expect(keylessLimited.status).toBe(429);
  }, 60_000);

  test('a miss goes to the app (with the body the fast path read) and is then a hit', async () => {
    const cases: Call[] = [
      { name: 'GET', method: 'GET', path: `/api/v2/getAddressBalance?address=${otherAccount}` },
      {
        name: 'POST',
        method: 'POST',
        path: '/api/v2/runGetMethod',
        body: JSON.stringify({ address: account, method: 'get_public_key', stack: [] }),
      },
      {
        name: 'JSON-RPC',
        method: 'POST',
        path: '/api/v2/jsonRPC',
        body: JSON.stringify({ jsonrpc: '2.0', id: 11, method: 'getWalletInformation', params: { address: otherAccount } }),
      },
    ];
    for (const call of cases) {
      const miss = await viaFastPath('handed_over', () => send(stack.url, call));
      expect({ call: call.name, status: miss.status }).toEqual({ call: call.name, status: 200 });
      if (call.name !== 'JSON-RPC') expect(miss.headers['x-cache']).toBe('miss');
      const hit = await viaFastPath('hit', () => send(stack.url, call));
      expect(resultOf(hit)).toEqual(resultOf(miss));
      if (call.name !== 'JSON-RPC') expect(hit.headers['x-cache']).toBe('hit');
    }
    // A runGetMethod the contract answers with an exit code is a result too (no body is read twice).
    const failing: Call = {
      name: 'unknown get-method',
      method: 'POST',
      path: '/api/v2/runGetMethod',
      body: JSON.stringify({ address: account, method: 'no_such_method', stack: [] }),
    };
    const first = await viaFastPath('handed_over', () => send(stack.url, failing));
    const second = await viaFastPath('hit', () => send(stack.url, failing));
    expect(second.text.replace(EXTRA, '')).toBe(first.text.replace(EXTRA, ''));
  }, 60_000);

  test('what the app refuses goes to the app: parameters, frames, bodies, encodings', async () => {
    const refusals: [Call, number, Record<string, string>?][] = [
      [{ name: 'bad address', method: 'GET', path: '/api/v2/getAddressInformation?address=nope' }, 422],
      [{ name: 'missing address', method: 'POST', path: '/api/v2/getAddressInformation', body: '{}' }, 422],
      [{ name: 'array body', method: 'POST', path: '/api/v2/getAddressInformation', body: '[1]' }, 422],
      [{ name: 'not JSON', method: 'POST', path: '/api/v2/getAddressInformation', body: '{"address":' }, 422],
      [
        { name: 'too deep', method: 'POST', path: '/api/v2/getAddressInformation', body: `{"a":${'['.repeat(2000)}${']'.repeat(2000)}}` },
        422,
      ],
      [{ name: 'zstd', method: 'POST', path: '/api/v2/getAddressInformation', body: '{}' }, 415, { 'Content-Encoding': 'zstd' }],
      [{ name: 'not gzip', method: 'POST', path: '/api/v2/getAddressInformation', body: '{}' }, 400, { 'Content-Encoding': 'gzip' }],
      [{ name: 'JSON-RPC unknown method', method: 'POST', path: '/api/v2/jsonRPC', body: '{"jsonrpc":"2.0","id":1,"method":"nope"}' }, 422],
      [
        {
          name: 'JSON-RPC bad params',
          method: 'POST',
          path: '/api/v2/jsonRPC',
          body: '{"jsonrpc":"2.0","id":2,"method":"getAddressInformation","params":[1]}',
        },
        422,
      ],
    ];
    for (const [call, status, headers] of refusals) {
      const fromFastPath = await viaFastPath('handed_over', () => send(stack.url, call, headers));
      const fromApp = await send(express.url, call, headers);
      expect({ call: call.name, status: fromFastPath.status }).toEqual({ call: call.name, status });
      expect({ call: call.name, ...comparable(fromFastPath) }).toEqual({ call: call.name, ...comparable(fromApp) });
    }
    // A declared body over the limit is refused before it is read.
    const huge = await viaFastPath('handed_over', () =>
      rawRequest(stack.url, {
        method: 'POST',
        path: '/api/v2/getAddressInformation',
        headers: { 'X-API-Key': FREE_KEY, 'Content-Length': String(50 * 1024 * 1024) },
        body: '{',
      }),
    );
    expect(huge.status).toBe(413);
    // A URL Express reads with Node's legacy parser (a '#' cuts the query) is left to the app.
    const hashed = await viaFastPath(null, () =>
      send(stack.url, { name: 'hash', method: 'GET', path: `/api/v2/getAddressBalance?address=${account}#fragment` }),
    );
    expect(hashed.status).toBe(200);
    // A URL over 16 KiB never enters the fast path.
    const long = await viaFastPath(null, () =>
      send(stack.url, { name: 'long', method: 'GET', path: `/api/v2/getAddressInformation?address=${'A'.repeat(20_000)}` }),
    );
    expect(long.status).toBe(414);
  }, 60_000);
});
