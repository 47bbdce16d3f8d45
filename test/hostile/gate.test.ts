import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startLocalStack, type LocalStack } from '../helpers/localStack';
import { answerBeforeBody, expectCanary, expectEnvelope, postJson } from './support';

/**
 * The access gate runs before the body is read: a refused client (unknown key, empty bucket)
 * is answered while its body is still on the way, so its body is never buffered nor parsed.
 */

const FREE_KEY = 'free-key-hostile-0000000000001';
const SLOW_KEY = 'slow-key-hostile-0000000000002';
const UNKNOWN_KEY = 'unknown-key-hostile-00000000003';
const ADDRESS = 'EQDtFpEwcFAEcRe5mLVh2N6C0x-_hJEM7W61_JLnSF74p4q2';

let stack: LocalStack;
const canaryHeaders = { 'X-API-Key': FREE_KEY };

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thb-hostile-gate-'));
  const keysFile = path.join(dir, 'keys.yaml');
  fs.writeFileSync(
    keysFile,
    `keys:\n  - name: free\n    key: ${FREE_KEY}\n    rps: 0\n    networks: [local]\n  - name: slow\n    key: ${SLOW_KEY}\n    rps: 0.01\n    burst: 1\n    networks: [local]\n`,
  );
  stack = await startLocalStack(['--keys-file', keysFile, '--keyless-rps', '1']);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

/** A megabyte of body after the first byte: what an abusive client would send. */
const MEGABYTE = `"${'x'.repeat(1024 * 1024 - 100)}"}`;

test('an unknown key is refused (401) before its 1 MB body is read', async () => {
  const answer = await answerBeforeBody(
    `${stack.api}/getAddressInformation`,
    { 'X-API-Key': UNKNOWN_KEY, 'Transfer-Encoding': 'chunked' },
    '{"address":',
    MEGABYTE,
  );
  expect(answer).not.toBe('no answer before the body ended');
  if (answer !== 'no answer before the body ended') expectEnvelope(answer, 401, /^API key does not exist$/);
  await expectCanary(stack.api, canaryHeaders);
});

test('a client over its limit is refused (429) before its body is read, and its bad JSON is never parsed', async () => {
  const first = await postJson(`${stack.api}/detectAddress`, JSON.stringify({ address: ADDRESS }), { 'X-API-Key': SLOW_KEY });
  expect(first.status).toBe(200);
  const streamed = await answerBeforeBody(
    `${stack.api}/getAddressInformation`,
    { 'X-API-Key': SLOW_KEY, 'Transfer-Encoding': 'chunked' },
    '{"address":',
    MEGABYTE,
  );
  expect(streamed).not.toBe('no answer before the body ended');
  if (streamed !== 'no answer before the body ended') expectEnvelope(streamed, 429, /^Ratelimit exceeded$/);
  // Not valid JSON: a 422 would mean the body was parsed; the refusal comes first.
  const garbage = await postJson(`${stack.api}/getAddressInformation`, '{not json', { 'X-API-Key': SLOW_KEY });
  expectEnvelope(garbage, 429, /^Ratelimit exceeded$/);
  await expectCanary(stack.api, canaryHeaders);
});

test('JSON-RPC over the limit: 429 before the body; a small call still gets its id echoed', async () => {
  // The keyless bucket of this client (1 rps) is emptied first.
  await postJson(`${stack.api}/detectAddress`, JSON.stringify({ address: ADDRESS }));
  const small = await postJson(
    `${stack.api}/jsonRPC`,
    JSON.stringify({ jsonrpc: '2.0', id: 'call-7', method: 'detectAddress', params: { address: ADDRESS } }),
  );
  expectEnvelope(small, 429, /^Ratelimit exceeded$/);
  expect(small.body).toEqual(expect.objectContaining({ jsonrpc: '2.0', id: 'call-7' }));
  const large = await answerBeforeBody(
    `${stack.api}/jsonRPC`,
    { 'Transfer-Encoding': 'chunked' },
    '{"jsonrpc":"2.0","id":8,"method":"detectAddress","params":{"address":',
    MEGABYTE + '}',
  );
  expect(large).not.toBe('no answer before the body ended');
  if (large !== 'no answer before the body ended') {
    expectEnvelope(large, 429, /^Ratelimit exceeded$/);
    expect(large.body).toEqual(expect.objectContaining({ jsonrpc: '2.0', id: null }));
  }
  await expectCanary(stack.api, canaryHeaders);
});
