/**
 * What the access gate (API key + token bucket) adds to a request, in memory and with Redis.
 *
 *   npm run bench                                   # all benches, this one included
 *   BENCH_REDIS_URL=redis://host:6379 npm run bench # another Redis (default 127.0.0.1:6379)
 *
 * Two figures: the bucket store alone (one `take`), and whole HTTP requests to a chain-free
 * method (detectAddress) over keep-alive, without the gate and with it; the difference is the
 * latency the gate adds. Every request passes (the bench key has a huge rate), so this is the
 * cost of the common path, not of a refusal.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { createApp } from '../src/app';
import { createAccessControl, type AccessControl } from '../src/auth';
import { MemoryBucketStore, type BucketStore } from '../src/auth/bucket';
import { RedisBucketStore } from '../src/auth/redis-store';
import { loadConfig } from '../src/config';
import { createHandlerTable } from '../src/methods';

const REDIS_URL = process.env['BENCH_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const BENCH_KEY = `bench-key-${randomBytes(8).toString('hex')}`;
const PATH = '/api/v2/detectAddress?address=EQDtFpEwcFAEcRe5mLVh2N6C0x-_hJEM7W61_JLnSF74p4q2';
const STORE_ROUNDS = { memory: 50_000, redis: 5_000 };
const HTTP_ROUNDS = 3_000;
const WARMUP = 300;

interface Percentiles {
  p50: number;
  p99: number;
}

function percentiles(samplesUs: number[]): Percentiles {
  const sorted = [...samplesUs].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: at(0.5), p99: at(0.99) };
}

function elapsedUs(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1000;
}

async function benchStore(store: BucketStore, rounds: number): Promise<Percentiles> {
  const rate = { rps: 1e9, burst: 1e9 };
  const samples: number[] = [];
  for (let i = 0; i < rounds + WARMUP; i++) {
    const start = process.hrtime.bigint();
    await store.take(`bench:${i % 100}`, rate, 1);
    if (i >= WARMUP) samples.push(elapsedUs(start));
  }
  return percentiles(samples);
}

async function benchHttp(access: AccessControl | undefined, flags: string[], headers: Record<string, string>): Promise<Percentiles> {
  const config = loadConfig(['--log-level', 'silent', ...flags], {}).config;
  const logger = pino({ level: 'silent' });
  const app = createApp({ config, logger, table: createHandlerTable(), ...(access ? { access } : {}) });
  const server = await new Promise<http.Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const { port } = server.address() as AddressInfo;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = () =>
    new Promise<number>((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port, path: PATH, agent, headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
    });
  const samples: number[] = [];
  try {
    for (let i = 0; i < HTTP_ROUNDS + WARMUP; i++) {
      const start = process.hrtime.bigint();
      const status = await get();
      if (status !== 200) throw new Error(`bench request answered ${status}`);
      if (i >= WARMUP) samples.push(elapsedUs(start));
    }
  } finally {
    agent.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  return percentiles(samples);
}

function row(label: string, figures: Percentiles, baseline?: Percentiles): string {
  const added = baseline
    ? `   added p50 ${(figures.p50 - baseline.p50).toFixed(1).padStart(6)} µs   p99 ${(figures.p99 - baseline.p99).toFixed(1).padStart(6)} µs`
    : '';
  return `  ${label.padEnd(34)} p50 ${figures.p50.toFixed(1).padStart(7)} µs   p99 ${figures.p99.toFixed(1).padStart(7)} µs${added}`;
}

export async function runLimiterBench(): Promise<void> {
  const silent = pino({ level: 'silent' });
  console.log('Limiter (src/auth): added latency per request');

  const memory = new MemoryBucketStore();
  console.log(row('store take(), memory', await benchStore(memory, STORE_ROUNDS.memory)));
  await memory.close();
  const redisStore = new RedisBucketStore({
    url: REDIS_URL,
    keyPrefix: `ton-http-bridge-bench:${process.pid}:`,
    timeoutMs: 1000,
    onAvailabilityChange: () => undefined,
  });
  const redisUp = await redisStore.connect();
  if (redisUp) {
    console.log(row('store take(), Redis (1 EVALSHA)', await benchStore(redisStore, STORE_ROUNDS.redis)));
    for (let i = 0; i < 100; i++) await redisStore.reset(`bench:${i}`);
  } else {
    console.log(`  (no Redis at ${REDIS_URL}: Redis figures skipped; set BENCH_REDIS_URL)`);
  }
  await redisStore.close();

  const dir = mkdtempSync(path.join(tmpdir(), 'ton-bridge-bench-'));
  const keysFile = path.join(dir, 'keys.yaml');
  writeFileSync(
    keysFile,
    `keys:\n  - name: bench\n    key: ${BENCH_KEY}\n    rps: 1000000000\n    burst: 1000000000\n    networks: [local]\n`,
  );
  const keyed = { 'X-API-Key': BENCH_KEY };

  const baseline = await benchHttp(undefined, [], keyed);
  console.log(row(`HTTP detectAddress, no gate`, baseline));
  const modes: [string, string[], Record<string, string>][] = [
    ['HTTP, gate: key + memory bucket', ['--keys-file', keysFile], keyed],
    ['HTTP, gate: keyless + memory', ['--keys-file', keysFile, '--keyless-rps', '1000000'], {}],
  ];
  if (redisUp) {
    const prefix = `ton-http-bridge-bench:${process.pid}:`;
    modes.push(['HTTP, gate: key + Redis bucket', ['--keys-file', keysFile, '--redis-url', REDIS_URL, '--limiter-prefix', prefix], keyed]);
  }
  for (const [label, flags, headers] of modes) {
    const config = loadConfig(flags, {}).config;
    const access = await createAccessControl(config, silent);
    try {
      console.log(row(label, await benchHttp(access, flags, headers), baseline));
    } finally {
      await access.close();
    }
  }
  console.log(
    `  (${HTTP_ROUNDS} sequential keep-alive requests per line after ${WARMUP} warm-up; store lines: ${STORE_ROUNDS.memory} memory / ${STORE_ROUNDS.redis} Redis takes)`,
  );
}

if (require.main === module) {
  runLimiterBench().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
