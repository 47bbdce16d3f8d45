import { createHandlerTable } from '../../src/methods';
import { expectNoStall, leastStall } from '../helpers/stallProbe';
import { expectCanary, expectEnvelope, postJson, type Answer } from './support';
import { startSplitStack, type SplitStack } from './support';
import { until } from '../helpers/waiting';

/**
 * 64-bit integers as JSON numbers (as Python and JS clients send shards) keep every digit in
 * POST and JSON-RPC; a number that is not an exact integer in range is a 422 naming it.
 */

const MASTER_SHARD = '-9223372036854775808';
const ADDRESS = 'EQDtFpEwcFAEcRe5mLVh2N6C0x-_hJEM7W61_JLnSF74p4q2';

let stack: SplitStack;

beforeAll(async () => {
  stack = await startSplitStack();
  // The lookups below name masterchain block 2: the chain seals it a second after its start.
  await until(async () => {
    const info = (await (await fetch(`${stack.api}/getMasterchainInfo`)).json()) as { result?: { last: { seqno: number } } };
    return (info.result?.last.seqno ?? 0) >= 2;
  }, 30_000, 'masterchain block 2');
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

/** A body whose values are JSON text as given (so 64-bit literals are sent verbatim). */
function jsonText(params: Record<string, string>): string {
  return `{${Object.entries(params)
    .map(([name, literal]) => `${JSON.stringify(name)}:${literal}`)
    .join(',')}}`;
}

async function call(mode: 'POST' | 'JSON-RPC', method: string, params: Record<string, string>): Promise<Answer> {
  if (mode === 'POST') return postJson(`${stack.api}/${method}`, jsonText(params));
  return postJson(`${stack.api}/jsonRPC`, `{"jsonrpc":"2.0","id":1,"method":"${method}","params":${jsonText(params)}}`);
}

describe.each(['POST', 'JSON-RPC'] as const)('%s', (mode) => {
  test('lookupBlock, getBlockHeader and getShardBlockProof take the shard as a JSON number', async () => {
    const master = await call(mode, 'lookupBlock', { workchain: '-1', shard: MASTER_SHARD, seqno: '2' });
    expect(master.status).toBe(200);
    expect((master.body as { result: { shard: string; seqno: number } }).result).toEqual(
      expect.objectContaining({ shard: MASTER_SHARD, seqno: 2 }),
    );

    const header = await call(mode, 'getBlockHeader', { workchain: '-1', shard: MASTER_SHARD, seqno: '2' });
    expect(header.status).toBe(200);
    expect((header.body as { result: { id: { shard: string } } }).result.id.shard).toBe(MASTER_SHARD);

    const base = await call(mode, 'lookupBlock', { workchain: '0', shard: MASTER_SHARD, seqno: '2' });
    expect(base.status).toBe(200);
    const proof = await call(mode, 'getShardBlockProof', { workchain: '0', shard: MASTER_SHARD, seqno: '2' });
    expect(proof.status).toBe(200);
    expect((proof.body as { result: { '@type': string } }).result['@type']).toBe('blocks.shardBlockProof');
    await expectCanary(stack.api);
  });

  test('decimal strings keep working', async () => {
    const answer = await call(mode, 'lookupBlock', { workchain: '-1', shard: `"${MASTER_SHARD}"`, seqno: '"2"' });
    expect(answer.status).toBe(200);
  });

  test('numbers that are not exact integers in range: 422 naming the parameter', async () => {
    for (const literal of ['1.5', '1e30', '-9223372036854775809', '9223372036854775808', '123456789012345678901234567890']) {
      const answer = await call(mode, 'lookupBlock', { workchain: '-1', shard: literal, seqno: '2' });
      expectEnvelope(answer, 422, /^failed to parse post request: failed to parse shard: '/);
    }
    const int32 = await call(mode, 'lookupBlock', { workchain: '-1', shard: MASTER_SHARD, seqno: '4294967296' });
    expectEnvelope(int32, 422, /failed to parse seqno: '4294967296'/);
    await expectCanary(stack.api);
  });
});

test('a megabyte body with a long number literal is parsed by JSON.parse (exact parsing stops at 32 KiB), without holding the event loop', async () => {
  const body = `{"workchain":-1,"shard":${MASTER_SHARD},"seqno":2,"pad":"${'x'.repeat(1_000_000)}"}`;
  expect(body.length).toBeGreaterThan(990_000);
  // The least of repeated probes: a busy neighbour's slice is not this request's stall.
  const { result, ...stall } = await leastStall(() => postJson(`${stack.api}/lookupBlock`, body));
  // Parsed by JSON.parse: the shard literal lost digits, so it is not an exact int64 any more.
  expectEnvelope(result, 422, /^failed to parse post request: failed to parse shard: '-9223372036854776000'$/);
  expectNoStall(stall);
  await expectCanary(stack.api);
});

test('a megabyte of long number literals is refused by the pre-scan (too many elements), without holding the event loop', async () => {
  const padding = Array.from({ length: 55_000 }, () => '12345678901234567').join(',');
  const body = `{"workchain":-1,"shard":${MASTER_SHARD},"seqno":2,"pad":[${padding}]}`;
  expect(body.length).toBeGreaterThan(990_000);
  const { result, ...stall } = await leastStall(() => postJson(`${stack.api}/lookupBlock`, body));
  expectEnvelope(result, 422, /^failed to parse post request: JSON has more than 16384 array items and object members$/);
  expectNoStall(stall);
  await expectCanary(stack.api);
});

/** Values for the other parameters, so that the one under test is the only one in question. */
const SAMPLE_BY_TYPE: Record<string, string> = {
  address: JSON.stringify(ADDRESS),
  hash: JSON.stringify('0'.repeat(64)),
  'address | hash': JSON.stringify('0'.repeat(64)),
  int32: '1',
  int64: '1',
  bool: 'false',
};

describe('every int64 parameter of the table takes a 64-bit JSON number', () => {
  const table = createHandlerTable();
  const cases = table.handlers.flatMap((handler) =>
    Object.entries(handler.params)
      .filter(([, spec]) => spec.type === 'int64')
      .map(([name]) => ({ method: handler.name, name, handler })),
  );

  test('the table has int64 parameters (shard, lt, after_lt, to_lt, created_lt)', () => {
    expect(new Set(cases.map((item) => item.name))).toEqual(new Set(['shard', 'lt', 'after_lt', 'to_lt', 'created_lt']));
  });

  test.each(cases.map((item) => [`${item.method} ${item.name}`, item] as const))('%s', async (_label, { method, name, handler }) => {
    const base: Record<string, string> = {};
    for (const [other, spec] of Object.entries(handler.params)) {
      if (spec.required && spec.defaultValue === undefined && SAMPLE_BY_TYPE[spec.type]) base[other] = SAMPLE_BY_TYPE[spec.type];
    }
    for (const mode of ['POST', 'JSON-RPC'] as const) {
      for (const literal of ['9223372036854775807', MASTER_SHARD]) {
        const answer = await call(mode, method, { ...base, [name]: literal });
        const error = (answer.body as { error?: string }).error ?? '';
        // Parsed exactly: whatever the chain says next, it is not a parse failure of this parameter.
        expect(error).not.toMatch(new RegExp(`failed to parse ${name}\\b`));
        expect(answer.status === 200 || (answer.status >= 400 && answer.status < 500) || /^LITE_SERVER_/.test(error)).toBe(true);
      }
      const inexact = await call(mode, method, { ...base, [name]: '1.5' });
      expectEnvelope(inexact, 422, new RegExp(`failed to parse ${name}: '1.5'`));
    }
  });
});
