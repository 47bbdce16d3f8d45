import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../../src/config';
import { startLocalnet, type Localnet } from '../../src/localnet';
import { startServer, type RunningServer } from '../../src/server';
import { startLocalStack, type LocalStack } from '../helpers/localStack';
import { answerBeforeBody, expectCanary, expectEnvelope, postJson, rawRequest, type Answer } from './support';

/**
 * Hostile input to the /localnet controls: every bad body is a 4xx in the envelope and the
 * server answers right after; the controls sit behind the same gate (key, rate limit, before the
 * body) and body bounds as the API; and they do not exist when the lite servers are external.
 */

const FREE_KEY = 'free-key-localnet-000000000001';
const SLOW_KEY = 'slow-key-localnet-000000000002';
const UNKNOWN_KEY = 'unknown-key-localnet-0000000003';
const ADDRESS = '0:' + '7'.repeat(64);
const headers = { 'X-API-Key': FREE_KEY };

let stack: LocalStack;

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thb-localnet-controls-'));
  const keysFile = path.join(dir, 'keys.yaml');
  fs.writeFileSync(
    keysFile,
    `keys:\n  - name: free\n    key: ${FREE_KEY}\n    rps: 0\n    networks: [local]\n  - name: slow\n    key: ${SLOW_KEY}\n    rps: 0.01\n    burst: 1\n    networks: [local]\n`,
  );
  stack = await startLocalStack(['--keys-file', keysFile, '--keyless-rps', '1', '--block-interval', '0']);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

async function alive(): Promise<void> {
  await expectCanary(stack.api, headers);
  const status = await rawRequest(`${stack.url}/localnet/status`, { headers });
  expect(status.status).toBe(200);
}

const post = (route: string, body: string | Buffer, extra: Record<string, string> = {}): Promise<Answer> =>
  postJson(`${stack.url}/localnet/${route}`, body, { ...headers, ...extra });

