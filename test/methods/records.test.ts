import { buildOpenApiDocument, resultComponentName, resultSchemaRef } from '../../src/docs';
import { createHandlerTable, HANDLERS, type Handler } from '../../src/methods';
import { atHead, defineHandler } from '../../src/methods/define';
import { READ_VERBS } from '../../src/methods/types';
import { param } from '../../src/params';
import { cachePolicyFor } from '../../src/routes/execute';
import { startLocalStack, type LocalStack } from '../helpers/localStack';

/**
 * One record per method: each method's file declares its parameters, verbs, cache policy,
 * session options and result schema, and the executor and the OpenAPI document take them from
 * there (no table keyed by name). The type makes a record without one of them fail to compile
 * (the @ts-expect-error lines below: `tsc` fails if one of them compiles); this walks the table.
 */

const ADDRESS = `0:${'11'.repeat(32)}`;
const HASH = 'ab'.repeat(32);
/** A BoC of one empty cell. */
const BOC = 'te6cckEBAQEAAgAAAEysuc0=';

/** A JSON (POST) value of each parameter type that passes parsing. */
const SAMPLE: Readonly<Record<string, unknown>> = {
  address: ADDRESS,
  'address | hash': ADDRESS,
  hash: HASH,
  'hash[]': [HASH],
  int32: 1,
  int64: 1,
  bool: true,
  base64: BOC,
  string: 'x',
  'string | int': 'seqno',
  array: [],
};

/** Parameters a method's cross-parameter checks need besides its required ones. */
const EXTRA: Readonly<Record<string, Record<string, unknown>>> = {
  getConfigParam: { param: 1 },
  lookupBlock: { unixtime: 1 },
};

/** Values for every required parameter of a method, plus `extra`: a call its checks accept. */
function rawCall(handler: Handler, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const raw: Record<string, unknown> = { ...EXTRA[handler.name], ...extra };
  for (const [name, spec] of Object.entries(handler.params)) {
    if (!spec.required || name in raw) continue;
    const sample = SAMPLE[spec.type];
    if (sample === undefined) throw new Error(`${handler.name}.${name}: no sample of type ${spec.type}`);
    raw[name] = sample;
  }
  return raw;
}

test('every method has its verbs, parameters, cache policy and result schema in its record', () => {
  expect(HANDLERS.length).toBeGreaterThanOrEqual(36);
  for (const handler of HANDLERS) {
    const record = {
      verbs: handler.verbs.length > 0 && handler.verbs.every((verb) => verb === 'GET' || verb === 'POST'),
      params: typeof handler.params === 'object' && handler.params !== null,
      cache: ['head', 'seqno', 'never'].includes(handler.cache),
      result: typeof handler.result === 'object' && handler.result !== null && Object.keys(handler.result).length > 0,
    };
    expect({ method: handler.name, ...record }).toEqual({ method: handler.name, verbs: true, params: true, cache: true, result: true });
  }
});

test("every method's session options come from its typed parameters", () => {
  const seqnoMethods: string[] = [];
  for (const handler of HANDLERS) {
    const hasSeqno = 'seqno' in handler.params;
    const hasArchival = 'archival' in handler.params;
    const plain = handler.parse(rawCall(handler), 'post').session;
    if (handler.cache === 'seqno') {
      // The block a `seqno` method's answer is keyed by is the one its seqno parameter names.
      expect([handler.name, hasSeqno]).toEqual([handler.name, true]);
      seqnoMethods.push(handler.name);
      expect([handler.name, handler.parse(rawCall(handler, { seqno: 7 }), 'post').session.seqno]).toEqual([handler.name, 7]);
      expect([handler.name, handler.parse(rawCall(handler, { seqno: '7' }), 'get').session.seqno]).toEqual([handler.name, 7]);
    } else if (hasSeqno) {
      // A block or shard seqno of a `head` method never keys the cache.
      // (lookupBlock takes one of seqno, lt and unixtime.)
      const given = handler.parse(rawCall(handler, { seqno: 7, unixtime: undefined }), 'post').session;
      expect([handler.name, given.seqno]).toEqual([handler.name, undefined]);
    }
    // Without a seqno (or with the one a method requires) the call reads what it names, else the head.
    expect([handler.name, plain.seqno]).toEqual([handler.name, handler.cache === 'seqno' ? rawCall(handler)['seqno'] : undefined]);
    if (hasArchival) {
      for (const archival of [true, false]) {
        expect([handler.name, handler.parse(rawCall(handler, { archival }), 'post').session.archival]).toEqual([handler.name, archival]);
      }
    }
    expect([handler.name, plain.archival]).toEqual([handler.name, undefined]);
  }
  // The methods read at a block a client names (toncenter's `seqno` of account and config reads).
  expect(seqnoMethods.sort()).toEqual(
    [
      'dnsResolve',
      'getAddressBalance',
      'getAddressInformation',
      'getAddressState',
      'getConfigAll',
      'getConfigParam',
      'getExtendedAddressInformation',
      'getMasterchainBlockSignatures',
      'getShardAccountCell',
      'getShards',
      'getTokenData',
      'getWalletInformation',
      'runGetMethod',
      'runGetMethodStd',
    ].sort(),
  );
});

