import { everyMethodCalls, type MethodCall } from '../helpers/everyMethod';
import { viaFastPath } from '../helpers/fastPath';
import { startExpressOnly, startLocalStack, type LocalStack } from '../helpers/localStack';
import { CALL_MODES, callV2, sendTransfer, type CallMode } from '../helpers/v2Calls';
import { rawRequest, type Answer } from '../hostile/support';

/**
 * Every cached method of the table, in each mode it is served in (GET, POST, JSON-RPC): the fast
 * path's hit is the app's hit, status, headers and bytes (but for `@extra`'s time and elapsed
 * figures). The chain seals blocks only when told (or sent a message), so both paths answer at
 * the same head; fastPath.test.ts checks keys, limits, misses and refusals.
 */

let stack: LocalStack;
let express: Awaited<ReturnType<typeof startExpressOnly>>;

beforeAll(async () => {
  stack = await startLocalStack(['--block-interval', '0']);
  express = await startExpressOnly(stack);
  const wallets = stack.localnet.wallets.wallets;
  // Transactions to list and locate: a transfer, and blocks until its cascade has landed.
  await sendTransfer(stack, [wallets[1]!.address], 1_000_000_000n);
  for (let round = 0; ; round++) {
    const res = await callV2<unknown[]>(stack, 'GET', 'getTransactions', { address: wallets[1]!.address.toString(), limit: 1 });
    if (res.status === 200 && res.body.result.length > 0) break;
    if (round > 20) throw new Error('the transfer did not land');
    await fetch(`${stack.url}/localnet/mine`, { method: 'POST' });
  }
}, 120_000);

afterAll(async () => {
  await express?.close();
  await stack?.stop();
});

/** A call as raw request parts, the way clients send it in each mode. */
function requestOf(call: MethodCall, mode: CallMode): { method: 'GET' | 'POST'; path: string; body?: string } {
  if (mode === 'GET') {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(call.params)) {
      for (const item of Array.isArray(value) ? value : [value]) query.append(name, String(item));
    }
    return { method: 'GET', path: `/api/v2/${call.method}?${query.toString()}` };
  }
  if (mode === 'POST') return { method: 'POST', path: `/api/v2/${call.method}`, body: JSON.stringify(call.params) };
  return {
    method: 'POST',
    path: '/api/v2/jsonRPC',
    body: JSON.stringify({ jsonrpc: '2.0', id: 'every-1', method: call.method, params: call.params }),
  };
}

function send(base: string, request: ReturnType<typeof requestOf>): Promise<Answer> {
  return rawRequest(base, {
    method: request.method,
    path: request.path,
    headers: {
      'X-Request-Id': 'every-method',
      ...(request.body === undefined
        ? {}
        : { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(request.body)) }),
    },
    ...(request.body === undefined ? {} : { body: request.body }),
  });
}

/** What both paths must give alike: `@extra`'s time and elapsed figures (so also length and ETag) aside. */
function comparable(answer: Answer): { status: number; headers: Record<string, unknown>; text: string } {
  expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(answer.text)));
  const headers: Record<string, unknown> = { ...answer.headers, date: '<date>', 'content-length': '<length>' };
  if ('etag' in headers) headers['etag'] = '<etag>';
  return {
    status: answer.status,
    headers,
    text: answer.text.replace(/"@extra":"\d+:([^:"]*):\d+\.\d{3}"/, '"@extra":"<time>:$1:<elapsed>"'),
  };
}

test('every cached method, GET, POST and JSON-RPC: the fast path answers as the app', async () => {
  const { calls } = await everyMethodCalls(stack);
  const cached = calls.filter((call) => stack.server.services.table.find(call.method)!.cache !== 'never');
  const compared = new Set<string>();
  for (const call of cached) {
    const handler = stack.server.services.table.find(call.method)!;
    for (const mode of CALL_MODES) {
      if (mode === 'GET' && !handler.verbs.includes('GET')) continue;
      const request = requestOf(call, mode);
      // The app computes the answer (or finds it), then answers it from the cache as the fast path must.
      await send(express.url, request);
      const fromApp = await send(express.url, request);
      expect([call.method, mode, fromApp.status]).toEqual([call.method, mode, 200]);
      const fromFastPath = await viaFastPath('hit', () => send(stack.url, request));
      expect({ call: `${mode} ${call.method}`, ...comparable(fromFastPath) }).toEqual({
        call: `${mode} ${call.method}`,
        ...comparable(fromApp),
      });
      compared.add(call.method);
    }
  }
  // Every cached method but the two the local chain cannot answer with a success (no DNS root, no jetton).
  const cachedNames = stack.server.services.table.handlers.filter((h) => h.cache !== 'never').map((h) => h.name);
  expect([...compared].sort()).toEqual(cachedNames.filter((name) => name !== 'dnsResolve' && name !== 'getTokenData').sort());
}, 120_000);
