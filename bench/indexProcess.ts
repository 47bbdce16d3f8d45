/**
 * Part 6 of `npm run bench -- index` (`BENCH_INDEX_ONLY=indexer`): the RSS of an indexing process
 * over 10 000 blocks, the process doing nothing but index. Issue 22 asks for the RSS "of an
 * indexing process" to stay flat; the served catch-up (part 4) measures `npm start`, whose RSS
 * also holds the embedded chain's thread, whose heap swings by hundreds of MB between its full
 * collections while it serves the blocks (docs/benchmarks.md), so that figure cannot tell what
 * the index keeps. Here `ton-http-bridge localnet` serves a copy of the saved chain in one process
 * and `ton-http-bridge index` (no HTTP API, the pipeline on its main thread) indexes it from
 * genesis into PostgreSQL in another, as an operator runs an indexer against a remote network.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { freePort } from '../test/helpers/waiting';

export interface IndexProcessBenchInput {
  /** A saved chain file; copied, never written. */
  readonly chainFile: string;
  /** The masterchain blocks the chain holds (the index is caught up at this seqno). */
  readonly blocks: number;
  /** A fresh PostgreSQL database. */
  readonly databaseUrl: string;
  readonly root: string;
  /** `npm start`'s environment (its malloc settings), which the Dockerfile gives every command. */
  readonly env: NodeJS.ProcessEnv;
  /** Scratch directory, removed after. */
  readonly dir: string;
}

/** Samples of RSS taken at each tenth of the catch-up. */
const SAMPLES = 10;

export async function indexProcessRss(input: IndexProcessBenchInput): Promise<void> {
  mkdirSync(input.dir, { recursive: true });
  const stateFile = path.join(input.dir, 'chain.state');
  const configFile = path.join(input.dir, 'global.config.json');
  copyFileSync(input.chainFile, stateFile);
  const bin = path.join(input.root, 'bin', 'ton-http-bridge.js');
  const chain = spawn(
    process.execPath,
    [bin, 'localnet', '--state-file', stateFile, '--config-out', configFile, '--save-interval', '0', '--keep-blocks', '100000000', '--block-interval', '3600000', '--log-level', 'warn'],
    { cwd: input.root, env: input.env, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  let indexer: ChildProcess | undefined;
  try {
    for (let i = 0; i < 1200 && !existsSync(configFile); i++) await sleep(100);
    if (!existsSync(configFile)) throw new Error('the local chain process wrote no global config');
    const metricsPort = await freePort();
    const started = performance.now();
    indexer = spawn(
      process.execPath,
      [bin, 'index', '--network', 'local', '--liteservers', configFile, '--database-url', input.databaseUrl, '--metrics-port', String(metricsPort), '--log-level', 'warn'],
      { cwd: input.root, env: input.env, stdio: ['ignore', 'ignore', 'inherit'] },
    );
    const pid = indexer.pid!;
    const samples: { seqno: number; rssMb: number }[] = [];
    let committed = 0;
    for (let i = 0; i < 7200 && committed < input.blocks; i++) {
      await sleep(250);
      if (indexer.exitCode !== null) throw new Error(`the indexer exited (${indexer.exitCode})`);
      committed = (await committedSeqno(metricsPort)) ?? committed;
      // The first sample once the first block is in (the process has opened everything it uses).
      const due = samples.length === 0 ? 1 : Math.ceil((samples.length * input.blocks) / SAMPLES);
      if (committed >= due) samples.push({ seqno: committed, rssMb: processRssMb(pid) });
    }
    if (committed < input.blocks) throw new Error(`the indexer reached ${committed} of ${input.blocks} blocks`);
    const seconds = (performance.now() - started) / 1000;
    const cpuSeconds = processCpuSeconds(pid);
    const half = samples.find((s) => s.seqno >= input.blocks / 2) ?? samples[samples.length - 1]!;
    const first = samples[0]!;
    const last = samples[samples.length - 1]!;
    const peak = Math.max(...samples.map((s) => s.rssMb));
    console.log(
      `  the indexing process alone (ton-http-bridge index -> PostgreSQL, the chain in another process): ${input.blocks} mc blocks in ${seconds.toFixed(0)} s, ` +
        `${cpuSeconds.toFixed(1)} CPU-s; RSS by seqno ${samples.map((s) => `${s.seqno}: ${s.rssMb}`).join(', ')} MB; ` +
        `first half ${signed(half.rssMb - first.rssMb)} MB, second half ${signed(last.rssMb - half.rssMb)} MB, peak ${peak} MB (target: flat); load ${loadavg()[0]!.toFixed(1)}`,
    );
  } finally {
    await stop(indexer);
    await stop(chain);
    rmSync(input.dir, { recursive: true, force: true });
  }
}

export async function committedSeqno(port: number): Promise<number | null> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`).catch(() => null);
  if (!res || res.status !== 200) return null;
  const match = /^ton_bridge_index_committed_mc_seqno (\d+)/m.exec(await res.text());
  return match ? Number(match[1]) : null;
}

export function processRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024);
}

/** utime + stime of process `pid` (its threads together), seconds. */
export function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function signed(mb: number): string {
  return mb >= 0 ? `+${mb}` : String(mb);
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
