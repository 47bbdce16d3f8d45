import { Address, beginCell, Cell, external, storeMessage } from '@ton/core';
import { expectNoStall, leastStall } from '../helpers/stallProbe';
import { expectCanary, expectEnvelope, postJson, startSplitStack, type Answer, type SplitStack } from './support';

/**
 * The largest BoCs the bounds let through (8 190 distinct cells, under the 1 MiB body limit as
 * base64 JSON): decoding and hashing one costs a few hundred ms of CPU, which the API does in its
 * worker threads; its event loop only scans the bytes. The chain runs in its own process here,
 * so the probe sees the API's work alone (a lite server decodes the message too).
 */

// No contract lives here: the lite server refuses any external message to it.
const EMPTY_ACCOUNT = '0:' + 'ab'.repeat(32);
const LEAVES = 6142;
/** Leaf payload that keeps the body's base64 within the default body limit. */
const LEAF_BYTES = 80;

let stack: SplitStack;

// Each request costs ~1 s of CPU in all (the API's worker and the chain's lite server both decode
// the BoC): on a loaded 2-core machine that passed the default 10 s request deadline and the 5 s
// of one lite-server query (504s). Deadlines are not what this suite checks, so they are generous,
// and so are the tests' own timeouts.
const REQUEST_TIMEOUT_MS = 60_000;
const TEST_TIMEOUT_MS = 90_000;

beforeAll(async () => {
  stack = await startSplitStack(['--request-timeout', String(REQUEST_TIMEOUT_MS), '--query-timeout', String(REQUEST_TIMEOUT_MS)]);
  // Each path once with a one-cell body first: the first use of a path loads and compiles its
  // code on the main thread and starts a TVM thread, a one-time cost that is not the BoC's.
  const small = beginCell().store(storeMessage(external({ to: Address.parseRaw(EMPTY_ACCOUNT), body: beginCell().endCell() }))).endCell();
  for (const method of ['sendBoc', 'sendBocReturnHash']) await postJson(`${stack.api}/${method}`, JSON.stringify({ boc: small.toBoc().toString('base64') }));
  for (const method of ['sendQuery', 'estimateFee']) await postJson(`${stack.api}/${method}`, JSON.stringify({ address: EMPTY_ACCOUNT, body: beginCell().endCell().toBoc().toString('base64') }));
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

/** A 4-ary tree of distinct cells: `leaves` leaves, about leaves * 4/3 cells in all. */
function wideTree(leaves: number, leafBytes: number): Cell {
  let layer: Cell[] = Array.from({ length: leaves }, (_, i) => beginCell().storeUint(i, 16).storeBuffer(Buffer.alloc(leafBytes, i % 251)).endCell());
  while (layer.length > 1) {
    const next: Cell[] = [];
    for (let i = 0; i < layer.length; i += 4) next.push(layer.slice(i, i + 4).reduce((builder, ref) => builder.storeRef(ref), beginCell()).endCell());
    layer = next;
  }
  return layer[0]!;
}

const body = wideTree(LEAVES, LEAF_BYTES);
const message = beginCell().store(storeMessage(external({ to: Address.parseRaw(EMPTY_ACCOUNT), body }))).endCell();

function expectLiteServerRefusal(answer: Answer): void {
  // Past every check of ours: the lite server's own refusal, as toncenter relays it (500).
  expectEnvelope(answer, 500, /^LITE_SERVER_UNKNOWN: cannot apply external message to current state/);
}

test('the input is as large as the bounds allow', () => {
  const cells = new Set<string>();
  const pending = [message];
  while (pending.length) {
    const cell = pending.pop()!;
    if (!cells.has(cell.hash().toString('hex'))) pending.push(...cell.refs);
    cells.add(cell.hash().toString('hex'));
  }
  expect(cells.size).toBeGreaterThan(8100);
  expect(cells.size).toBeLessThanOrEqual(8192);
  expect(JSON.stringify({ boc: message.toBoc().toString('base64') }).length).toBeLessThan(1024 * 1024);
});

test.each(['sendBoc', 'sendBocReturnHash'])('%s with a valid message of 8 190 cells: checked in a worker, no stall', async (method) => {
  const json = JSON.stringify({ boc: message.toBoc().toString('base64') });
  const { result, ...stall } = await leastStall(() => postJson(`${stack.api}/${method}`, json));
  expectLiteServerRefusal(result);
  expectNoStall(stall);
  await expectCanary(stack.api);
}, TEST_TIMEOUT_MS);

test('sendQuery with a body of 8 190 cells: built in a worker, no stall', async () => {
  const json = JSON.stringify({ address: EMPTY_ACCOUNT, body: body.toBoc().toString('base64') });
  const { result, ...stall } = await leastStall(() => postJson(`${stack.api}/sendQuery`, json));
  expectLiteServerRefusal(result);
  expectNoStall(stall);
  await expectCanary(stack.api);
}, TEST_TIMEOUT_MS);

test('estimateFee with a body of 8 190 cells: built and measured in a worker, no stall', async () => {
  const json = JSON.stringify({ address: EMPTY_ACCOUNT, body: body.toBoc().toString('base64') });
  const { result, ...stall } = await leastStall(() => postJson(`${stack.api}/estimateFee`, json));
  const answer = result.body as { ok: boolean; result: { source_fees: { in_fwd_fee: number } } };
  expect([result.status, answer.ok]).toEqual([200, true]);
  // The import fee charges for every cell below the message root: the whole body.
  const fees = answer.result.source_fees;
  expect(fees.in_fwd_fee).toBeGreaterThan(1_000_000);
  expectNoStall(stall);
  await expectCanary(stack.api);
}, TEST_TIMEOUT_MS);
