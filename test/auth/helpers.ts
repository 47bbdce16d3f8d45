import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import { Redis } from 'ioredis';
import { createApp } from '../../src/app';
import { createAccessControl, type AccessControl, type AccessControlOptions } from '../../src/auth';
import { loadConfig, type AppConfig } from '../../src/config';
import { createHandlerTable } from '../../src/methods';
import { createLogger } from '../../src/logging/index';
import { logLineSink } from '../helpers/logLines';

/** A valid address: detectAddress answers it without any chain, so it is the limited endpoint. */
export const ADDRESS = 'EQDtFpEwcFAEcRe5mLVh2N6C0x-_hJEM7W61_JLnSF74p4q2';
export const DETECT_PATH = `/api/v2/detectAddress?address=${ADDRESS}`;

export const REDIS_URL = process.env['TON_BRIDGE_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

export interface AuthTestApp {
  app: Express;
  access: AccessControl;
  config: AppConfig;
  /** Every log line of the app and of the access control. */
  logLines: string[];
}

/** The real app with the real access control built from these flags, logs captured. */
export async function buildAuthApp(flags: string[], options: AccessControlOptions = {}): Promise<AuthTestApp> {
  const logLines: string[] = [];
  const sink = logLineSink(logLines);
  const config = loadConfig(['--log-level', 'debug', ...flags], {}).config;
  const logger = createLogger(config.logLevel, sink);
  const access = await createAccessControl(config, logger, options);
  const app = createApp({ config, logger, table: createHandlerTable(), access });
  return { app, access, config, logLines };
}

export function tempDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'ton-bridge-auth-'));
}

export function writeFile(dir: string, name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

/** A fresh Redis key prefix, so parallel runs never share buckets. */
export function uniquePrefix(): string {
  return `ton-http-bridge-test:${process.pid}:${randomBytes(4).toString('hex')}:`;
}

export async function deleteKeysWithPrefix(url: string, prefix: string): Promise<void> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await client.connect();
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length > 0) await client.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
}

/**
 * Whether a Redis answers PING at `url`, decided synchronously (in a child process) because
 * jest must know while collecting suites whether to run or skip them.
 */
export function redisReachableSync(url: string): boolean {
  const { hostname, port } = new URL(url);
  const script = `
    const socket = require('node:net').connect(${Number(port || 6379)}, ${JSON.stringify(hostname)});
    socket.setTimeout(2000, () => process.exit(1));
    socket.on('error', () => process.exit(1));
    socket.on('connect', () => socket.write('PING\\r\\n'));
    socket.on('data', (data) => process.exit(String(data).startsWith('+PONG') ? 0 : 1));`;
  return spawnSync(process.execPath, ['-e', script], { timeout: 5000 }).status === 0;
}

/**
 * `describe` for suites that need the Redis at REDIS_URL. CI starts one, so there its absence
 * fails the suite; elsewhere the suite is skipped with the reason.
 */
export function describeWithRedis(name: string, reachable: boolean, body: () => void): void {
  if (reachable || process.env['CI']) {
    describe(name, () => {
      beforeAll(() => {
        if (!reachable) throw new Error(`Redis is not reachable at ${REDIS_URL}; CI must start it`);
      });
      body();
    });
  } else {
    describe.skip(`${name} (skipped: no Redis at ${REDIS_URL}; start redis-server or set TON_BRIDGE_TEST_REDIS_URL)`, body);
  }
}

export { freePort } from '../helpers/waiting';

export interface Listening {
  url: string;
  close(): Promise<void>;
}

export async function listen(app: Express): Promise<Listening> {
  return new Promise((resolve) => {
    const server: Server = app.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/** A clock the test moves by hand. */
export function manualClock(start = 1_000_000): { now: () => number; advance(ms: number): void } {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

/** Parsed JSON log lines. */
export function parsedLogs(lines: readonly string[]): Record<string, unknown>[] {
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}
