import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logging/index';
import { startLocalnetSource } from '../../src/localnetSource';
import { startServer, type RunningServer } from '../../src/server';
import { expectCanary, expectEnvelope, rawRequest } from './support';
import { logLineSink } from '../helpers/logLines';

/**
 * API keys in every spelling the query parser accepts are read as keys and never logged; and
 * `archival=false` on a pool without a non-archival server (the local chain is archival) is
 * answered at once.
 */

const KNOWN_KEY = 'known-key-hostile-000000000001';
const SECRET = 'UNKNOWN-SECRET-hostile-0000042';
const logLines: string[] = [];
let running: RunningServer;
let api: string;
const canaryHeaders = { 'X-API-Key': KNOWN_KEY };

beforeAll(async () => {
  const keysFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'thb-hostile-keys-')), 'keys.yaml');
  fs.writeFileSync(keysFile, `keys:\n  - name: known\n    key: ${KNOWN_KEY}\n    rps: 0\n    networks: [local]\n`);
  const { config } = loadConfig(
    [
      '--index',
      'off',
      '--port',
      '0',
      '--metrics-port',
      '0',
      '--accounts',
      '2',
      '--health-interval',
      '200',
      '--keys-file',
      keysFile,
      '--keyless-rps',
      '0',
      '--log-level',
      'debug',
    ],
    {},
  );
  const sink = logLineSink(logLines);
  const logger = createLogger(config.logLevel, sink);
  running = await startServer(config, logger, await startLocalnetSource(config, logger));
  api = `${running.url}/api/v2`;
}, 120_000);

afterAll(async () => {
  await running?.stop();
});

const ADDRESS = 'EQDtFpEwcFAEcRe5mLVh2N6C0x-_hJEM7W61_JLnSF74p4q2';

test('api_key, api%5Fkey, %61pi_key are read as the key (401 for an unknown one) and no spelling reaches the logs', async () => {
  for (const name of ['api_key', 'api%5Fkey', 'api%5fkey', '%61pi_key', 'api_ke%79']) {
    const answer = await rawRequest(`${api}/detectAddress?address=${ADDRESS}&${name}=${SECRET}`);
    expectEnvelope(answer, 401, /^API key does not exist$/);
    expect(answer.text).not.toContain(SECRET);
  }
  // Spellings the parser does not read as the key are not keys, and are redacted all the same.
  const upper = await rawRequest(`${api}/detectAddress?address=${ADDRESS}&API_KEY=${SECRET}`);
  expect(upper.status).toBe(200);
  for (const header of ['X-API-Key', 'x-api-key', 'X-Api-Key', 'X-API-KEY']) {
    expectEnvelope(
      await rawRequest(`${api}/detectAddress?address=${ADDRESS}`, { headers: { [header]: SECRET } }),
      401,
      /^API key does not exist$/,
    );
  }
  // A key that is known passes in the escaped spelling too.
  expect((await rawRequest(`${api}/detectAddress?address=${ADDRESS}&api%5Fkey=${KNOWN_KEY}`)).status).toBe(200);
  await expectCanary(api, canaryHeaders);
  const logged = logLines.join('\n');
  expect(logged).toContain('[redacted]');
  expect(logged).not.toContain(SECRET);
  expect(logged).not.toContain(KNOWN_KEY);
});

test('archival=false with only archival servers is answered at once, by any server', async () => {
  for (const archival of ['false', '0']) {
    const started = Date.now();
    const answer = await rawRequest(`${api}/getTransactions?address=${ADDRESS}&limit=2&archival=${archival}`, { headers: canaryHeaders });
    expect(answer.status).toBe(200);
    expect((answer.body as { ok: boolean }).ok).toBe(true);
    // Not after waiting out the 10 s request deadline for a non-archival server.
    expect(Date.now() - started).toBeLessThan(8000);
  }
  await expectCanary(api, canaryHeaders);
});
