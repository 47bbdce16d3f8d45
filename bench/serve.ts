/**
 * What serving costs next to the floor: the local chain in its own process (`localnet`), the API
 * in another, pointed at it over ADNL as a production bridge would be, and two reference servers
 * (bare node:http, a minimal Express 5 app) answering with the very bytes of each measured
 * response. autocannon drives each with 50 connections for 10 s.
 *
 *   npm run bench -- serve
 *
 * Also: uncached getAddressInformation (an API with --cache-size 0) against the same read made
 * with LiteClient directly (getMasterchainInfo + getAccountState, as in bench/api.ts), and the API's
 * RSS while 1 000 keep-alive clients read cached answers for 30 s.
 *
 * The chain and the APIs run what production runs: the compiled output of `npm run build`
 * (dist/main.js, built at the start of the bench), not the TypeScript sources under tsx.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { LiteClient, LiteSingleEngine } from 'ton-lite-client';
import { parseGlobalConfig } from '../src/liteclient';
import { DEFAULT_LOCALNET_MNEMONIC, deriveLocalnetWallets } from '../src/localnet/wallets';
import { freePort } from '../test/helpers/waiting';

const ROOT = path.resolve(__dirname, '..');
const CONNECTIONS = 50;
const SECONDS = 10;
const MANY_CLIENTS = 1000;
const MANY_SECONDS = 30;

const children: ChildProcess[] = [];


/** A TypeScript script of the bench itself (the reference servers), under tsx. */
function start(args: string[]): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  children.push(child);
  return child;
}

/** The server as production runs it: the compiled dist/main.js. */
function startBuilt(args: string[]): ChildProcess {
  const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'main.js'), ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  return child;
}

function build(): void {
  const started = Date.now();
  const result = spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error(`npm run build failed (status ${result.status})`);
  console.log(`built dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

async function waitFor(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 60000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not come up`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).status < 500;
  } catch {
    return false;
  }
}

interface Target {
  name: string;
  path: string;
  method: 'GET' | 'POST';
  body?: string;
}

interface Run {
  rps: number;
  requests: number;
  /** The server's CPU time per request, µs (when measured). */
  cpuPerRequestUs?: number;
  p50: number;
  p99: number;
  errors: number;
  timeouts: number;
  non2xx: number;
}

async function cannon(url: string, target: Target, connections = CONNECTIONS, duration = SECONDS): Promise<Run> {
  const result = await autocannon({
    url: url + target.path,
    method: target.method,
    connections,
    duration,
    ...(target.body ? { body: target.body, headers: { 'content-type': 'application/json' } } : {}),
  });
  return {
    rps: result.requests.average,
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
  };
}

/** CPU time (user + system) a process has used so far, ms (Linux /proc; 10 ms ticks). */
function cpuMsOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Runs `work` and adds the server's CPU time per request (µs) to its figures. */
async function withCpu(pid: number, work: () => Promise<Run>): Promise<Run> {
  const before = cpuMsOf(pid);
  const run = await work();
  return { ...run, cpuPerRequestUs: ((cpuMsOf(pid) - before) * 1000) / run.requests };
}

function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** One unlabelled gauge of the API's metrics. */
async function gaugeOf(metricsUrl: string, name: string): Promise<number> {
  const text = await (await fetch(`${metricsUrl}/metrics`)).text();
  return Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)?.[1] ?? NaN);
}

/** TVM worker threads alive in the API. */
const tvmThreadsOf = (metricsUrl: string) => gaugeOf(metricsUrl, 'ton_bridge_tvm_threads');
/** What the API's response cache holds, KB (its bound is --cache-size, 64 MB by default). */
const cacheKbOf = async (metricsUrl: string) => (await gaugeOf(metricsUrl, 'ton_bridge_response_cache_bytes')) / 1024;

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

