import request from 'supertest';
import { HANDLERS } from '../../src/methods';
import type { Handler } from '../../src/methods/types';
import { buildTestApp } from '../helpers/app';

const { app } = buildTestApp();

/** A value each parameter type accepts, and one it must reject. */
const SAMPLES: Record<string, { valid: unknown; malformed: unknown }> = {
  address: { valid: '0:d76767392e7035d84ba6f83960b9399f62430ebcd7850a1e2b043d2d826c2370', malformed: 'EQnot-an-address' },
  hash: { valid: 'ab'.repeat(32), malformed: 'xyz' },
  'hash[]': { valid: ['ab'.repeat(32)], malformed: ['zz'] },
  'address | hash': { valid: 'ab'.repeat(32), malformed: '12345' },
  int32: { valid: 1, malformed: '1.5' },
  int64: { valid: '-9223372036854775808', malformed: '0x10' },
  bool: { valid: true, malformed: 'maybe' },
  base64: { valid: 'te6cckEBAQEAAgAAAEysuc0=', malformed: 'not base64!' },
  string: { valid: 'seqno', malformed: 12 },
  'string | int': { valid: 'seqno', malformed: { name: 'seqno' } },
  array: { valid: [], malformed: 'not an array' },
};

function validParams(handler: Handler): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(handler.params)) {
    if (spec.required && spec.defaultValue === undefined) out[name] = SAMPLES[spec.type]!.valid;
  }
  return out;
}

type Mode = 'GET' | 'POST' | 'JSON-RPC';

function modesOf(handler: Handler): Mode[] {
  return [...(handler.verbs.includes('GET') ? (['GET'] as const) : []), 'POST', 'JSON-RPC'];
}

function asQuery(params: Record<string, unknown>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(params)) {
    out[key] = Array.isArray(value) ? value.map(String) : typeof value === 'string' ? value : JSON.stringify(value);
  }
  return out;
}

async function call(mode: Mode, method: string, params: Record<string, unknown>) {
  if (mode === 'GET') return request(app).get(`/api/v2/${method}`).query(asQuery(params));
  if (mode === 'POST') return request(app).post(`/api/v2/${method}`).send(params);
  return request(app).post('/api/v2/jsonRPC').send({ jsonrpc: '2.0', id: 'v', method, params });
}

const requiredCases = HANDLERS.flatMap((handler) =>
  Object.entries(handler.params)
    .filter(([, spec]) => spec.required && spec.defaultValue === undefined)
    .flatMap(([name]) => modesOf(handler).map((mode) => [handler.name, name, mode, handler] as const)),
);

const malformedCases = HANDLERS.flatMap((handler) =>
  Object.entries(handler.params)
    // A GET query string cannot carry a non-string, so type-only mistakes are checked in POST modes.
    .flatMap(([name, spec]) =>
      modesOf(handler)
        .filter((mode) => mode !== 'GET' || typeof SAMPLES[spec.type]!.malformed === 'string' || Array.isArray(SAMPLES[spec.type]!.malformed))
        .map((mode) => [handler.name, name, mode, handler] as const),
    ),
);

describe('every method of the table rejects a missing required parameter with 422', () => {
  test('the table has every method of the reference', () => {
    expect(HANDLERS.length).toBeGreaterThanOrEqual(36);
  });

  test.each(requiredCases)('%s without %s (%s)', async (method, name, mode, handler) => {
    const params = validParams(handler);
    delete params[name];
    const res = await call(mode, method, params);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ ok: false, code: 422 });
    expect(res.body.error).toContain(name);
  });
});

describe('every method of the table rejects a malformed parameter with 422, naming it and the value', () => {
  test.each(malformedCases)('%s with a bad %s (%s)', async (method, name, mode, handler) => {
    const spec = handler.params[name]!;
    const params = { ...validParams(handler), [name]: SAMPLES[spec.type]!.malformed };
    const res = await call(mode, method, params);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ ok: false, code: 422 });
    expect(res.body.error).toContain(`failed to parse ${mode === 'GET' ? 'get' : 'post'} request: failed to parse ${name}`);
  });
});

describe('semantic validation (toncenter texts)', () => {
  test.each([
    ['getAddressInformation', { address: SAMPLES['address']!.valid, seqno: 0 }, 'seqno should be positive'],
    ['lookupBlock', { workchain: -1, shard: '-9223372036854775808' }, 'exactly one of seqno, lt, unixtime should be specified'],
    ['lookupBlock', { workchain: -1, shard: '-9223372036854775808', seqno: 1, lt: 5 }, 'exactly one of seqno, lt, unixtime should be specified'],
    ['getBlockTransactions', { workchain: -1, shard: '-9223372036854775808', seqno: 1, count: 10001 }, 'count should be less or equal 10000'],
    ['getBlockTransactions', { workchain: -1, shard: '-9223372036854775808', seqno: 1, after_lt: 5 }, 'after_lt and after_hash should be used together'],
    ['getTransactions', { address: SAMPLES['address']!.valid, limit: 1001 }, 'limit should be less or equal 1000'],
    ['getTransactions', { address: SAMPLES['address']!.valid, limit: 0 }, 'limit should be positive'],
    ['getTransactions', { address: SAMPLES['address']!.valid, lt: '5' }, 'lt and hash should be used together'],
    ['getShardBlockProof', { workchain: 0, shard: '-9223372036854775808', seqno: 3, from_seqno: -1 }, 'from_seqno should be non-negative'],
    ['getConfigParam', { param: 1, config_id: 2 }, 'only one of config_id or param should be specified'],
    ['sendBoc', { boc: '' }, 'boc required'],
  ])('%s %j', async (method, params, text) => {
    const res = await call('POST', method, params);
    expect(res.status).toBe(422);
    expect(res.body.error).toContain(text);
  });

  test('getTransactions accepts limit 101 (TonClient asks for limit + 1)', async () => {
    const res = await call('POST', 'getTransactions', { address: SAMPLES['address']!.valid, limit: 101 });
    expect(res.status).not.toBe(422);
  });

  test('numbers are accepted as JSON numbers and decimal strings, booleans as words', async () => {
    for (const seqno of [5, '5']) {
      const res = await call('POST', 'lookupBlock', { workchain: '-1', shard: '-9223372036854775808', seqno });
      expect(res.status).not.toBe(422);
    }
    for (const archival of ['yes', 'off', '1', 'T']) {
      const res = await call('GET', 'getTransactions', { address: SAMPLES['address']!.valid, archival });
      expect(res.status).not.toBe(422);
    }
  });
});
