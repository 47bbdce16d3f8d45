import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../../src/config';
import { startLocalnetSource } from '../../src/localnetSource';
import type { LiteServerSource } from '../../src/server';
import type { Localnet } from '../../src/localnet';

/**
 * The Docker image's start command run as a process, offline: `node dist/main.js --network mainnet
 * --config-cache-dir <read-only dir>` on the compiled build. With a cached global config (pointing
 * at the local chain's lite server) it starts and serves from it; with none it exits with the
 * clear message. The image layout is rebuilt in a temp dir: dist/ from tsc, node_modules linked.
 */

const ROOT = path.resolve(__dirname, '..', '..');
const logger = pino({ level: 'silent' });

let app: string;
let localnet: Localnet;
let source: LiteServerSource;
const children: ChildProcess[] = [];

function healthcheckCommand(): string[] {
  const dockerfile = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
  const match = /HEALTHCHECK[^\n]*?CMD (\[.*\])/.exec(dockerfile);
  if (!match) throw new Error('no exec-form HEALTHCHECK CMD in the Dockerfile');
  return JSON.parse(match[1]!) as string[];
}

function readOnlyCacheDir(withConfig: boolean): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thb-data-'));
  if (withConfig) fs.writeFileSync(path.join(dir, 'mainnet-global.config.json'), localnet.globalConfigJson);
  fs.chmodSync(dir, 0o555);
  return dir;
}

function start(cacheDir: string): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('TON_BRIDGE_')));
  const child = spawn(
    process.execPath,
    ['dist/main.js', '--network', 'mainnet', '--config-cache-dir', cacheDir, '--port', '0', '--metrics-port', '0', '--keyless-rps', '0'],
    {
      cwd: app,
      env: { ...env, NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

beforeAll(async () => {
  app = fs.mkdtempSync(path.join(os.tmpdir(), 'thb-app-'));
  const build = spawnSync(
    process.execPath,
    [
      path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
      '-p',
      path.join(ROOT, 'tsconfig.build.json'),
      '--outDir',
      path.join(app, 'dist'),
    ],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
  if (build.status !== 0) throw new Error(`build failed: ${build.stdout}${build.stderr}`);
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(app, 'node_modules'), 'dir');
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(app, 'package.json'));
  const { config } = loadConfig(['--accounts', '1'], {});
  const started = await startLocalnetSource(config, logger);
  localnet = started.localnet;
  source = started;
}, 240_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await source?.stop();
  if (app) fs.rmSync(app, { recursive: true, force: true });
});

test('with a cached global config in a read-only cache dir it starts and serves from its servers', async () => {
  const started = start(readOnlyCacheDir(true));
  const deadline = Date.now() + 90_000;
  let match: RegExpExecArray | null = null;
  while (!(match = /"url":"(http:\/\/[^"]+)\/api\/v2\/","network":"mainnet"/.exec(started.output()))) {
    if (started.child.exitCode !== null) throw new Error(`exited early:\n${started.output()}`);
    if (Date.now() > deadline) throw new Error(`did not start:\n${started.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const base = match[1]!;
  // Offline: the download fails, the cached copy is used, and that is said as such.
  expect(started.output()).toContain('using the cached copy');
  expect(started.output()).toMatch(/lite server #0 127\.0\.0\.1:\d+: up/);
  const res = await fetch(`${base}/api/v2/getMasterchainInfo`);
  expect(res.status).toBe(200);
  const body = (await res.json()) as { result: { last: { seqno: number } } };
  expect(body.result.last.seqno).toBeGreaterThan(0);
  // The image's HEALTHCHECK command, run against it: healthy.
  const port = new URL(base).port;
  const [command, ...args] = healthcheckCommand();
  expect(command).toBe('node');
  const check = spawnSync(process.execPath, args, { env: { ...process.env, TON_BRIDGE_PORT: port }, encoding: 'utf8', timeout: 30_000 });
  expect(check.status).toBe(0);
  started.child.kill('SIGTERM');
  expect(await started.exited).toBe(0);
}, 120_000);

test('with no cached config it exits with the clear message, never a cache-write complaint', async () => {
  const dir = readOnlyCacheDir(false);
  const started = start(dir);
  let timer: NodeJS.Timeout | undefined;
  const code = await Promise.race([started.exited, new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), 60_000)))]);
  clearTimeout(timer);
  expect(code).toBe(1);
  const output = started.output();
  expect(output).toContain('cannot download the mainnet global config from https://ton.org/global.config.json');
  expect(output).toContain(`there is no cached copy at ${path.join(dir, 'mainnet-global.config.json')}`);
  expect(output).toContain('pass --liteservers <global config file> instead');
  expect(output).not.toMatch(/EACCES|EROFS|cannot cache/);
  expect(output).not.toMatch(/\n\s+at /); // a message, not a stack trace
}, 90_000);

test('the HEALTHCHECK command fails when nothing healthy answers', () => {
  const [, ...args] = healthcheckCommand();
  const check = spawnSync(process.execPath, args, { env: { ...process.env, TON_BRIDGE_PORT: '1' }, encoding: 'utf8', timeout: 30_000 });
  expect(check.status).toBe(1);
});
