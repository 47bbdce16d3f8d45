import { gzipSync } from 'node:zlib';
import { expectNoStall, leastStall } from '../helpers/stallProbe';
import { expectCanary, expectEnvelope, postJson, rawRequest } from './support';
import { startSplitStack, type SplitStack } from './support';
import { viaFastPath } from '../helpers/fastPath';

/**
 * Hostile request bodies, URLs and encodings against the whole product (local chain, pool,
 * HTTP): each case gets its 4xx in the v2 envelope, short text, and the server answers the
 * canary right after; the heavy ones also keep the event loop free.
 */

const ADDRESS = 'EQDtFpEwcFAEcRe5mLVh2N6C0x-_hJEM7W61_JLnSF74p4q2';

let stack: SplitStack;

beforeAll(async () => {
  stack = await startSplitStack();
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

function nested(depth: number, inner = '1'): string {
  return `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;
}

describe('JSON bodies', () => {
  test('a body nested 100 000 deep: 422 naming the bound, found by the pre-scan without blocking', async () => {
    const body = `{"address": ${nested(100_000)}}`;
    const { result, ...stall } = await leastStall(() => postJson(`${stack.api}/getAddressInformation`, body));
    expectEnvelope(result, 422, /^failed to parse post request: JSON nesting is deeper than 1024 levels$/);
    expectNoStall(stall);
    await expectCanary(stack.api);
  });

  test('a megabyte of tiny elements ([{},{},...], [1,1,...]): 422 naming the bound, found by the pre-scan without blocking', async () => {
    // Parsed, the first would be 350 000 objects (~100 ms of JSON.parse), the second 500 000 numbers.
    for (const unit of ['{}', '1']) {
      const items = Array.from({ length: Math.floor(1_000_000 / (unit.length + 1)) }, () => unit).join(',');
      const rest = await leastStall(() => postJson(`${stack.api}/getAddressInformation`, `{"address":[${items}]}`));
      expectEnvelope(rest.result, 422, /^failed to parse post request: JSON has more than 16384 array items and object members$/);
      expectNoStall(rest);
      const batch = await leastStall(() => postJson(`${stack.api}/jsonRPC`, `[${items}]`));
      expect(batch.result.status).toBe(422);
      expect(batch.result.body).toEqual({
        ok: false,
        error: 'failed to parse post request: JSON has more than 16384 array items and object members',
        code: 422,
        jsonrpc: '2.0',
        id: null,
      });
      expectNoStall(batch);
    }
    await expectCanary(stack.api);
  });

  test('a parameter nested 1000 deep (under the bound): 422 naming the parameter, a short quote', async () => {
    for (const url of [`${stack.api}/getAddressInformation`, `${stack.api}/jsonRPC`]) {
      const params = `{"address": ${nested(1000)}}`;
      const body = url.endsWith('jsonRPC') ? `{"jsonrpc":"2.0","id":3,"method":"getAddressInformation","params":${params}}` : params;
      const answer = await postJson(url, body);
      expectEnvelope(answer, 422, /^failed to parse post request: failed to parse address: expected a string, got '\[\[\[/);
      expect((answer.body as { error: string }).error.length).toBeLessThan(300);
    }
    await expectCanary(stack.api);
  });

  test('900 KB of input in a parameter: the error quotes at most ~200 characters', async () => {
    const huge = 'A'.repeat(900_000);
    const { result, ...stall } = await leastStall(() => postJson(`${stack.api}/getAddressInformation`, JSON.stringify({ address: huge })));
    expectEnvelope(result, 422, /^failed to parse post request: failed to parse address: Failed to parse ton_addr: 'A{200}\.\.\.'$/);
    expectNoStall(stall);
    const method = await postJson(`${stack.api}/jsonRPC`, JSON.stringify({ jsonrpc: '2.0', id: 1, method: huge, params: {} }));
    expectEnvelope(method, 422, /^Unknown method 'A{200}\.\.\.'$/);
    await expectCanary(stack.api);
  });

  test('malformed JSON: 422', async () => {
    expectEnvelope(
      await postJson(`${stack.api}/getAddressInformation`, '{"address": '),
      422,
      /^failed to parse post request: the body is not valid JSON$/,
    );
    await expectCanary(stack.api);
  });

  test('__proto__, constructor and prototype keys never become parameters (body and query)', async () => {
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      const body = `{"${key}": {"address": "${ADDRESS}"}}`;
      expectEnvelope(await postJson(`${stack.api}/getAddressInformation`, body), 422, /^failed to parse post request: address required$/);
      const rpcBody = `{"jsonrpc":"2.0","id":1,"method":"getAddressInformation","params":{"${key}": {"address": "${ADDRESS}"}}}`;
      expectEnvelope(await postJson(`${stack.api}/jsonRPC`, rpcBody), 422, /address required/);
      const query = await rawRequest(`${stack.api}/getAddressInformation?${key}=${ADDRESS}&${key}[address]=${ADDRESS}`);
      expectEnvelope(query, 422, /^failed to parse get request: address required$/);
    }
    // The prototype of plain objects is untouched.
    expect(({} as Record<string, unknown>)['address']).toBeUndefined();
    await expectCanary(stack.api);
  });

  test(`a JSON-RPC batch over --max-batch (100): 422 naming the bound`, async () => {
    const call = { jsonrpc: '2.0', id: 1, method: 'detectAddress', params: { address: ADDRESS } };
    const over = await postJson(`${stack.api}/jsonRPC`, JSON.stringify(Array.from({ length: 101 }, () => call)));
    expectEnvelope(over, 422, /^JSON-RPC batch of 101 calls is larger than the limit of 100 \(--max-batch\)$/);
    const at = await postJson(`${stack.api}/jsonRPC`, JSON.stringify(Array.from({ length: 100 }, () => call)));
    expect(at.status).toBe(200);
    expect(at.body).toHaveLength(100);
    await expectCanary(stack.api);
  });

  test('a JSON-RPC id beyond 2^53 is echoed (as JSON.parse would), not a 500', async () => {
    const answer = await postJson(
      `${stack.api}/jsonRPC`,
      '{"jsonrpc":"2.0","id":123456789012345678901,"method":"detectAddress","params":{"address":"' + ADDRESS + '"}}',
    );
    expect(answer.status).toBe(200);
    expect((answer.body as { id: number }).id).toBe(123456789012345678901);
    await expectCanary(stack.api);
  });
});

describe('encodings and sizes', () => {
  test('an unknown Content-Encoding: 415 before the body is read', async () => {
    const answer = await postJson(`${stack.api}/getAddressInformation`, JSON.stringify({ address: ADDRESS }), {
      'Content-Encoding': 'zstd',
    });
    expectEnvelope(answer, 415, /^unsupported Content-Encoding 'zstd': use gzip, deflate, br or identity$/);
    await expectCanary(stack.api);
  });

  test('a body that is not gzip sent as Content-Encoding: gzip: 400', async () => {
    const answer = await postJson(`${stack.api}/getAddressInformation`, JSON.stringify({ address: ADDRESS }), {
      'Content-Encoding': 'gzip',
    });
    expectEnvelope(answer, 400, /^the body is not valid compressed data for its Content-Encoding$/);
    await expectCanary(stack.api);
  });

  test('a gzip body is read; a gzip bomb stops at the body limit (413) without blocking', async () => {
    const ok = await postJson(`${stack.api}/detectAddress`, gzipSync(JSON.stringify({ address: ADDRESS })), { 'Content-Encoding': 'gzip' });
    expect(ok.status).toBe(200);
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const { result, ...stall } = await leastStall(() => postJson(`${stack.api}/detectAddress`, bomb, { 'Content-Encoding': 'gzip' }));
    expectEnvelope(result, 413, /^request body is larger than 1048576 bytes$/);
    expectNoStall(stall);
    await expectCanary(stack.api);
  });

  test('through the fast path (a cached method): a gzip bomb stops at the limit and a deep body at the pre-scan, without blocking', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
    const url = `${stack.api}/getAddressInformation`;
    const inflated = await leastStall(() => viaFastPath('handed_over', () => postJson(url, bomb, { 'Content-Encoding': 'gzip' })));
    expectEnvelope(inflated.result, 413, /^request body is larger than 1048576 bytes$/);
    expectNoStall(inflated);
    const deep = await leastStall(() => viaFastPath('handed_over', () => postJson(url, `{"address": ${nested(100_000)}}`)));
    expectEnvelope(deep.result, 422, /^failed to parse post request: JSON nesting is deeper than 1024 levels$/);
    expectNoStall(deep);
    // The gzip body of a hit is read like any other.
    const ok = await viaFastPath('handed_over', () =>
      postJson(url, gzipSync(JSON.stringify({ address: ADDRESS })), { 'Content-Encoding': 'gzip' }),
    );
    expect(ok.status).toBe(200);
    // The cache is keyed by the head: a block sealed between the two requests (the chain seals on
    // its own clock) makes the second a miss. Asked again, warmed on the new head, until two land on one.
    for (let attempt = 1; ; attempt++) {
      try {
        await viaFastPath('hit', () => postJson(url, gzipSync(JSON.stringify({ address: ADDRESS })), { 'Content-Encoding': 'gzip' }));
        break;
      } catch (err) {
        if (attempt >= 3) throw err;
      }
    }
    await expectCanary(stack.api);
  });

  test('a declared Content-Length over the limit: 413 before reading', async () => {
    // The announced 50 MB never come: the answer must not wait for them.
    const answer = await rawRequest(`${stack.api}/detectAddress`, {
      method: 'POST',
      headers: { 'Content-Length': String(50 * 1024 * 1024) },
      body: '{',
    });
    expectEnvelope(answer, 413, /^request body is larger than 1048576 bytes$/);
    await expectCanary(stack.api);
  });
});

describe('URLs', () => {
  test('a bad percent-escape in the path: 400', async () => {
    expectEnvelope(await rawRequest(`${stack.api}/getAddress%E0%A4%Information`), 400, /^malformed percent-escape in the path$/);
    await expectCanary(stack.api);
  });

  test('a URL over 16 KiB: 414 in the envelope, from the app and from the HTTP parser alike', async () => {
    for (const length of [20_000, 200_000]) {
      const answer = await rawRequest(`${stack.api}/detectAddress?address=${'A'.repeat(length)}`);
      expectEnvelope(answer, 414, /^URI Too Long/);
    }
    const atLimit = await rawRequest(`${stack.api}/detectAddress?address=${ADDRESS}&pad=${'x'.repeat(15_000)}`);
    expect(atLimit.status).toBe(200);
    await expectCanary(stack.api);
  });
});
