import { beginCell } from '@ton/core';
import fc from 'fast-check';
import { createHandlerTable } from '../../src/methods';
import type { Handler } from '../../src/methods/types';
import { startLocalStack, type LocalStack } from '../helpers/localStack';
import { expectCanary, postJson, rawRequest, type Answer } from './support';

/**
 * Property-based fuzzing of every method of the handler table in GET, POST and JSON-RPC against
 * the whole product on the local chain. Seeded (FUZZ_SEED, default 20261123) with FUZZ_RUNS
 * cases (default 250 groups of 8 requests = 2000 inputs; more with the variable).
 *
 * The oracle, for every answer:
 * - it is JSON; a success is `{ok: true, result}` with 200; an error is the envelope
 *   `{ok: false, code, error}` with HTTP status = code and a short text; JSON-RPC answers carry
 *   `jsonrpc` and the call's id;
 * - a 5xx is acceptable only as a lite server's own error (`LITE_SERVER_<kind>: ... (code N)`):
 *   the input was valid, reached a lite server and the lite server refused it (a block the
 *   chain does not have, a message it does not accept). It never comes from a method that
 *   needs no lite server (utils), never is our text (internal error, emulator failure) and
 *   never is an undecodable answer (the local chain is honest);
 * - after all cases the server answers the canary.
 */

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 250);
const SEED = Number(process.env['FUZZ_SEED'] ?? 20261123);
const GROUP = 8;

/** 5xx of ours that a client can cause and that are not fixed yet: none (add one only with an issue). */
const KNOWN_FINDINGS: readonly RegExp[] = [];

/** A lite server's own error, as src/errors LiteServerError words it. */
const LITE_SERVER_ERROR = /^LITE_SERVER_[A-Z]+: [\s\S]* \(code -?\d+\)$/;

let stack: LocalStack;
let table: ReturnType<typeof createHandlerTable>;
let wallets: string[];

beforeAll(async () => {
  stack = await startLocalStack();
  table = createHandlerTable();
  wallets = stack.localnet.wallets.wallets.map((wallet) => wallet.address.toString());
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

/** A parameter value as JSON text (so 64-bit literals go verbatim) and as query-string text. */
interface Value {
  json: string;
  query: string[];
}

const text = (value: string): Value => ({ json: JSON.stringify(value), query: [value] });
const literal = (json: string): Value => ({ json, query: [json] });

function validSamples(type: string): fc.Arbitrary<Value> {
  const hash = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => Buffer.from(bytes));
  switch (type) {
    case 'address':
      return fc.oneof(
        fc.constantFrom(...wallets).map(text),
        hash.map((bytes) => text(`0:${bytes.toString('hex')}`)),
        hash.map((bytes) => text(`-1:${bytes.toString('hex').toUpperCase()}`)),
      );
    case 'hash':
    case 'address | hash':
      return fc.oneof(
        hash.map((bytes) => text(bytes.toString('hex'))),
        hash.map((bytes) => text(bytes.toString('base64'))),
      );
    case 'hash[]':
      return fc.array(hash, { maxLength: 3 }).map((items) => ({
        json: JSON.stringify(items.map((bytes) => bytes.toString('hex'))),
        query: items.map((bytes) => bytes.toString('hex')),
      }));
    case 'int32':
      return fc.oneof(fc.integer({ min: -5, max: 20 }), fc.integer()).map((n) => literal(String(n)));
    case 'int64':
      return fc
        .oneof(
          fc.constantFrom('-9223372036854775808', '9223372036854775807', '0', '6000000', '8000000000000000'),
          fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String),
        )
        .map(literal);
    case 'bool':
      return fc.constantFrom(literal('true'), literal('false'), text('yes'), text('0'));
    case 'base64':
      return fc.oneof(
        fc.constant(text(beginCell().storeUint(0, 32).endCell().toBoc().toString('base64'))),
        fc.uint8Array({ maxLength: 64 }).map((bytes) => text(Buffer.from(bytes).toString('base64'))),
      );
    case 'string | int':
      return fc.oneof(
        fc.constantFrom('seqno', 'get_public_key', 'get_wallet_data').map(text),
        fc.integer({ min: 0, max: 200000 }).map((n) => literal(String(n))),
      );
    case 'array':
      return fc
        .constantFrom('[]', '[["num","1"]]', '[["num", 5], ["tvm.Cell", "x"]]', '[["foo", 1]]', '[["tuple", {"elements": []}]]')
        .map(literal);
    default:
      return fc.string({ maxLength: 20 }).map(text);
  }
}

