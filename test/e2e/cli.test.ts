import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadGlobalConfigFile } from '../../src/liteclient';
import { LitePool } from '../../src/liteclient/pool';
import { withLiteClient } from '../helpers/sessionClient';

/** The command line as users run it: `ton-http-bridge localnet`, and `npm start` resuming a saved chain. */

const ROOT = path.resolve(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'ton-http-bridge.js');

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function run(args: string[]): Started {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('TON_BRIDGE_')));
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitForOutput(started: Started, pattern: RegExp, timeoutMs = 60000): Promise<RegExpExecArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = pattern.exec(started.output());
    if (match) return match;
    if (started.child.exitCode !== null) throw new Error(`exited early:\n${started.output()}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}:\n${started.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'thb-cli-'));
}

const children: Started[] = [];
afterEach(() => {
  for (const started of children.splice(0)) if (started.child.exitCode === null) started.child.kill('SIGKILL');
});

test('`ton-http-bridge localnet` runs the chain alone and writes a global config any lite client can use', async () => {
  const configOut = path.join(tempDir(), 'local.config.json');
  const started = run(['localnet', '--config-out', configOut, '--accounts', '1', '--log-level', 'warn']);
  children.push(started);
  await waitForOutput(started, /Global config written to/);
  expect(started.output()).toMatch(/Mnemonic of the funded wallets \(1 000 000 TON each\): (\w+ ){23}\w+/);
  expect(started.output()).toMatch(/v4r2 #0 EQ[A-Za-z0-9_-]{46}/);
  expect(started.output()).toMatch(/v5r1 #0 EQ[A-Za-z0-9_-]{46}/);

  const servers = loadGlobalConfigFile(configOut);
  expect(servers).toHaveLength(1);
  const pool = new LitePool(servers, pino({ level: 'silent' }));
  try {
    await pool.start();
    const info = await withLiteClient(pool.openSession({}, Date.now() + 5000), (client) => client.getMasterchainInfo());
    expect(info.last.seqno).toBeGreaterThanOrEqual(1);
  } finally {
    pool.close();
  }
  started.child.kill('SIGTERM');
  expect(await started.exited).toBe(0);
}, 90000);

test('--state-file: the chain saved on exit is resumed by the next start (same key, blocks go on)', async () => {
  const dir = tempDir();
  const stateFile = path.join(dir, 'chain.state');
  const key = 'ab'.repeat(32);
  const args = ['--port', '0', '--metrics-port', '0', '--keyless-rps', '0', '--accounts', '1', '--state-file', stateFile, '--localnet-key', key, '--block-interval', '200', '--log-level', 'info', '--index', 'off'];

  const first = run(args);
  children.push(first);
  // `ready in N s` is printed once the server is healthy: the healthcheck answers 200 at once.
  const ready = await waitForOutput(first, /ready in (\d+\.\d) s: (http:\S+)\/api\/v2\//);
  expect((await fetch(`${ready[2]}/api/v2/healthcheck`)).status).toBe(200);
  expect(Number(ready[1])).toBeGreaterThan(0);
  const firstUrl = (await waitForOutput(first, /"url":"(http:[^"]+)\/api\/v2\/"/))[1]!;
  expect(firstUrl).toBe(ready[2]);
  const firstKey = (await waitForOutput(first, /lite server [\d.]+:\d+, key (\S+)/))[1]!;
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const before = (await (await fetch(`${firstUrl}/api/v2/getMasterchainInfo`)).json()) as { result: { last: { seqno: number; root_hash: string }; init: unknown } };
  first.child.kill('SIGTERM');
  expect(await first.exited).toBe(0);
  expect(fs.existsSync(stateFile)).toBe(true);

  const second = run(args);
  children.push(second);
  const secondUrl = (await waitForOutput(second, /"url":"(http:[^"]+)\/api\/v2\/"/))[1]!;
  expect((await waitForOutput(second, /lite server [\d.]+:\d+, key (\S+)/))[1]).toBe(firstKey);
  await new Promise((resolve) => setTimeout(resolve, 800));
  const after = (await (await fetch(`${secondUrl}/api/v2/getMasterchainInfo`)).json()) as { result: { last: { seqno: number }; init: unknown } };
  expect(after.result.init).toEqual(before.result.init);
  expect(after.result.last.seqno).toBeGreaterThan(before.result.last.seqno);
  // The block seen before the restart is still the same block after it.
  const lookup = (await (
    await fetch(`${secondUrl}/api/v2/lookupBlock?workchain=-1&shard=-9223372036854775808&seqno=${before.result.last.seqno}`)
  ).json()) as { ok: boolean; result: { root_hash: string } };
  expect(lookup.ok).toBe(true);
  expect(lookup.result.root_hash).toBe(before.result.last.root_hash);
  second.child.kill('SIGTERM');
  expect(await second.exited).toBe(0);
}, 120000);

test.each([
  [['--shards', '3'], 2, '--shards must be one of 1, 2, 4, 8, got 3'],
  [['--mnemonic', 'not a mnemonic'], 1, '--mnemonic must be the 24 words of a TON mnemonic, got 3 words'],
])('%j is refused at start with the option error, no stack trace', async (args, code, message) => {
  const started = run([...args, '--port', '0', '--metrics-port', '0']);
  children.push(started);
  expect(await started.exited).toBe(code);
  expect(started.output().trim()).toBe(`ton-http-bridge: ${message}`);
}, 30000);