async function bytesOf(url: string, target: Target): Promise<Buffer> {
  const res = await fetch(url + target.path, {
    method: target.method,
    ...(target.body ? { body: target.body, headers: { 'content-type': 'application/json' } } : {}),
  });
  if (res.status !== 200) throw new Error(`${target.name}: HTTP ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

const line = (name: string, run: Run) =>
  `${name.padEnd(44)} ${run.rps.toFixed(0).padStart(7)} ${run.p50.toFixed(1).padStart(7)} ${run.p99.toFixed(1).padStart(7)}` +
  `${run.cpuPerRequestUs === undefined ? '' : ` ${run.cpuPerRequestUs.toFixed(0).padStart(6)}`}` +
  `${run.errors + run.timeouts + run.non2xx > 0 ? `  (errors ${run.errors}, timeouts ${run.timeouts}, non-2xx ${run.non2xx})` : ''}`;

interface Driven {
  perSecond: number;
  p50: number;
  p99: number;
}

/**
 * Two ways of making the same call, each driven with `concurrency` in flight for `rounds` calls
 * in all, alternating in `slices` slices (a, b, a, b...), so that a burst of load from elsewhere
 * on the machine weighs on both alike; throughput over each way's own time, latency per call.
 */
async function driveAlternating(
  rounds: number,
  slices: number,
  concurrency: number,
  a: () => Promise<void>,
  b: () => Promise<void>,
): Promise<[Driven, Driven]> {
  const totals = [
    { samples: [] as number[], ms: 0 },
    { samples: [] as number[], ms: 0 },
  ];
  const perSlice = Math.ceil(rounds / slices);
  for (let slice = 0; slice < slices; slice++) {
    for (const [index, call] of [a, b].entries()) {
      const total = totals[index]!;
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next++ < perSlice) {
            const t = performance.now();
            await call();
            total.samples.push(performance.now() - t);
          }
        }),
      );
      total.ms += performance.now() - started;
    }
  }
  return totals.map(({ samples, ms }) => {
    samples.sort((x, y) => x - y);
    const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;
    return { perSecond: samples.length / (ms / 1000), p50: at(0.5), p99: at(0.99) };
  }) as [Driven, Driven];
}

export async function runServeBench(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thb-serve-'));
  const configFile = path.join(dir, 'local.config.json');
  try {
    build();
    startBuilt(['localnet', '--config-out', configFile, '--accounts', '2', '--log-level', 'warn']);
    await waitFor(() => fs.existsSync(configFile) && fs.statSync(configFile).size > 0, 'the local chain');
    const [lite] = parseGlobalConfig(JSON.parse(fs.readFileSync(configFile, 'utf8')), 'local chain');
    const wallets = await deriveLocalnetWallets(DEFAULT_LOCALNET_MNEMONIC, 1, -239);
    const wallet = wallets.wallets[0]!.address;

    const apiPort = await freePort();
    let metricsPort = await freePort();
    while (metricsPort === apiPort) metricsPort = await freePort();
    const api = startBuilt([
      '--liteservers',
      configFile,
      '--port',
      String(apiPort),
      '--metrics-port',
      String(metricsPort),
      '--keyless-rps',
      '0',
      '--log-level',
      'info',
    ]);
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const metricsUrl = `http://127.0.0.1:${metricsPort}`;
    await waitFor(() => answers(`${apiUrl}/api/v2/getMasterchainInfo`), 'the API');

    const targets: Target[] = [
      { name: 'getMasterchainInfo', path: '/api/v2/getMasterchainInfo', method: 'GET' },
      { name: 'getAddressInformation', path: `/api/v2/getAddressInformation?address=${wallet.toString()}`, method: 'GET' },
      {
        name: 'runGetMethod seqno',
        path: '/api/v2/runGetMethod',
        method: 'POST',
        body: JSON.stringify({ address: wallet.toString(), method: 'seqno', stack: [] }),
      },
    ];
    console.log(`serve: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), node ${process.version}, load ${loadAverage()}`);
    console.log(`autocannon ${CONNECTIONS} connections x ${SECONDS} s; chain, API and reference servers each in their own process`);
    console.log(`${'what'.padEnd(44)} ${'req/s'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'µs CPU/req (server)'}`);

    /** 1 000 keep-alive clients on a cached read, the API's RSS sampled while they run. */
    async function manyClients(target: Target): Promise<string> {
      const threads = await tvmThreadsOf(metricsUrl);
      const cacheKb = await cacheKbOf(metricsUrl);
      let peak = rssOf(api.pid!);
      const before = peak;
      const sampler = setInterval(() => (peak = Math.max(peak, rssOf(api.pid!))), 250);
      const many = await withCpu(api.pid!, () => cannon(apiUrl, target, MANY_CLIENTS, MANY_SECONDS));
      clearInterval(sampler);
      console.log(line(`ours, ${MANY_CLIENTS} keep-alive clients, cached ${target.name}`, many));
      return `RSS of the API: ${before.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB with ${MANY_CLIENTS} clients over ${MANY_SECONDS} s, ${threads} TVM thread(s), response cache ${cacheKb.toFixed(0)} KB (target <= 150 MB, no timeouts: ${many.timeouts})`;
    }

    const ratios: string[] = [];
    let rssLine = '';
    for (const target of targets) {
      const bytes = await bytesOf(apiUrl, target);
      const file = path.join(dir, `${target.name.replace(/\W+/g, '_')}.json`);
      fs.writeFileSync(file, bytes);
      const refs: Record<string, Run> = {};
      for (const kind of ['bare', 'express'] as const) {
        const port = await freePort();
        const child = start(['bench/serveTargets.ts', kind, String(port), file]);
        await waitFor(() => answers(`http://127.0.0.1:${port}/`), `${kind} server`);
        refs[kind] = await withCpu(child.pid!, () => cannon(`http://127.0.0.1:${port}`, target));
        console.log(
          line(`${kind === 'bare' ? 'bare node:http' : 'minimal Express 5'}, ${target.name} bytes (${bytes.length} B)`, refs[kind]!),
        );
        child.kill('SIGKILL');
      }
      const ours = await withCpu(api.pid!, () => cannon(apiUrl, target));
      console.log(line(`ours, cached ${target.name}`, ours));
      ratios.push(`cached ${target.name} / Express: ${(ours.rps / refs['express']!.rps).toFixed(2)} (target >= 0.8)`);
      // 1 000 keep-alive clients on the cached read, before any get-method has started a TVM
      // thread (they start on demand): the serving footprint; RSS sampled while they run.
      if (target === targets[1]) rssLine = await manyClients(target);
    }
    // runGetMethod started a TVM thread; it stays for --tvm-idle-timeout.
    rssLine += `; after runGetMethod ${rssOf(api.pid!).toFixed(0)} MB with ${await tvmThreadsOf(metricsUrl)} TVM thread(s)`;

    // Uncached: a second API with the cache off, against LiteClient directly.
    const uncachedPort = await freePort();
    startBuilt([
      '--liteservers',
      configFile,
      '--port',
      String(uncachedPort),
      '--metrics-port',
      '0',
      '--keyless-rps',
      '0',
      '--log-level',
      'info',
      '--cache-size',
      '0',
    ]);
    const uncachedUrl = `http://127.0.0.1:${uncachedPort}`;
    await waitFor(() => answers(`${uncachedUrl}/api/v2/getMasterchainInfo`), 'the uncached API');
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    const get = (url: string) =>
      new Promise<void>((resolve, reject) => {
        http
          .get(url, { agent }, (res) => {
            res.resume();
            res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
          })
          .on('error', reject);
      });
    const engine = new LiteSingleEngine({ host: `tcp://${lite!.host}:${lite!.port}`, publicKey: lite!.publicKey });
    engine.on('error', () => undefined);
    await new Promise<void>((resolve) => engine.once('ready', () => resolve()));
    const noCache = { get: () => undefined, set: () => undefined, delete: () => undefined, clear: () => undefined };
    const client = new LiteClient({ engine, cacheMap: () => noCache });
    const readUrl = uncachedUrl + targets[1]!.path;
    for (let i = 0; i < 30; i++) await get(readUrl);
    const [throughApi, direct] = await driveAlternating(
      800,
      8,
      4,
      () => get(readUrl),
      async () => {
        const head = (await client.getMasterchainInfo()).last;
        await client.getAccountStateRaw(wallet, head);
      },
    );
    engine.close();
    agent.destroy();
    const fmt = (f: Driven) => `${f.perSecond.toFixed(0)} req/s, p50 ${f.p50.toFixed(2)} ms, p99 ${f.p99.toFixed(2)} ms`;
    console.log(
      `uncached getAddressInformation, 4 in flight, 800 each in 8 alternating slices: API ${fmt(throughApi)}; LiteClient directly ${fmt(direct)}`,
    );
    ratios.push(
      `uncached getAddressInformation / LiteClient directly: ${(throughApi.perSecond / direct.perSecond).toFixed(2)} (target >= 1.0)`,
    );
    console.log(rssLine);
    for (const ratio of ratios) console.log(ratio);
    console.log(`load average at the end: ${loadAverage()}`);
  } finally {
    for (const child of children) child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