/** Anything a client could send in place of a value. */
const hostileValue: fc.Arbitrary<Value> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((value) => ({
    json: JSON.stringify(value) ?? 'null',
    query: [typeof value === 'string' ? value : (JSON.stringify(value) ?? '')],
  })),
  fc.string({ unit: 'binary', maxLength: 40 }).map(text),
  fc
    .constantFrom(
      '1.5',
      '-0',
      '1e400',
      '-1e-7',
      '18446744073709551616',
      '-9223372036854775809',
      '123456789012345678901234567890123456789012345678901234567890',
      '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]',
      '{"__proto__": {"address": "x"}}',
    )
    .map(literal),
  fc
    .constantFrom(
      '__proto__',
      'constructor',
      '',
      ' ',
      '%',
      '%zz',
      '0x',
      'NaN',
      'Infinity',
      'A'.repeat(3000),
      '\u0000',
      '-1:' + 'g'.repeat(64),
    )
    .map(text),
);

interface Case {
  method: string;
  mode: 'GET' | 'POST' | 'JSON-RPC';
  params: [string, Value][];
}

function caseFor(handler: Handler): fc.Arbitrary<Case> {
  const entries = Object.entries(handler.params).map(([name, spec]) =>
    fc
      .option(fc.oneof({ weight: 3, arbitrary: validSamples(spec.type) }, { weight: 1, arbitrary: hostileValue }), { freq: 5 })
      .map((value) => (value === null ? undefined : ([name, value] as [string, Value]))),
  );
  const extra = fc.option(fc.tuple(fc.constantFrom('__proto__', 'constructor', 'prototype', 'api_key', 'extra'), hostileValue), {
    freq: 3,
  });
  return fc.record({
    method: fc.constantFrom(handler.name, ...handler.aliases),
    mode: fc.constantFrom('GET' as const, 'POST' as const, 'JSON-RPC' as const),
    params: fc
      .tuple(fc.tuple(...entries), extra)
      .map(([values, more]) => [...values.filter((item): item is [string, Value] => item !== undefined), ...(more ? [more] : [])]),
  });
}

async function send(item: Case): Promise<Answer> {
  const body = `{${item.params.map(([name, value]) => `${JSON.stringify(name)}:${value.json}`).join(',')}}`;
  if (item.mode === 'GET') {
    const query = item.params
      .flatMap(([name, value]) => value.query.map((part) => `${encodeURIComponent(name)}=${encodeURIComponent(part)}`))
      .join('&');
    return rawRequest(`${stack.api}/${item.method}?${query}`);
  }
  if (item.mode === 'POST') return postJson(`${stack.api}/${item.method}`, body);
  return postJson(`${stack.api}/jsonRPC`, `{"jsonrpc":"2.0","id":"fz","method":${JSON.stringify(item.method)},"params":${body}}`);
}

/** The oracle above; returns what is wrong, or undefined. */
function judge(item: Case, answer: Answer): string | undefined {
  const body = answer.body as Record<string, unknown> | undefined;
  if (!body || typeof body !== 'object') return `not JSON: ${answer.text.slice(0, 200)}`;
  if (item.mode === 'JSON-RPC' && (body['jsonrpc'] !== '2.0' || body['id'] !== 'fz')) return 'JSON-RPC answer without jsonrpc/id';
  if (body['ok'] === true) return answer.status === 200 && 'result' in body ? undefined : `success with status ${answer.status}`;
  const error = body['error'];
  if (body['ok'] !== false || typeof error !== 'string' || body['code'] !== answer.status)
    return `not the envelope: ${answer.text.slice(0, 200)}`;
  if (error.length > 520) return `error text of ${error.length} characters`;
  if (answer.status < 400 || answer.status > 599) return `status ${answer.status}`;
  if (answer.status < 500) return undefined;
  if (KNOWN_FINDINGS.some((pattern) => pattern.test(error))) return undefined;
  const handler = table.find(item.method);
  if (handler && handler.category !== 'utils' && LITE_SERVER_ERROR.test(error)) return undefined;
  return `5xx of ours: ${answer.status} ${error}`;
}

test(`every method, GET/POST/JSON-RPC: ${RUNS * GROUP} generated inputs, always the envelope, no 5xx of ours`, async () => {
  const anyCase = fc.oneof(...table.handlers.map((handler) => caseFor(handler)));
  await fc.assert(
    fc.asyncProperty(fc.array(anyCase, { minLength: GROUP, maxLength: GROUP }), async (group) => {
      const answers = await Promise.all(group.map(send));
      const problems = group.map((item, index) => judge(item, answers[index])).filter((problem) => problem !== undefined);
      if (problems.length > 0) throw new Error(problems.join('\n'));
    }),
    { seed: SEED, numRuns: RUNS, endOnFailure: true },
  );
  await expectCanary(stack.api);
}, 600_000);