test('the OpenAPI document serves each record’s result schema, on every verb of the method', () => {
  const doc = buildOpenApiDocument(createHandlerTable()) as {
    paths: Record<string, Record<string, { responses: { '200': { content: { 'application/json': { schema: { properties: { result: unknown } } } } } } }>>;
    components: { schemas: Record<string, unknown> };
  };
  for (const handler of HANDLERS) {
    expect([handler.name, doc.components.schemas[resultComponentName(handler.name)]]).toEqual([handler.name, handler.result]);
    for (const verb of handler.verbs) {
      const operation = doc.paths[`/api/v2/${handler.name}`]![verb.toLowerCase()]!;
      expect([handler.name, verb, operation.responses['200'].content['application/json'].schema.properties.result]).toEqual([
        handler.name,
        verb,
        resultSchemaRef(handler.name),
      ]);
    }
  }
});

test('runGetMethod runs with the stack its parameter parsed, once', () => {
  const runGetMethod = HANDLERS.find((handler) => handler.name === 'runGetMethod')!;
  const call = runGetMethod.parse({ address: ADDRESS, method: 'seqno', stack: [['num', '0x10'], ['num', '16']] }, 'post');
  expect(call.params['stack']).toEqual([
    { type: 'int', value: 16n },
    { type: 'int', value: 16n },
  ]);
  // The order of the checks is kept: a bad seqno is named before a bad stack entry.
  expect(() => runGetMethod.parse({ address: ADDRESS, method: 'seqno', stack: [['nope', '1']], seqno: 0 }, 'post')).toThrow(
    'seqno should be positive',
  );
  expect(() => runGetMethod.parse({ address: ADDRESS, method: 'seqno', stack: [['nope', '1']] }, 'post')).toThrow(/nope/);
});

test('a record without its cache policy, session options or result schema does not compile', () => {
  const complete = { name: 'x', category: 'utils', verbs: READ_VERBS, summary: 'x', params: { a: param.int32() } } as const;
  const built = [
    // @ts-expect-error no cache policy
    defineHandler({ ...complete, session: atHead, result: {} }),
    // @ts-expect-error no session options
    defineHandler({ ...complete, cache: 'never', result: {} }),
    // @ts-expect-error no result schema
    defineHandler({ ...complete, cache: 'never', session: atHead }),
    // @ts-expect-error a session reading a parameter the method does not have
    defineHandler({ ...complete, cache: 'seqno', session: (p) => ({ seqno: p.seqno }), result: {} }),
    // @ts-expect-error an unknown cache policy
    defineHandler({ ...complete, cache: 'forever', session: atHead, result: {} }),
  ];
  expect(built).toHaveLength(5);
});

describe('the executor caches by the record', () => {
  let stack: LocalStack;
  beforeAll(async () => {
    stack = await startLocalStack();
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
  });

  test("with a cache and a chain, each method's answers are cached by its record's policy", () => {
    expect(stack.server.services.cache).toBeDefined();
    for (const handler of stack.server.services.table.handlers) {
      expect([handler.name, cachePolicyFor(stack.server.services, handler)]).toEqual([handler.name, handler.cache]);
    }
  });
});