const cases: [string, string, string, number, RegExp][] = [
  [
    'fund: amount of 10 000 digits',
    'fund',
    JSON.stringify({ address: ADDRESS, amount: '9'.repeat(10_000) }),
    422,
    /failed to parse amount: '9{10,}\.\.\./,
  ],
  ['fund: amount 1e30 as a JSON number', 'fund', `{"address":"${ADDRESS}","amount":1e30}`, 422, /failed to parse amount/],
  ['fund: amount above the cap', 'fund', JSON.stringify({ address: ADDRESS, amount: '1000000000000001' }), 422, /above the faucet's limit/],
  ['fund: negative amount', 'fund', JSON.stringify({ address: ADDRESS, amount: -1 }), 422, /at least 1 nanoton/],
  ['fund: fractional amount', 'fund', JSON.stringify({ address: ADDRESS, amount: 0.5 }), 422, /failed to parse amount/],
  ['fund: amount as an object', 'fund', JSON.stringify({ address: ADDRESS, amount: { $gt: 1 } }), 422, /failed to parse amount/],
  ['fund: bad address', 'fund', JSON.stringify({ address: 'EQ-not-an-address', amount: 1 }), 422, /failed to parse address/],
  ['fund: 100 KB address', 'fund', JSON.stringify({ address: 'A'.repeat(100_000), amount: 1 }), 422, /failed to parse address/],
  ['fund: a workchain the chain lacks', 'fund', JSON.stringify({ address: '7:' + '1'.repeat(64), amount: 1 }), 422, /workchains 0 and -1/],
  ['fund: unknown field', 'fund', JSON.stringify({ address: ADDRESS, amount: 1, bounce: true }), 422, /unknown field 'bounce'/],
  ['fund: __proto__ field', 'fund', `{"address":"${ADDRESS}","amount":1,"__proto__":{"x":1}}`, 422, /unknown field '__proto__'/],
  ['fund: missing amount', 'fund', JSON.stringify({ address: ADDRESS }), 422, /amount is required/],
  ['fund: array body', 'fund', JSON.stringify([{ address: ADDRESS, amount: 1 }]), 422, /must be a JSON object/],
  ['fund: not JSON', 'fund', '{"address":', 422, /not valid JSON/],
  ['fund: nested 5000 deep', 'fund', `${'['.repeat(5000)}${']'.repeat(5000)}`, 422, /deeper|nest/i],
  ['time: negative increase', 'time', JSON.stringify({ increase: -60 }), 422, /between 0 and/],
  ['time: increase beyond the uint32 clock', 'time', JSON.stringify({ increase: 3_999_999_999 }), 422, /cannot go beyond/],
  ['time: set in the past', 'time', JSON.stringify({ set: 1_000_000_000 }), 422, /only moves forward/],
  ['time: both fields', 'time', JSON.stringify({ increase: 1, set: 2_000_000_000 }), 422, /exactly one of/],
  ['time: no field', 'time', '{}', 422, /exactly one of/],
  ['time: float seconds', 'time', JSON.stringify({ increase: 1.5 }), 422, /failed to parse increase/],
  ['mine: a field', 'mine', JSON.stringify({ blocks: 1000 }), 422, /unknown field 'blocks'.*no fields/],
  ['snapshot: a field', 'snapshot', JSON.stringify({ name: 'x' }), 422, /unknown field 'name'/],
  ['restore: unknown id', 'restore', JSON.stringify({ id: '424242' }), 404, /no snapshot with id '424242'/],
  ['restore: id of 1 MB', 'restore', JSON.stringify({ id: 'x'.repeat(900_000) }), 422, /failed to parse id/],
  ['restore: id as a number', 'restore', JSON.stringify({ id: 1 }), 422, /failed to parse id/],
];

test.each(cases)('%s: %s', async (_name, route, body, status, text) => {
  const before = (await rawRequest(`${stack.url}/localnet/status`, { headers })).body as { result: { seqno: number; now: number } };
  expectEnvelope(await post(route, body), status, text);
  // Nothing happened: no block sealed, the clock did not move.
  const after = (await rawRequest(`${stack.url}/localnet/status`, { headers })).body as { result: { seqno: number; clock_offset: number } };
  expect(after.result.seqno).toBe(before.result.seqno);
  expect(after.result.clock_offset).toBe(0);
  await alive();
});

test('a body over --body-limit is refused (413) from its declared length', async () => {
  const big = Buffer.alloc(2 * 1024 * 1024, 0x20);
  expectEnvelope(await post('fund', big), 413, /larger than/);
  await alive();
});

test('wrong verbs and unknown paths', async () => {
  expectEnvelope(await rawRequest(`${stack.url}/localnet/mine`, { headers }), 405, /method GET is not supported/);
  expectEnvelope(await post('status', '{}'), 405, /method POST is not supported/);
  expectEnvelope(await post('global.config.json', '{}'), 405, /not supported/);
  expectEnvelope(await rawRequest(`${stack.url}/localnet/reset`, { headers }), 404, /Not Found/);
  await alive();
});

test('an unknown key is refused (401) before its body is read; a client over its limit gets 429', async () => {
  const answer = await answerBeforeBody(
    `${stack.url}/localnet/fund`,
    { 'X-API-Key': UNKNOWN_KEY, 'Transfer-Encoding': 'chunked' },
    '{"address":',
    `"${'x'.repeat(1024 * 1024)}"}`,
  );
  expect(answer).not.toBe('no answer before the body ended');
  if (answer !== 'no answer before the body ended') expectEnvelope(answer, 401, /^API key does not exist$/);
  expect((await rawRequest(`${stack.url}/localnet/status`, { headers: { 'X-API-Key': SLOW_KEY } })).status).toBe(200);
  expectEnvelope(await post('mine', '', { 'X-API-Key': SLOW_KEY }), 429, /Ratelimit exceeded/);
  await alive();
});

test('the OpenAPI document lists the /localnet paths when the chain is embedded', async () => {
  const doc = (await rawRequest(`${stack.api}/openapi.json`)).body as { paths: Record<string, Record<string, unknown>> };
  for (const route of ['fund', 'mine', 'time', 'snapshot', 'restore'])
    expect(Object.keys(doc.paths[`/localnet/${route}`] ?? {})).toEqual(['post']);
  for (const route of ['status', 'global.config.json']) expect(Object.keys(doc.paths[`/localnet/${route}`] ?? {})).toEqual(['get']);
});

describe('with external lite servers (--liteservers)', () => {
  let chain: Localnet;
  let running: RunningServer;

  beforeAll(async () => {
    chain = await startLocalnet({ accounts: 1, blockIntervalMs: 0 });
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'thb-localnet-external-')), 'local.config.json');
    fs.writeFileSync(file, chain.globalConfigJson);
    const { config } = loadConfig(
      ['--port', '0', '--metrics-port', '0', '--keyless-rps', '0', '--liteservers', file, '--health-interval', '200'],
      {},
    );
    running = await startServer(config, pino({ level: 'silent' }));
  }, 120_000);

  afterAll(async () => {
    await running?.stop();
    await chain?.stop();
  });

  test('/localnet/* does not exist (404 in the envelope) and is not documented', async () => {
    expectEnvelope(await rawRequest(`${running.url}/localnet/status`), 404, /^Not Found$/);
    expectEnvelope(await postJson(`${running.url}/localnet/mine`, '{}'), 404, /^Not Found$/);
    expectEnvelope(await postJson(`${running.url}/localnet/fund`, JSON.stringify({ address: ADDRESS, amount: 1 })), 404, /^Not Found$/);
    expectEnvelope(await rawRequest(`${running.url}/localnet/global.config.json`), 404, /^Not Found$/);
    const doc = (await rawRequest(`${running.url}/api/v2/openapi.json`)).body as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/localnet'))).toEqual([]);
    // The API itself works over the external servers.
    await expectCanary(`${running.url}/api/v2`);
  });
});
