/**
 * `npm run bench -- index`: the block index.
 * 1. Ingest: a saved local chain (made once, kept in .cache/: BENCH_INDEX_TRANSFERS transfers of
 *    four messages each, default 2 000, BENCH_INDEX_PER_BLOCK a block (20), so 100 masterchain blocks, and in
 *    each also BENCH_INDEX_WIDE_TRANSFERS (2) v5r1 transfers of BENCH_INDEX_WIDE messages (250; 0: none):
 *    ~61 000 transactions, ~600 a masterchain block; BENCH_INDEX_TRANSFERS=4000 makes ~121 000: the
 *    chain keeps its old blocks as BoC bytes, src/localnet/ledger/blockBytes.ts) indexed from genesis into
 *    PostgreSQL (BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/postgres; a fresh
 *    database is created and dropped) and into the embedded PGlite: transactions per second, RSS
 *    at start, middle and end.
 * 2. Live: transfers at BENCH_INDEX_RATE per second (default 20; the target is at 50) sent over the
 *    lite protocol to the chain in its own thread (as `npm start` runs it) while the index follows:
 *    from each block's seal (the thread reports it) to its rows being committed, p50/p99.
 * 3. Start: `npm start`'s command (node bin/ton-http-bridge.js with the start script's malloc
 *    settings, the embedded chain) with the index on (the default) and with --index off,
 *    BENCH_START_RUNS times each (default 5): time from the spawn to the first healthcheck 200,
 *    and the RSS of each after BENCH_REST_SECONDS (default 60).
 * 4. Served catch-up: `npm start` on a saved chain of BENCH_INDEX_RSS_BLOCKS (10 000) blocks (a transfer
 *    in every BENCH_INDEX_RSS_EVERY-th, default each), index into PostgreSQL (in the index thread):
 *    RSS at start/middle/end, getMasterchainInfo p99 during ingest vs idle (inside the catch-up, the
 *    index held now and then; BENCH_INDEX_SERVED_HOLDS=0 never holds it).
 * 5. Jetton ingest (issue 24): the saved chain with a jetton transfer in every tenth trace (BENCH_INDEX_JETTON_TRANSFERS
 *    transfers, default 20 000: ~104 000 transactions), tx/s over the whole run (the figure) and traces classified/s;
 *    also the start-up (to the first commit) and the second half's rate apart.
 * 6. The indexing process alone (bench/indexProcess.ts): the chain of part 4 served by
 *    `ton-http-bridge localnet`, indexed by `ton-http-bridge index` in another process: that
 *    process's RSS at each tenth of the 10 000 blocks.
 * BENCH_INDEX_ONLY=start|served|jetton|live|indexer runs one part, BENCH_INDEX_ONLY=ingest parts 1 and 2; BENCH_INDEX_ONLY=chains only makes the saved chains of parts 1 and 5; BENCH_INDEX_ONLY=ingest-pg: only the PostgreSQL ingest, ingest-pglite only the PGlite one (for profiling: `node --cpu-prof --import tsx
 * bench/index.ts index`); BENCH_INDEX_QUERIES=1 prints the lite queries per kind (count per mc block,
 * mean latency).
 * Targets (issue 22): PostgreSQL >= 2 000 tx/s, PGlite >= 500 tx/s, seal-to-commit p99 <= 300 ms,
 * `npm start` healthy in < 3 s with the index on, its RSS at rest at most 100 MB above --index off.
 */
import { spawn } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Address, beginCell, external, internal, SendMode, storeMessage, toNano } from '@ton/core';
import type { WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import pg from 'pg';
import pino from 'pino';
import { loadConfig } from '../src/config';
import { useServingHeapPolicy } from '../src/gcPolicy';
import { indexMetrics, tvmRunDuration, tvmRuns } from '../src/metrics';
import { INDEX_THREAD_NICE, startIndex, startIndexThread, type IndexService } from '../src/indexer';
import { lowerNodeThreads } from '../src/platformThreads';
import { createLitePool, parseGlobalConfig, trustAnchorOf, type LitePool } from '../src/liteclient';
import { DEFAULT_LOCALNET_MNEMONIC, deriveLocalnetWallets, LocalnetThread, startLocalnet, type Localnet, type LocalnetGlobalConfig, type LocalnetWallets } from '../src/localnet';
import { jettonTransferBody, jettonWalletAddress, jettonWalletInit, mintBody } from '../test/helpers/jetton';
import { cpus, loadavg } from 'node:os';
import { freePort } from '../test/helpers/waiting';
import { committedSeqno, indexProcessRss, processCpuSeconds, processRssMb } from './indexProcess';

const TRANSFERS = Number(process.env['BENCH_INDEX_TRANSFERS'] ?? 2000);
const PER_BLOCK = Math.max(1, Number(process.env['BENCH_INDEX_PER_BLOCK'] ?? 20));
/**
 * Messages of the one v5r1 transfer each masterchain block of the ingest chain also carries (v5r1
 * takes up to 255): one signature and one submit for 251 transactions, so a chain of tens of
 * thousands of transactions is made in minutes (100 blocks, ~61 000 transactions: 7 min at load 5-7).
 */
const WIDE = Math.min(255, Math.max(0, Number(process.env['BENCH_INDEX_WIDE'] ?? 250)));
/** Wide transfers a masterchain block (from v5r1 wallets #0, #1, ...). */
const WIDE_TRANSFERS = Math.max(0, Number(process.env['BENCH_INDEX_WIDE_TRANSFERS'] ?? 2));
/**
 * The jetton chain's transfers (its traces are the four-message and jetton transfers only: no wide
 * transfer), 20 a masterchain block: 20 000 make 1 001 masterchain blocks and ~104 000 transactions,
 * the size issue 22's ingest target is defined at (the 2 000 of before made 10 401 transactions,
 * ingested in 7-10 s, of which the start-up, the TVM threads' and the first classifications, was
 * a large share). Made once (~10-30 min with the machine's load), kept in .cache/.
 */
const JETTON_TRANSFERS = Number(process.env['BENCH_INDEX_JETTON_TRANSFERS'] ?? 20000);
/** Masterchain blocks of transfers in the saved chain (each wallet's seqno after it). */
const ROUNDS = Math.ceil(TRANSFERS / PER_BLOCK);
const RATE = Number(process.env['BENCH_INDEX_RATE'] ?? 20);
/** The live part's measured window, s (BENCH_INDEX_LIVE_SECONDS; the transfers signed cover it). */
const LIVE_SECONDS = Math.max(1, Number(process.env['BENCH_INDEX_LIVE_SECONDS'] ?? 20));
/**
 * Seconds of sending at the rate before the measured window (BENCH_INDEX_LIVE_WARMUP, default 10):
 * the figure is a running index's, not its first seconds after the catch-up (the index, caught up
 * on the saved chain, still commits the blocks sealed while the transfers were signed). Printed
 * apart, so the transient is seen, not hidden.
 */
const LIVE_WARMUP_SECONDS = Math.max(0, Number(process.env['BENCH_INDEX_LIVE_WARMUP'] ?? 10));
/**
 * The live chain's --block-interval, ms: 400 by default (TON's block time since its 400 ms blocks,
 * issue 22), so 50 transfers/s are ~20 a block. 0 seals a block per transfer before answering the
 * send: the chain's thread then sealed ~11 blocks/s with the index reading each, sends queued
 * behind the seals and timed out at the client (a run of 26 November: 216 blocks for 1 000 sends).
 */
const LIVE_BLOCK_MS = Number(process.env['BENCH_INDEX_LIVE_BLOCK_MS'] ?? 400);
/**
 * Where the live part's index runs: `thread` (the default) in its own worker thread, as `npm start`
 * runs it (startIndexThread: its own lite pool, its heap apart, nice 10 with Node's platform
 * threads), or `main` on this thread (startIndex), as before 27 November: this thread's heap then
 * holds what the 120 843-transaction catch-up left, and it sends the transfers too.
 */
const LIVE_INDEX = process.env['BENCH_INDEX_LIVE_INDEX'] === 'main' ? 'main' : 'thread';
/**
 * BENCH_INDEX_LIVE_CATCHUP=0: the live part's index starts empty at the chain's head
 * (`--index-from`) instead of catching up on the saved chain first (minutes on a loaded machine):
 * the live figure without what a catch-up leaves in the index's heap.
 */
const LIVE_CATCHUP = process.env['BENCH_INDEX_LIVE_CATCHUP'] !== '0';
/**
 * BENCH_INDEX_LIVE_HEAP_POLICY=serving: the live part applies the API process's old-generation
 * growth (src/gcPolicy.ts) as `npm start` does: the flag is process-wide, so the chain's thread
 * then collects at 1.3x its live heap, not at V8's own factor.
 */
const LIVE_HEAP_POLICY = process.env['BENCH_INDEX_LIVE_HEAP_POLICY'] === 'serving' ? 'serving' : 'v8';
/**
 * BENCH_INDEX_LIVE_PLATFORM_NICE: the nice value the live part gives Node's own threads (V8's
 * platform workers, shared by every isolate of the process: the chain thread's concurrent marking
 * runs there). Default: the index thread's, as src/server.ts sets it.
 */
/**
 * BENCH_INDEX_LIVE_QUIET_GC=0: the chain's thread leaves its full collections to V8 instead of
 * making them between blocks (src/localnet/thread/quietCollections.ts), for a before/after.
 */
const LIVE_QUIET_GC = process.env['BENCH_INDEX_LIVE_QUIET_GC'] !== '0';
const LIVE_PLATFORM_NICE = Number(process.env['BENCH_INDEX_LIVE_PLATFORM_NICE'] ?? INDEX_THREAD_NICE);
/**
 * The served catch-up's holds of the index (pauseIndexNowAndThen): BENCH_INDEX_SERVED_HOLDS=0 runs
 * the catch-up without them (no idle inside it; the two other ratios only), so that held and
 * unheld runs can be alternated to see whether the pauses themselves move "during".
 */
const SERVED_HOLDS = process.env['BENCH_INDEX_SERVED_HOLDS'] !== '0';
/** The index runs this long between two holds, then is held this long (ms). */
const SERVED_HOLD_EVERY_MS = 15_000;
const SERVED_HOLD_MS = 5_000;
const START_RUNS = Number(process.env['BENCH_START_RUNS'] ?? 5);
const REST_SECONDS = Number(process.env['BENCH_REST_SECONDS'] ?? 60);
const ROOT = path.join(__dirname, '..');
const ADMIN_URL = process.env['BENCH_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const logger = pino({ level: 'silent' });

function rssMb(): number {
  return Math.round(process.memoryUsage().rss / 1024 / 1024);
}

/** Seconds the index's commits took so far (ton_bridge_index_write_seconds' sum). */
async function commitSeconds(): Promise<number> {
  const { values } = await indexMetrics.writeSeconds.get();
  return values.find((value) => value.metricName === 'ton_bridge_index_write_seconds_sum')?.value ?? 0;
}

/** CPU seconds of every PostgreSQL process on this machine (its backends, the WAL writer, the checkpointer): the database's side of an ingest. */
function postgresCpuSeconds(): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone meanwhile
    }
  }
  return ticks / 100;
}

/**
 * CPU seconds of this process's main thread (utime + stime of /proc/self/task/<pid>/stat, in
 * clock ticks of 10 ms): the pipeline's own cost, which the process's figure mixes with the chain's
 * thread serving the blocks. NaN where there is no /proc.
 */
function mainThreadCpuSeconds(): number {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** What one transfer of the saved chain sends: 4 TON transfers, a mint of the wallet's own jetton, or a jetton transfer. */
type TransferKind = 'ton' | 'mint' | 'jetton';

/** The messages of a transfer of `kind` from `wallet` (its own jetton: the master is the wallet itself, test/helpers/jetton.ts). */
function transferMessages(wallet: Address, kind: TransferKind) {
  const ownJetton = jettonWalletAddress(wallet, wallet);
  if (kind === 'mint') {
    return [internal({ to: ownJetton, value: toNano('0.2'), bounce: false, init: jettonWalletInit(wallet, wallet), body: mintBody(1_000_000_000n, wallet) })];
  }
  if (kind === 'jetton') {
    const body = jettonTransferBody({ amount: 1n, to: new Address(0, randomBytes(32)), responseTo: wallet, forwardTon: toNano('0.01'), forwardPayload: beginCell().storeUint(0, 32).storeStringTail('bench').endCell() });
    return [internal({ to: ownJetton, value: toNano('0.1'), bounce: true, body })];
  }
  return Array.from({ length: 4 }, () => internal({ to: new Address(0, randomBytes(32)), value: toNano('0.001'), bounce: false }));
}

/** The external message of a transfer of wallet v4r2 #walletIndex. */
function transferBoc(wallets: LocalnetWallets, walletIndex: number, seqno: number, kind: TransferKind = 'ton'): Buffer {
  const v4 = wallets.wallets.filter((w) => w.version === 'v4r2');
  const wallet = v4[walletIndex % v4.length]!;
  const contract = wallet.contract as WalletContractV4;
  const body = contract.createTransfer({
    seqno,
    secretKey: wallets.keyPair.secretKey,
    sendMode: SendMode.PAY_GAS_SEPARATELY,
    // No expiry: the live part signs its transfers before it waits for the index to reach the head,
    // which can take longer than the wallet's default 60 s (then every transfer was refused).
    timeout: 0xffffffff,
    messages: transferMessages(wallet.address, kind),
  });
  return beginCell().store(storeMessage(external({ to: wallet.address, body }))).endCell().toBoc();
}

/** A transfer of wallet v4r2 #walletIndex; `seal`: in a block of its own (else in the next one sealed). */
async function transfer(net: Localnet, walletIndex: number, seqno: number, seal = true, kind: TransferKind = 'ton'): Promise<void> {
  const boc = transferBoc(net.wallets, walletIndex, seqno, kind);
  if (seal) await net.chain.sendExternalMessage(boc);
  else await net.chain.submitExternalMessage(boc);
}

/** A v5r1 transfer of `count` messages of 0.001 TON to fresh addresses from v5r1 wallet #walletIndex, in the next block sealed. */
async function wideTransfer(net: Localnet, walletIndex: number, seqno: number, count: number): Promise<void> {
  const wallet = net.wallets.wallets.find((w) => w.version === 'v5r1' && w.index === walletIndex)!;
  const contract = wallet.contract as WalletContractV5R1;
  const messages = Array.from({ length: count }, () => internal({ to: new Address(0, randomBytes(32)), value: toNano('0.001'), bounce: false }));
  const body = contract.createTransfer({ seqno, secretKey: net.wallets.keyPair.secretKey, sendMode: SendMode.PAY_GAS_SEPARATELY, timeout: 0xffffffff, messages });
  await net.chain.submitExternalMessage(beginCell().store(storeMessage(external({ to: wallet.address, body }))).endCell().toBoc());
}

/**
 * The saved chain's file (made first when missing, then reused): `transfers` transfers of v4r2 wallets, `perBlock` a masterchain
 * block (20: ~100 transactions a block, plus the wide transfers' 251 each; mainnet's masterchain
 * blocks carry ~100-300 with their shard blocks); with `jettonEvery` N, every wallet mints its own jetton in the first round and every Nth
 * transfer is a jetton transfer (5 transactions: wallet, jetton wallet, the new receiver's jetton
 * wallet, the notification, the excess) instead of 4 TON transfers (6 transactions).
 */
async function savedChainFile(transfers: number, perBlock: number, jettonEvery = 0, wide = 0, wideTransfers = 0, emptyBetween = 0): Promise<string> {
  const dir = path.join(__dirname, '..', '.cache');
  mkdirSync(dir, { recursive: true });
  // v2: blocks carry real state updates (the index reads account states from them).
  const file = path.join(dir, `bench-index-v2-${transfers}x${perBlock}${jettonEvery ? `-jetton${jettonEvery}` : ''}${wide && wideTransfers ? `-wide${wideTransfers}x${wide}` : ''}${emptyBetween ? `-e${emptyBetween}` : ''}.state`);
  if (existsSync(file)) return file;
  // No timed blocks: a block is sealed after each round of transfers (or per message, live).
  const net = await startLocalnet({ accounts: perBlock, blockIntervalMs: 3_600_000, keepBlocks: 100_000_000, shards: 2 });
  const started = Date.now();
  const rounds = Math.ceil(transfers / perBlock);
  for (let round = 0; round < rounds; round++) {
    for (let w = 0; w < perBlock && round * perBlock + w < transfers; w++) {
      const n = round * perBlock + w;
      const kind: TransferKind = !jettonEvery ? 'ton' : round === 0 ? 'mint' : n % jettonEvery === 0 ? 'jetton' : 'ton';
      await transfer(net, w, round, false, kind);
    }
    for (let w = 0; wide > 0 && w < wideTransfers; w++) await wideTransfer(net, w, round, wide);
    await net.chain.seal();
    // Empty blocks between the rounds (a long chain made quickly: a seal of nothing is ~ms).
    for (let e = 0; e < emptyBetween; e++) await net.chain.seal();
    if (round % 20 === 19) console.log(`    round ${round + 1}/${rounds}: ${((Date.now() - started) / 1000).toFixed(0)} s, RSS ${rssMb()} MB`);
  }
  await net.save(file);
  await net.stop();
  console.log(`  made the saved chain: ${transfers} transfers, ${perBlock} a block${wide && wideTransfers ? ` and ${wideTransfers} of ${wide} messages a block` : ''}${emptyBetween ? `, ${emptyBetween} empty blocks after each` : ''}, in ${((Date.now() - started) / 1000).toFixed(0)} s -> ${file}`);
  return file;
}

/** Lite queries by kind (count, total ms) when BENCH_INDEX_QUERIES=1: where the pipeline's round trips go. */
const queryStats = new Map<string, { count: number; ms: number }>();
const COUNT_QUERIES = process.env['BENCH_INDEX_QUERIES'] === '1';

function countQueries(pool: LitePool): void {
  const open = pool.openSession.bind(pool);
  pool.openSession = (options, deadline) => {
    const session = open(options, deadline);
    const query = session.liteQuery.bind(session);
    session.liteQuery = async (q, check) => {
      const started = performance.now();
      try {
        return await query(q, check);
      } finally {
        const stat = queryStats.get(q.kind) ?? { count: 0, ms: 0 };
        stat.count++;
        stat.ms += performance.now() - started;
        queryStats.set(q.kind, stat);
      }
    };
    return session;
  };
}

/** The index's PostgreSQL statements by kind (count, total ms from the call to its answer) when BENCH_INDEX_QUERIES=1. */
const statementStats = new Map<string, { count: number; ms: number }>();

/** What kind of statement `sql` is, in a few words (the rows' insert, the actions', a read of traces...). */
function statementKind(sql: string): string {
  const flat = sql.replace(/\s+/g, ' ').trim();
  const withPart = /^with (\w+?)_? as \(/.exec(flat);
  if (withPart) return `with ${withPart[1]}...`;
  return flat.slice(0, 48);
}

if (COUNT_QUERIES) {
  const query = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown;
  pg.Client.prototype.query = function timedQuery(this: pg.Client, ...args: unknown[]): unknown {
    const text = typeof args[0] === 'string' ? args[0] : ((args[0] as { text?: string } | undefined)?.text ?? '?');
    const started = performance.now();
    const out = query.apply(this, args);
    if (out instanceof Promise) {
      void out
        .finally(() => {
          const kind = statementKind(text);
          const stat = statementStats.get(kind) ?? { count: 0, ms: 0 };
          stat.count++;
          stat.ms += performance.now() - started;
          statementStats.set(kind, stat);
        })
        .catch(() => {});
    }
    return out;
  } as typeof pg.Client.prototype.query;
}

async function printQueries(mcBlocks: number): Promise<void> {
  if (!COUNT_QUERIES) return;
  for (const [kind, { count, ms }] of [...statementStats].sort((a, b) => b[1].ms - a[1].ms).slice(0, 12)) {
    console.log(`    SQL ${JSON.stringify(kind)}: ${count}, ${ms.toFixed(0)} ms in all, mean ${(ms / count).toFixed(1)} ms`);
  }
  statementStats.clear();
  const write = (await indexMetrics.writeSeconds.get()).values;
  const sum = write.find((v) => v.metricName?.endsWith('_sum'))?.value ?? NaN;
  const count = write.find((v) => v.metricName?.endsWith('_count'))?.value ?? NaN;
  console.log(`    commit (one database transaction per mc block): mean ${((sum / count) * 1000).toFixed(1)} ms over ${count}`);
  for (const [kind, { count, ms }] of [...queryStats].sort((a, b) => b[1].count - a[1].count)) {
    console.log(`    ${kind}: ${count} (${(count / mcBlocks).toFixed(1)} per mc block), mean ${(ms / count).toFixed(1)} ms`);
  }
  queryStats.clear();
}

/** Get-methods the TVM pool answered so far (any outcome) and the sum of their submit-to-answer times. */
async function getMethodFigures(): Promise<{ count: number; seconds: number }> {
  const runs = (await tvmRuns.get()).values.filter((v) => v.labels['kind'] === 'getMethod').reduce((sum, v) => sum + v.value, 0);
  const seconds = (await tvmRunDuration.get()).values.find((v) => v.metricName?.endsWith('_sum') && v.labels['kind'] === 'getMethod')?.value ?? 0;
  return { count: runs, seconds };
}

/** A chain the index reads: its lite server's config and its head's seqno. */
interface ServedChain {
  readonly globalConfig: LocalnetGlobalConfig;
  readonly head: number;
  stop(): Promise<void>;
}

/** A scratch copy of a saved chain (a chain started on a file saves into it when it stops: the saved one stays as made). */
function scratchCopy(file: string, label: string): { file: string; remove: () => void } {
  const copy = path.join(path.dirname(file), `bench-index-run-${process.pid}-${label}.state`);
  copyFileSync(file, copy);
  return {
    file: copy,
    remove: () => {
      rmSync(copy, { force: true });
      rmSync(`${copy}.journal`, { force: true });
    },
  };
}

/**
 * The saved chain served from its own worker thread, as `npm start` runs the embedded chain: its
 * lite server's work (serializing blocks for getBlock, proofs) and its heap (every block of the
 * chain, gigabytes at 100 000 transactions) are not on the indexer's event loop and heap. With the
 * chain in the indexer's thread, most of that thread's time went to the garbage collector walking
 * the chain's blocks and to the chain answering getBlock. The process's CPU figure includes it.
 */
async function threadChain(transfers = TRANSFERS, perBlock = PER_BLOCK, jettonEvery = 0, wide = WIDE, wideTransfers = WIDE_TRANSFERS): Promise<ServedChain> {
  const scratch = scratchCopy(await savedChainFile(transfers, perBlock, jettonEvery, wide, wideTransfers), 'thread');
  const thread = await LocalnetThread.start(
    { accounts: perBlock, blockIntervalMs: 3_600_000, keepBlocks: 100_000_000, shards: 2, stateFile: scratch.file, saveIntervalSec: 0 },
    'silent',
    logger,
  );
  const head = (await thread.status()).seqno;
  return {
    globalConfig: thread.globalConfig,
    head,
    stop: async () => {
      await thread.stop();
      scratch.remove();
    },
  };
}

function poolOf(net: Pick<ServedChain, 'globalConfig'>): LitePool {
  const { config } = loadConfig(['--health-interval', '500'], {});
  const servers = parseGlobalConfig(net.globalConfig, 'local chain').map((s) => ({ ...s, archival: true }));
  const pool = createLitePool({ servers, anchor: trustAnchorOf(net.globalConfig, 'local chain', undefined) }, config, logger, false);
  if (COUNT_QUERIES) countQueries(pool);
  return pool;
}

export async function withDatabase<T>(run: (url: string) => Promise<T>): Promise<T> {
  const name = `bench_index_${Date.now()}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  try {
    return await run(url.toString());
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

async function ingest(net: ServedChain, label: string, flags: string[]): Promise<{ index: IndexService; pool: LitePool }> {
  const pool = poolOf(net);
  await pool.start();
  const { config } = loadConfig(['--index', 'on', ...flags], {});
  const head = net.head;
  const rss: number[] = [rssMb()];
  const started = performance.now();
  // CPU of the whole process (every thread: the chain serving blocks, the TVM pool, the pipeline): less
  // sensitive than the wall clock to the shared machine's load.
  const cpuAtStart = process.cpuUsage();
  // The pipeline's own thread (this one: decoding, parsing, rows, GC), apart from the chain's thread and the TVM pool.
  const threadAtStart = mainThreadCpuSeconds();
  const eluAtStart = performance.eventLoopUtilization();
  const postgresAtStart = postgresCpuSeconds();
  // Each thread's CPU: the ones started during the run are the TVM pool's (token detection's get-methods).
  const ticksAtStart = threadCpuTicks(process.pid);
  const tvmAtStart = await getMethodFigures();
  // The timed window on the clock of a --cpu-prof profile (µs), to cut the chain's load out of it.
  if (COUNT_QUERIES) console.log(`  ${label}: ingest from ${process.hrtime.bigint() / 1000n} µs`);
  // The commits' wall time (the index's own histogram) and how late this thread's event loop ran:
  // the commit is the run's critical path, and each of its database answers waits for the loop.
  const commitsAtStart = await commitSeconds();
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const index = await startIndex(config, pool, logger, true);
  const phases = new RunPhases(started, head, threadAtStart);
  const offBlock = index.onBlock((block) => phases.committed(block.mcSeqno, block.transactions.length));
  let middle = false;
  while ((index.health().status.committedMcSeqno ?? 0) < head) {
    if (!middle && (index.health().status.committedMcSeqno ?? 0) >= head / 2) {
      middle = true;
      rss.push(rssMb());
    }
    if (phases.firstAnswerMs === undefined && (await getMethodFigures()).count > tvmAtStart.count) phases.firstAnswerMs = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  offBlock();
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuAtStart);
  const threadCpu = mainThreadCpuSeconds() - threadAtStart;
  const postgresCpu = postgresCpuSeconds() - postgresAtStart;
  const ticksAtEnd = threadCpuTicks(process.pid);
  const tvmAtEnd = await getMethodFigures();
  if (COUNT_QUERIES) console.log(`  ${label}: ingest to ${process.hrtime.bigint() / 1000n} µs`);
  rss.push(rssMb());
  const { rows } = await index.store.pool.query<{ n: string }>('select count(*) as n from transactions');
  const transactions = Number(rows[0]!.n);
  console.log(
    `  ${label}: ${head} mc blocks, ${transactions} transactions in ${seconds.toFixed(1)} s = ${(transactions / seconds).toFixed(0)} tx/s, ` +
      `${(head / seconds).toFixed(1)} mc blocks/s; CPU ${((cpu.user + cpu.system) / 1000 / transactions).toFixed(2)} s per 1 000 tx ` +
      `(user ${(cpu.user / 1e6).toFixed(1)} s, system ${(cpu.system / 1e6).toFixed(1)} s); the pipeline's thread ${threadCpu.toFixed(1)} CPU-s = ${((threadCpu * 1000) / transactions).toFixed(2)} ms a transaction; RSS start/middle/end ${rss.join(' / ')} MB; ` +
      `PostgreSQL's processes ${postgresCpu.toFixed(1)} CPU-s; load ${loadavg()[0]!.toFixed(1)}`,
  );
  console.log(`    ${phases.text(transactions, seconds, threadCpu)}`);
  await printQueries(head);
  // The TVM threads (started in the run; a thread that ended before its end is missed) and the others besides this one (the chain's, V8's).
  let tvmCpu = 0;
  let otherCpu = 0;
  const others: number[] = [];
  for (const [tid, ticks] of ticksAtEnd) {
    if (tid === process.pid) continue;
    const before = ticksAtStart.get(tid);
    if (before === undefined) tvmCpu += ticks / 100;
    else {
      otherCpu += (ticks - before) / 100;
      others.push((ticks - before) / 100);
    }
  }
  const runs = tvmAtEnd.count - tvmAtStart.count;
  console.log(
    `    get-methods: ${runs}, submit to answer mean ${(((tvmAtEnd.seconds - tvmAtStart.seconds) / Math.max(1, runs)) * 1000).toFixed(1)} ms; ` +
      `TVM threads ${tvmCpu.toFixed(1)} CPU-s = ${((tvmCpu * 1000) / Math.max(1, runs)).toFixed(2)} ms a get-method; the process's other threads ${otherCpu.toFixed(1)} CPU-s (busiest ${others
        .sort((a, b) => b - a)
        .slice(0, 4)
        .map((cpu) => cpu.toFixed(1))
        .join(' / ')})`,
  );
  // The pipeline's event loop: busy (its work, and waiting for a core while busy) vs idle (waiting for blocks and commits).
  const elu = performance.eventLoopUtilization(eluAtStart);
  loopDelay.disable();
  const commits = (await commitSeconds()) - commitsAtStart;
  const delayMs = (ns: number) => (ns / 1e6).toFixed(0);
  console.log(
    `    the pipeline's event loop: utilization ${elu.utilization.toFixed(2)} (active ${(elu.active / 1000).toFixed(1)} s), its delay p50 / p99 / max ` +
      `${delayMs(loopDelay.percentile(50))} / ${delayMs(loopDelay.percentile(99))} / ${delayMs(loopDelay.max)} ms; the commits ${commits.toFixed(1)} s of the ${seconds.toFixed(1)} s`,
  );
  return { index, pool };
}

/**
 * Where an ingest's wall clock went: its start-up (the store's open, the TVM threads' start, the
 * first blocks fetched, prepared and committed: until the first commit) and the rest; and the
 * second half of the chain's masterchain blocks alone (from the commit that reached half of them to
 * the last), the steady state once every code of the chain was classified. The whole run's rate
 * stays the figure; these say how much of it the start-up is.
 */
class RunPhases {
  /** ms from the start to the first get-method answered (polled every 100 ms). */
  firstAnswerMs: number | undefined;
  private firstCommit: { ms: number; blocks: number; transactions: number; threadCpu: number } | undefined;
  private half: { ms: number; transactions: number; threadCpu: number } | undefined;
  private blocks = 0;
  private transactions = 0;

  constructor(
    private readonly started: number,
    private readonly head: number,
    private readonly threadAtStart: number,
  ) {}

  /** A committed masterchain block (the blocks of one commit arrive together). */
  committed(mcSeqno: number, transactions: number): void {
    const ms = performance.now() - this.started;
    this.blocks++;
    this.transactions += transactions;
    // The first commit's blocks all arrive within the same turn: taken when the next turn's block comes.
    if (!this.firstCommit || (this.blocks > 1 && ms - this.firstCommit.ms < 1)) {
      this.firstCommit = { ms: this.firstCommit?.ms ?? ms, blocks: this.blocks, transactions: this.transactions, threadCpu: mainThreadCpuSeconds() - this.threadAtStart };
    }
    if (!this.half && mcSeqno >= this.head / 2) this.half = { ms, transactions: this.transactions, threadCpu: mainThreadCpuSeconds() - this.threadAtStart };
  }

  text(transactions: number, seconds: number, threadCpu: number): string {
    const first = this.firstCommit;
    const half = this.half;
    if (!first || !half) return 'phases: n/a';
    const afterFirst = (transactions - first.transactions) / (seconds - first.ms / 1000);
    const halfSeconds = seconds - half.ms / 1000;
    const halfTx = transactions - half.transactions;
    return (
      `start-up: the first get-method answered at ${this.firstAnswerMs === undefined ? 'n/a' : (this.firstAnswerMs / 1000).toFixed(1)} s, the first commit at ${(first.ms / 1000).toFixed(1)} s ` +
      `(${first.blocks} mc blocks, ${first.transactions} transactions; the pipeline's thread ${first.threadCpu.toFixed(1)} CPU-s until then); after it ${afterFirst.toFixed(0)} tx/s; ` +
      `the second half of the mc blocks (${halfTx} transactions in ${halfSeconds.toFixed(1)} s): ${(halfTx / halfSeconds).toFixed(0)} tx/s, ` +
      `the pipeline's thread ${(((threadCpu - half.threadCpu) * 1000) / halfTx).toFixed(2)} ms a transaction`
    );
  }
}

/** The clock comparable across threads (ms): what the chain's thread stamps its seals with. */
function wallClockMs(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * Live: transfers at RATE per second over the lite protocol (liteServer.sendMessage, as a wallet
 * sends them; with --block-interval 0 each seals a block of its own, BENCH_INDEX_LIVE_BLOCK_MS > 0
 * gathers them into timed blocks) to the chain in its own thread, which reports each masterchain
 * block's seal time; the index commits in this thread. Seal to commit: the chain thread's stamp to
 * this thread's onBlock, on one clock (performance.timeOrigin + now()).
 */
async function live(thread: LocalnetThread, pool: LitePool, index: IndexService, bocs: readonly Buffer[]): Promise<void> {
  const sealedAt = new Map<number, number>();
  /** The chain thread's collector pauses (ms since it started) at each seal. */
  const gcAt = new Map<number, number>();
  /** The chain thread's full collections' pauses (ms since it started) and its heap (MB) at each seal. */
  const majorAt = new Map<number, number>();
  const heapAt = new Map<number, number>();
  /** The chain thread's collections between blocks so far, at each seal. */
  const quietAt = new Map<number, number>();
  /** Blocks over the target, for the slow-block lines: where the time went. */
  const slow: { seqno: number; ms: number }[] = [];
  const latencies: number[] = [];
  /** The seqno of each latency's block: which blocks the slowest were (the first after the catch-up?). */
  const order: number[] = [];
  /** Seal to commit of the blocks sealed during the warm-up (printed apart). */
  const warmup: number[] = [];
  let measuredFrom = Infinity;
  const offChain = thread.onSealed((seqno, at, gcMs, { majorGcMs, heapMb, quietCollections }) => {
    quietAt.set(seqno, quietCollections);
    sealedAt.set(seqno, at);
    gcAt.set(seqno, gcMs);
    majorAt.set(seqno, majorGcMs);
    heapAt.set(seqno, heapMb);
  });
  // When this thread's pool (the sender's) has each head proven: the index thread's own pool long-polls
  // and proves the same heads, so seal -> proven here is about the index's wait before it can fetch.
  const provenAt = new Map<number, number>();
  const onHead = (_server: number, info: { last: { seqno: number } }): void => {
    if (!provenAt.has(info.last.seqno)) provenAt.set(info.last.seqno, wallClockMs());
  };
  pool.heads.on('head', onHead);
  const offIndex = index.onBlock((block) => {
    const sealed = sealedAt.get(block.mcSeqno);
    if (sealed === undefined) return;
    const ms = wallClockMs() - sealed;
    if (ms > 300) slow.push({ seqno: block.mcSeqno, ms });
    if (sealed < measuredFrom) {
      warmup.push(ms);
      return;
    }
    latencies.push(ms);
    order.push(block.mcSeqno);
  });
  let cpuAtStart = process.cpuUsage();
  let chainLoopAtStart = thread.threadLoop();
  let indexLoopAtStart = performance.eventLoopUtilization();
  let gcAtStart: number | undefined;
  let majorAtStart: number | undefined;
  let heapAtStart: number | undefined;
  let quietAtStart: number | undefined;
  const started = Date.now();
  measuredFrom = wallClockMs() + LIVE_WARMUP_SECONDS * 1000;
  const end = started + (LIVE_WARMUP_SECONDS + LIVE_SECONDS) * 1000;
  let warmupSent: number | null = LIVE_WARMUP_SECONDS > 0 ? null : 0;
  let sent = 0;
  let refused = 0;
  let firstRefusal: string | undefined;
  const sends: Promise<void>[] = [];
  while (Date.now() < end) {
    // Paced by the clock, not by the answers: a slow answer does not lower the offered rate.
    const due = started + (sent * 1000) / RATE;
    if (Date.now() < due) {
      await sleep(due - Date.now());
      continue;
    }
    if (warmupSent === null && wallClockMs() >= measuredFrom) {
      warmupSent = sent;
      cpuAtStart = process.cpuUsage();
      chainLoopAtStart = thread.threadLoop();
      indexLoopAtStart = performance.eventLoopUtilization();
      gcAtStart = [...gcAt.values()].pop();
      majorAtStart = [...majorAt.values()].pop();
      heapAtStart = [...heapAt.values()].pop();
      quietAtStart = [...quietAt.values()].pop();
    }
    const boc = bocs[sent];
    if (!boc) break;
    sent++;
    sends.push(
      pool.broadcastMessage(boc, 1, Date.now() + 10_000).then(
        () => undefined,
        (err: unknown) => {
          refused++;
          firstRefusal ??= err instanceof Error ? err.message : String(err);
        },
      ),
    );
  }
  await Promise.all(sends);
  await sleep(3000);
  const cpu = process.cpuUsage(cpuAtStart);
  const chainLoop = thread.threadLoop(chainLoopAtStart);
  const indexLoop = performance.eventLoopUtilization(indexLoopAtStart);
  const gcWindow = ([...gcAt.values()].pop() ?? 0) - (gcAtStart ?? 0);
  const majorWindow = ([...majorAt.values()].pop() ?? 0) - (majorAtStart ?? 0);
  offChain();
  offIndex();
  pool.heads.off('head', onHead);
  const toProven = order.map((seqno) => (provenAt.get(seqno) ?? NaN) - (sealedAt.get(seqno) ?? NaN)).filter((ms) => Number.isFinite(ms));
  console.log(
    `  live (chain in its own thread${LIVE_BLOCK_MS > 0 ? `, a block every ${LIVE_BLOCK_MS} ms` : ', a block per transfer'}): ` +
      `warm-up ${LIVE_WARMUP_SECONDS} s (${warmupSent ?? sent} transfers, ${warmup.length} blocks, seal to commit max ${warmup.length ? Math.max(...warmup).toFixed(0) : '-'} ms, not counted); ` +
      `then ${sent - (warmupSent ?? sent)} transfers at ${((sent - (warmupSent ?? sent)) / LIVE_SECONDS).toFixed(1)}/s (${refused} refused${firstRefusal ? `, first: ${firstRefusal.slice(0, 120)}` : ''}), ${sealedAt.size} mc blocks sealed; ` +
      `seal to commit p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms over ${latencies.length} blocks ` +
      `(target p99 <= 300 ms; slowest: ${slowest(latencies, order)}); this thread's CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s; load ${loadavg()[0]!.toFixed(1)}`,
  );
  console.log(
    `    window: the chain's thread loop utilization ${chainLoop.utilization.toFixed(2)} (active ${(chainLoop.active / 1000).toFixed(1)} s), its collector's pauses ${(gcWindow / 1000).toFixed(2)} s ` +
      `(full collections ${(majorWindow / 1000).toFixed(2)} s; ${LIVE_QUIET_GC ? `${([...quietAt.values()].pop() ?? 0) - (quietAtStart ?? 0)} made between blocks` : 'left to V8'}), its heap ${heapAtStart ?? '-'} -> ${[...heapAt.values()].pop() ?? '-'} MB; ` +
      `the index's loop (this thread) ${indexLoop.utilization.toFixed(2)}; seal to head proven (the sender's pool) p50 ${percentile(toProven, 50).toFixed(0)} / p99 ${percentile(toProven, 99).toFixed(0)} ms`,
  );
  // Each block over the target: when it was sealed (s after the sends began), the gap since the
  // previous seal and the chain thread's collector pauses in that gap: a late seal or a paused chain
  // thread is the chain's side, a block sealed on time but committed late the index's.
  const startedAt = performance.timeOrigin + (started - Date.now()) + performance.now();
  console.log(
    `    blocks over 300 ms: ${slow
      .slice(0, 40)
      .map(({ seqno, ms }) => {
        const at = sealedAt.get(seqno) ?? NaN;
        const gap = at - (sealedAt.get(seqno - 1) ?? NaN);
        const gc = (gcAt.get(seqno) ?? NaN) - (gcAt.get(seqno - 1) ?? NaN);
        const major = (majorAt.get(seqno) ?? NaN) - (majorAt.get(seqno - 1) ?? NaN);
        // The collector after this seal (in the next gap): a full collection there holds the readers of this very block.
        const nextGc = (gcAt.get(seqno + 1) ?? NaN) - (gcAt.get(seqno) ?? NaN);
        const nextQuiet = (quietAt.get(seqno + 1) ?? NaN) - (quietAt.get(seqno) ?? NaN);
        return (
          `mc ${seqno} +${((at - startedAt) / 1000).toFixed(1)} s ${ms.toFixed(0)} ms (proven at +${((provenAt.get(seqno) ?? NaN) - at).toFixed(0)}, gap ${gap.toFixed(0)}, gc ${gc.toFixed(0)} of it full ${major.toFixed(0)}, heap ${heapAt.get(seqno) ?? '-'} MB; ` +
          `after it gc ${nextGc.toFixed(0)}, ${nextQuiet} collection(s) between blocks)`
        );
      })
      .join('; ')}`,
  );
}

/**
 * The live part's transfers, signed before its catch-up wait: signing (nacl in JavaScript, ~4 ms
 * each, 1 500 of them 6-8 s) is the senders' work, not the system's, and on the thread where the
 * index may run it would leave the index behind again when the sends begin.
 */
async function signedTransfers(): Promise<Buffer[]> {
  // The saved chain's wallets (its default mnemonic; v4r2 addresses do not depend on the global id).
  // Wallet #0 sent one transfer per round of the saved chain. One wallet with consecutive seqnos
  // is no cause of refusals: the chain executes each message when it arrives, so the next seqno is
  // the wallet's state by then.
  const wallets = await deriveLocalnetWallets(DEFAULT_LOCALNET_MNEMONIC, PER_BLOCK, 0);
  return Array.from({ length: Math.ceil(RATE * (LIVE_WARMUP_SECONDS + LIVE_SECONDS)) + 1 }, (_, i) => transferBoc(wallets, 0, ROUNDS + i));
}

/** The three slowest latencies as `ms@position/count` (position 1 = the first block measured). */
function slowest(latencies: readonly number[], order: readonly number[]): string {
  return latencies
    .map((ms, i) => ({ ms, i }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 3)
    .map(({ ms, i }) => `${ms.toFixed(0)} ms at block ${i + 1}/${latencies.length} (mc ${order[i]})`)
    .join(', ');
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * One start of `npm start`'s command: ms from the spawn to the first healthcheck 200, then (when
 * `restSeconds` > 0) the process's RSS that long after, MB, and the healthcheck's index state.
 */
async function startOnce(flags: string[], restSeconds: number): Promise<{ healthyMs: number; rssMb: number | null; index: string }> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'ton-http-bridge.js'), '--port', String(port), '--metrics-port', '0', '--log-level', 'warn', ...flags], {
    cwd: ROOT,
    env: npmStartEnv(),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    let healthyMs: number | null = null;
    while (healthyMs === null) {
      if (performance.now() - started > 60_000) throw new Error('no healthcheck 200 within 60 s');
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode})`);
      const ok = await fetch(`http://127.0.0.1:${port}/api/v2/healthcheck`).then(
        (res) => res.status === 200,
        () => false,
      );
      if (ok) healthyMs = performance.now() - started;
      else await sleep(25);
    }
    let rss: number | null = null;
    let index = '';
    if (restSeconds > 0) {
      await sleep(restSeconds * 1000);
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      rss = Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024);
      const health = (await (await fetch(`http://127.0.0.1:${port}/api/v2/healthcheck`)).json()) as { result: { index: { state: string; committed_mc_seqno: number | null } | null } };
      index = health.result.index ? `${health.result.index.state} at mc ${health.result.index.committed_mc_seqno}` : 'off';
    }
    return { healthyMs, rssMb: rss, index };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

async function startFigures(): Promise<void> {
  for (const [label, flags] of [
    ['index on (default)', []],
    ['--index off', ['--index', 'off']],
  ] as const) {
    const times: number[] = [];
    for (let run = 0; run < START_RUNS; run++) times.push((await startOnce([...flags], 0)).healthyMs);
    const rest = await startOnce([...flags], REST_SECONDS);
    console.log(
      `  npm start, ${label}: healthy in ${times.map((t) => (t / 1000).toFixed(2)).join(' / ')} s (median ${(percentile(times, 50) / 1000).toFixed(2)} s, target < 3 s); ` +
        `RSS after ${REST_SECONDS} s ${rest.rssMb} MB (index: ${rest.index}); load ${loadavg()[0]!.toFixed(1)}`,
    );
  }
}

/**
 * Issue 24's ingest: the saved chain with a jetton transfer in every tenth trace, from genesis into
 * PostgreSQL (token detection and action classification on, as by default): transactions per
 * second (target >= 1 500) and traces classified per second (the traces with actions written).
 */
async function jettonIngest(): Promise<void> {
  const net = await threadChain(JETTON_TRANSFERS, PER_BLOCK, 10, 0, 0);
  try {
    await withDatabase(async (url) => {
      const started = performance.now();
      const { index, pool } = await ingest(net, 'PostgreSQL, a jetton transfer in every tenth trace', ['--database-url', url]);
      const seconds = (performance.now() - started) / 1000;
      const { rows } = await index.store.pool.query<{ traces: string; jettons: string }>(
        `select count(distinct trace_id) as traces, count(*) filter (where type = 'jetton_transfer') as jettons from actions`,
      );
      console.log(
        `    classified: ${rows[0]!.traces} traces with actions (${(Number(rows[0]!.traces) / seconds).toFixed(0)} traces/s over the whole ingest), ` +
          `${rows[0]!.jettons} jetton_transfer actions`,
      );
      await index.stop();
      pool.close();
    });
  } finally {
    await net.stop();
  }
}

/**
 * The environment `npm start` gives the server: the `NAME=value` words before `node` in
 * package.json's start script (glibc's malloc settings, docs/operations.md), so that the figures
 * of a spawned server are those of `npm start`.
 */
function npmStartEnv(): NodeJS.ProcessEnv {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const env = { ...process.env };
  for (const word of pkg.scripts.start.split(/\s+/)) {
    const assignment = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(word);
    if (!assignment) break;
    env[assignment[1]!] = assignment[2]!;
  }
  return env;
}

/** VmRSS of process `pid`, MB. */
/**
 * The scheduler's account of thread `tid` of process `pid` (/proc/<pid>/task/<tid>/schedstat): ns
 * on a CPU, ns runnable but waiting for one, time slices. What the API's thread waited for a core
 * (the machine's other busy threads) apart from what it ran (its own work). Null where there is no /proc.
 */
function threadSchedstat(pid: number, tid = pid): { runNs: number; waitNs: number; slices: number } | null {
  try {
    const [run, wait, slices] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').trim().split(' ').map(Number);
    return { runNs: run!, waitNs: wait!, slices: slices! };
  } catch {
    return null;
  }
}

/** CPU clock ticks (10 ms) of each thread of process `pid` (utime + stime), by thread id. */
function threadCpuTicks(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        out.set(Number(tid), Number(fields[11]) + Number(fields[12]));
      } catch {
        // ended meanwhile
      }
    }
  } catch {
    // no /proc
  }
  return out;
}

/** `after` minus `before` of threadSchedstat, printed: CPU-s, waited s, mean wait per slice. */
function schedstatText(before: ReturnType<typeof threadSchedstat>, after: ReturnType<typeof threadSchedstat>, seconds: number): string {
  if (!before || !after) return 'n/a';
  const run = (after.runNs - before.runNs) / 1e9;
  const wait = (after.waitNs - before.waitNs) / 1e9;
  const slices = after.slices - before.slices;
  return `${run.toFixed(2)} CPU-s (${((run / seconds) * 100).toFixed(0)} %), waited for a core ${wait.toFixed(2)} s, ${slices} slices, ${((wait / Math.max(1, slices)) * 1000).toFixed(2)} ms a slice`;
}

/**
 * Where one getMasterchainInfo's time went, from the kernel's counters of the two threads that
 * handle it (/proc/<pid>/task/<tid>/schedstat, read just outside the timed request): the API's
 * thread running, the API's thread waiting for a core, and this bench's own thread waiting for one.
 */
interface RequestAttribution {
  readonly at: number;
  readonly latencyMs: number;
  readonly apiRunMs: number;
  readonly apiWaitMs: number;
  readonly clientWaitMs: number;
}

/**
 * getMasterchainInfo answered one after another for `ms` (or until `stop()`): each answer's ms, and
 * with `attribution` where each one's time went.
 */
async function masterchainInfoLatencies(
  port: number,
  ms: number,
  stop: () => boolean = () => false,
  attribution?: { apiPid: number; samples: RequestAttribution[] },
): Promise<number[]> {
  const latencies: number[] = [];
  const end = performance.now() + ms;
  while (performance.now() < end && !stop()) {
    const apiBefore = attribution ? threadSchedstat(attribution.apiPid) : null;
    const clientBefore = attribution ? threadSchedstat(process.pid) : null;
    const started = performance.now();
    const res = await fetch(`http://127.0.0.1:${port}/api/v2/getMasterchainInfo`);
    await res.arrayBuffer();
    const latency = performance.now() - started;
    if (res.status === 200) {
      latencies.push(latency);
      if (attribution) {
        // Without /proc (not Linux) the counters read as 0: each request's time is then all "the rest".
        const apiAfter = threadSchedstat(attribution.apiPid);
        const clientAfter = threadSchedstat(process.pid);
        const ms = (after: number | undefined, before: number | undefined) => (after ?? 0) / 1e6 - (before ?? 0) / 1e6;
        attribution.samples.push({
          at: started,
          latencyMs: latency,
          apiRunMs: ms(apiAfter?.runNs, apiBefore?.runNs),
          apiWaitMs: ms(apiAfter?.waitNs, apiBefore?.waitNs),
          clientWaitMs: ms(clientAfter?.waitNs, clientBefore?.waitNs),
        });
      }
    }
    await sleep(10);
  }
  return latencies;
}

/**
 * The slowest 1 % of `samples` (at or above their p99) and where their time went, on average, against
 * the other 99 %: the API's thread running (its own work, its collector), the API's thread waiting
 * for a core, the client's thread waiting for one. Not a sum: the client may wait while the API runs.
 */
function attributionText(samples: readonly RequestAttribution[]): string {
  if (samples.length === 0) return 'no samples';
  const p99 = percentile(samples.map((s) => s.latencyMs), 99);
  const mean = (group: readonly RequestAttribution[], key: keyof RequestAttribution): number =>
    group.length === 0 ? 0 : group.reduce((sum, s) => sum + s[key], 0) / group.length;
  const describe = (group: readonly RequestAttribution[]): string =>
    `${mean(group, 'latencyMs').toFixed(2)} ms: the API running ${mean(group, 'apiRunMs').toFixed(2)}, the API waiting for a core ${mean(group, 'apiWaitMs').toFixed(2)}, ` +
    `the client waiting for one ${mean(group, 'clientWaitMs').toFixed(2)} (${group.length}; the parts overlap where two happen at once)`;
  const tail = samples.filter((s) => s.latencyMs >= p99);
  const rest = samples.filter((s) => s.latencyMs < p99);
  return `p99 without the client's own wait ${apiSideP99(samples).toFixed(1)} ms; slowest 1 % ${describe(tail)}; the rest ${describe(rest)}`;
}

/**
 * The p99 of each request's latency less the time the client's own thread waited for a core in it:
 * what a client with a core of its own (any client on another machine) would see of the same API.
 */
function apiSideP99(samples: readonly RequestAttribution[]): number {
  return percentile(
    samples.map((s) => Math.max(0, s.latencyMs - s.clientWaitMs)),
    99,
  );
}

/** The chain of parts 4 and 6: its file and its masterchain blocks. */
async function catchUpChain(): Promise<{ source: string; blocks: number; every: number }> {
  const blocks = Number(process.env['BENCH_INDEX_RSS_BLOCKS'] ?? 10_000);
  // BENCH_INDEX_RSS_EVERY N: a transfer in every Nth block, the others empty (10 000 blocks of a
  // transfer each take long to make; empty ones seal in ms). Default 1: a transfer in each.
  const every = Math.max(1, Number(process.env['BENCH_INDEX_RSS_EVERY'] ?? 1));
  return { source: await savedChainFile(Math.ceil(blocks / every), 1, 0, 0, 0, every - 1), blocks, every };
}

/** Part 6: the indexing process alone, over the chain of part 4. */
async function indexProcessFigures(): Promise<void> {
  const { source, blocks } = await catchUpChain();
  await withDatabase((url) =>
    indexProcessRss({ chainFile: source, blocks, databaseUrl: url, root: ROOT, env: npmStartEnv(), dir: path.join(ROOT, '.cache', `bench-index-process-${process.pid}`) }),
  );
}

/** The served API's command line (npm start's, the chain restored from `stateFile` and still): parts 4 and 4b. */
function servedArgs(port: number, stateFile: string, index: string[]): string[] {
  return [path.join(ROOT, 'bin', 'ton-http-bridge.js'), '--port', String(port), '--metrics-port', '0', '--log-level', 'warn', '--state-file', stateFile, '--save-interval', '0',
    '--keep-blocks', '100000000', '--block-interval', '3600000', ...index, '--cache-size', '0', '--keyless-rps', '0'];
}

/**
 * One of part 4's idles: the same command on a copy of the same chain with `--index off`,
 * getMasterchainInfo answered for 30 s once the process is quiet: the API with no index at all.
 * Measured minutes before the catch-up, in another process; its p99 has ranged 1.2-20 ms from run
 * to run with the build unchanged, so part 4's figure divides by the idle inside the catch-up.
 */
async function idleWithIndexOff(
  source: string,
  dir: string,
): Promise<{ latencies: number[]; attribution: RequestAttribution[]; schedstat: string; postgresCpu: number }> {
  const stateFile = path.join(dir, 'idle.state');
  copyFileSync(source, stateFile);
  const port = await freePort();
  const child = spawn(process.execPath, servedArgs(port, stateFile, ['--index', 'off']), { cwd: ROOT, env: npmStartEnv(), stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    let healthy = false;
    for (let i = 0; i < 1200 && !healthy; i++) {
      const res = await fetch(`http://127.0.0.1:${port}/api/v2/healthcheck`).catch(() => null);
      healthy = res?.status === 200;
      if (res) await res.arrayBuffer();
      if (!healthy) await sleep(50);
    }
    if (!healthy) throw new Error('the served process (index off) never became healthy');
    // Warm-up, then until the process is quiet: a chain restored from a large file collects its
    // heap for seconds after it serves (its thread and V8's), which is start-up, not idle.
    await masterchainInfoLatencies(port, 5_000);
    const quietFrom = performance.now();
    for (let last = processCpuSeconds(child.pid!); performance.now() - quietFrom < 60_000; ) {
      await sleep(2_000);
      const now = processCpuSeconds(child.pid!);
      if (now - last < 0.2) break;
      last = now;
    }
    console.log(`    idle baseline (index off): quiet ${((performance.now() - quietFrom) / 1000).toFixed(0)} s after the warm-up`);
    const before = threadSchedstat(child.pid!);
    const postgresBefore = postgresCpuSeconds();
    const started = performance.now();
    const attribution = { apiPid: child.pid!, samples: [] as RequestAttribution[] };
    const latencies = await masterchainInfoLatencies(port, 30_000, undefined, attribution);
    return {
      latencies,
      attribution: attribution.samples,
      schedstat: schedstatText(before, threadSchedstat(child.pid!), (performance.now() - started) / 1000),
      postgresCpu: postgresCpuSeconds() - postgresBefore,
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(stateFile, { force: true });
  }
}

/** A stretch of the served catch-up in which the index was held (pauseIndexNowAndThen). */
interface Pause {
  readonly from: number;
  readonly to: number;
}

/**
 * Holds the index now and then while it catches up: every `runMs` it takes the index checkpoint's
 * row lock from a connection of its own for `pauseMs` (the pipeline's next commit waits on it and,
 * yielding to the API's requests, it fetches nothing meanwhile), so that idle is measured in the
 * same process and the same minutes as the catch-up, where this machine's own noise (the idle p99
 * of one build has ranged 1.2-20 ms from run to run) is the same for both.
 */
async function pauseIndexNowAndThen(url: string, done: () => boolean, pauses: Pause[], runMs: number, pauseMs: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (;;) {
      const resumeAt = performance.now() + runMs;
      while (!done() && performance.now() < resumeAt) await sleep(100);
      if (done()) return;
      await client.query('begin');
      const held = await client.query('select 1 from index_checkpoint where id = 1 for update');
      if (held.rowCount !== 1) {
        await client.query('rollback');
        continue; // nothing committed yet
      }
      const from = performance.now();
      await sleep(pauseMs);
      pauses.push({ from, to: performance.now() });
      await client.query('commit');
    }
  } finally {
    await client.end();
  }
}

/**
 * The served catch-up: `npm start`'s command on a copy of a saved chain of BENCH_INDEX_RSS_BLOCKS
 * masterchain blocks (one transfer of 7 transactions in each, or in every BENCH_INDEX_RSS_EVERY-th),
 * the index into PostgreSQL catching up from genesis in the very process that serves the API (in
 * its index thread). Printed: the process's RSS at the start,
 * middle and end of the catch-up (flat: nothing grows with the blocks indexed), and v2
 * getMasterchainInfo's p50/p99 from one client while it catches up, against idle three times: the
 * same command with the index off, this process after the catch-up, and this process inside the
 * catch-up while the index is held (pauseIndexNowAndThen; target: p99 during ingest within 2x
 * idle). The figure is the ratio against idle inside the catch-up: the same process and the same
 * minutes, so the machine's own noise divides out; the other two are printed beside it.
 */
async function servedCatchUp(): Promise<void> {
  const { source, blocks, every } = await catchUpChain();
  const dir = path.join(ROOT, '.cache', `bench-index-served-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const stateFile = path.join(dir, 'chain.state');
  copyFileSync(source, stateFile);
  try {
    const baseline = await idleWithIndexOff(source, dir);
    await withDatabase(async (url) => {
      const port = await freePort();
      const child = spawn(
        process.execPath,
        servedArgs(port, stateFile, ['--database-url', url]),
        { cwd: ROOT, env: npmStartEnv(), stdio: ['ignore', 'ignore', 'inherit'] },
      );
      try {
        const health = async () => {
          const res = await fetch(`http://127.0.0.1:${port}/api/v2/healthcheck`).catch(() => null);
          if (!res || res.status !== 200) return null;
          return ((await res.json()) as { result: { index: { committed_mc_seqno: number | null; head_mc_seqno: number | null } } }).result.index;
        };
        let index = await health();
        for (let i = 0; i < 1200 && !index; i++) {
          await sleep(50);
          index = await health();
        }
        if (!index) throw new Error('the served process never became healthy');
        const rss: number[] = [processRssMb(child.pid!)];
        let head = index.head_mc_seqno ?? blocks;
        let committed = index.committed_mc_seqno ?? 0;
        let middle = false;
        let caughtUp = false;
        const started = performance.now();
        const apiBefore = threadSchedstat(child.pid!);
        const threadsBefore = threadCpuTicks(child.pid!);
        const postgresBefore = postgresCpuSeconds();
        const duringAttribution = { apiPid: child.pid!, samples: [] as RequestAttribution[] };
        const during = masterchainInfoLatencies(port, 3_600_000, () => caughtUp, duringAttribution);
        const pauses: Pause[] = [];
        const pausing = SERVED_HOLDS ? pauseIndexNowAndThen(url, () => caughtUp, pauses, SERVED_HOLD_EVERY_MS, SERVED_HOLD_MS) : Promise.resolve();
        while (!caughtUp) {
          await sleep(500);
          const now = await health();
          head = now?.head_mc_seqno ?? head;
          committed = now?.committed_mc_seqno ?? committed;
          if (!middle && committed >= head / 2) {
            middle = true;
            rss.push(processRssMb(child.pid!));
          }
          caughtUp = committed >= head && head >= blocks;
        }
        const seconds = (performance.now() - started) / 1000;
        rss.push(processRssMb(child.pid!));
        await during;
        await pausing;
        // Requests sent in a pause's first SETTLE_MS (the work in flight when it began) count as neither.
        const SETTLE_MS = 750;
        const busySamples = duringAttribution.samples.filter((s) => !pauses.some((p) => s.at >= p.from && s.at < p.to));
        const pausedSamples = duringAttribution.samples.filter((s) => pauses.some((p) => s.at >= p.from + SETTLE_MS && s.at < p.to));
        const busy = busySamples.map((s) => s.latencyMs);
        const pausedIdle = pausedSamples.map((s) => s.latencyMs);
        const apiDuring = threadSchedstat(child.pid!);
        const postgresDuring = postgresCpuSeconds() - postgresBefore;
        const threadsAfter = threadCpuTicks(child.pid!);
        const busiest = [...threadsAfter]
          .map(([tid, ticks]) => [tid, (ticks - (threadsBefore.get(tid) ?? 0)) / 100] as const)
          .sort((a, b) => b[1] - a[1])
          .slice(0, 5)
          .map(([tid, cpu]) => `${tid === child.pid ? 'API' : tid} ${cpu.toFixed(1)}`);
        const idleStarted = performance.now();
        const postgresAfterStarted = postgresCpuSeconds();
        const afterAttribution = { apiPid: child.pid!, samples: [] as RequestAttribution[] };
        const after = await masterchainInfoLatencies(port, Math.min(30_000, seconds * 1000), undefined, afterAttribution);
        const apiIdle = threadSchedstat(child.pid!);
        const postgresAfter = postgresCpuSeconds() - postgresAfterStarted;
        console.log(`    CPU-s during the catch-up: the process's busiest threads ${busiest.join(', ')}; PostgreSQL's processes ${postgresDuring.toFixed(1)}`);
        console.log(`    the API's thread idle with the index off (before): ${baseline.schedstat}; PostgreSQL's processes ${baseline.postgresCpu.toFixed(1)} CPU-s`);
        console.log(`    the API's thread during the catch-up: ${schedstatText(apiBefore, apiDuring, seconds)}`);
        console.log(
          `    the API's thread after it, the index at the head: ${schedstatText(apiDuring, apiIdle, (performance.now() - idleStarted) / 1000)}; PostgreSQL's processes ${postgresAfter.toFixed(1)} CPU-s; ` +
            `getMasterchainInfo p50/p99 ${percentile(after, 50).toFixed(1)} / ${percentile(after, 99).toFixed(1)} ms (${after.length})`,
        );
        const idle = baseline.latencies;
        const p99Busy = percentile(busy, 99);
        const p99Idle = percentile(idle, 99);
        const p99After = percentile(after, 99);
        const p99Paused = percentile(pausedIdle, 99);
        console.log(`    where getMasterchainInfo's time went, during the catch-up: ${attributionText(busySamples)}`);
        if (SERVED_HOLDS) console.log(`      idle inside it: ${attributionText(pausedSamples)}`);
        console.log(`      idle with the index off: ${attributionText(baseline.attribution)}`);
        console.log(`      idle after it: ${attributionText(afterAttribution.samples)}`);
        if (SERVED_HOLDS) {
          const apiSideDuring = apiSideP99(busySamples);
          const apiSideInside = apiSideP99(pausedSamples);
          console.log(
            `    without the client's own waits for a core: p99 during ${apiSideDuring.toFixed(1)} ms, idle inside ${apiSideInside.toFixed(1)} ms: ${(apiSideDuring / apiSideInside).toFixed(2)}x`,
          );
          const holds = `the index held ${pauses.length} times for ${SERVED_HOLD_MS / 1000} s, every ${SERVED_HOLD_EVERY_MS / 1000} s`;
          console.log(
            `    idle inside the catch-up (${holds}): getMasterchainInfo p50/p99 ${percentile(pausedIdle, 50).toFixed(1)} / ${p99Paused.toFixed(1)} ms (${pausedIdle.length}); ` +
              `during, outside the pauses ${percentile(busy, 50).toFixed(1)} / ${p99Busy.toFixed(1)} ms (${busy.length}): ${(p99Busy / p99Paused).toFixed(2)}x (target <= 2x)`,
          );
        }
        const figure = SERVED_HOLDS
          ? `against idle inside it (the figure) ${(p99Busy / p99Paused).toFixed(2)}x (target <= 2x)`
          : `no idle inside it (BENCH_INDEX_SERVED_HOLDS=0: the index never held)`;
        console.log(
          `  served catch-up (npm start, PostgreSQL${every > 1 ? `, a transfer every ${every} blocks` : ''}): ${head} mc blocks in ${seconds.toFixed(0)} s; RSS start/middle/end ${rss.join(' / ')} MB; ` +
            `getMasterchainInfo p50/p99 during ingest ${percentile(busy, 50).toFixed(1)} / ${p99Busy.toFixed(1)} ms (${busy.length}), idle with the index off ` +
            `${percentile(idle, 50).toFixed(1)} / ${p99Idle.toFixed(1)} ms (${idle.length}): ${(p99Busy / p99Idle).toFixed(2)}x, against after it ${(p99Busy / p99After).toFixed(2)}x, ` +
            `${figure}; load ${loadavg()[0]!.toFixed(1)}`,
        );
      } finally {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Part 4b (`BENCH_INDEX_ONLY=served-apart`): part 4's catch-up with the index in a process of its
 * own, as an operator can run it: the API (`npm start`'s command with `--index off`, the chain in
 * its thread) and `ton-http-bridge index` reading that chain's lite server, started in a session
 * of its own (so, on Linux with autogroups, a scheduling group of its own) whose group's nice is
 * BENCH_INDEX_APART_NICE (default 10, written to /proc/<pid>/autogroup). The same figures as part 4:
 * getMasterchainInfo p99 during the catch-up against idle.
 */
async function servedApartCatchUp(): Promise<void> {
  const { source, blocks } = await catchUpChain();
  const groupNice = Number(process.env['BENCH_INDEX_APART_NICE'] ?? 10);
  const dir = path.join(ROOT, '.cache', `bench-index-apart-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const stateFile = path.join(dir, 'chain.state');
  const configFile = path.join(dir, 'global.config.json');
  copyFileSync(source, stateFile);
  const bin = path.join(ROOT, 'bin', 'ton-http-bridge.js');
  try {
    await withDatabase(async (url) => {
      const port = await freePort();
      const api = spawn(
        process.execPath,
        servedArgs(port, stateFile, ['--index', 'off']),
        { cwd: ROOT, env: npmStartEnv(), stdio: ['ignore', 'ignore', 'inherit'] },
      );
      let indexer: ReturnType<typeof spawn> | undefined;
      try {
        let config: string | null = null;
        for (let i = 0; i < 1200 && !config; i++) {
          const res = await fetch(`http://127.0.0.1:${port}/localnet/global.config.json`).catch(() => null);
          config = res && res.status === 200 ? await res.text() : null;
          if (!config) await sleep(50);
        }
        if (!config) throw new Error('the API never served its chain\'s global config');
        writeFileSync(configFile, config);
        const metricsPort = await freePort();
        indexer = spawn(
          process.execPath,
          [bin, 'index', '--network', 'local', '--liteservers', configFile, '--database-url', url, '--metrics-port', String(metricsPort), '--log-level', 'warn'],
          // detached: setsid(), a session and so an autogroup of its own.
          { cwd: ROOT, env: npmStartEnv(), stdio: ['ignore', 'ignore', 'inherit'], detached: true },
        );
        let niced = 'not set';
        try {
          writeFileSync(`/proc/${indexer.pid}/autogroup`, String(groupNice));
          niced = readFileSync(`/proc/${indexer.pid}/autogroup`, 'utf8').trim();
        } catch (err) {
          niced = `not set (${err instanceof Error ? err.message : String(err)})`;
        }
        const started = performance.now();
        let caughtUp = false;
        const apiBefore = threadSchedstat(api.pid!);
        const during = masterchainInfoLatencies(port, 3_600_000, () => caughtUp);
        let committed = 0;
        while (!caughtUp) {
          await sleep(500);
          if (indexer.exitCode !== null) throw new Error(`the indexer exited (${indexer.exitCode})`);
          committed = (await committedSeqno(metricsPort)) ?? committed;
          caughtUp = committed >= blocks;
        }
        const seconds = (performance.now() - started) / 1000;
        const busy = await during;
        const apiDuring = threadSchedstat(api.pid!);
        const idleStarted = performance.now();
        const idle = await masterchainInfoLatencies(port, Math.min(30_000, seconds * 1000));
        const apiIdle = threadSchedstat(api.pid!);
        console.log(`    the API's thread during the catch-up: ${schedstatText(apiBefore, apiDuring, seconds)}; idle: ${schedstatText(apiDuring, apiIdle, (performance.now() - idleStarted) / 1000)}`);
        const p99Busy = percentile(busy, 99);
        const p99Idle = percentile(idle, 99);
        console.log(
          `  served catch-up, the index in its own process (autogroup ${niced}): ${committed} mc blocks in ${seconds.toFixed(0)} s; ` +
            `getMasterchainInfo p50/p99 during ingest ${percentile(busy, 50).toFixed(1)} / ${p99Busy.toFixed(1)} ms (${busy.length}), idle ` +
            `${percentile(idle, 50).toFixed(1)} / ${p99Idle.toFixed(1)} ms (${idle.length}): ${(p99Busy / p99Idle).toFixed(2)}x (target <= 2x); load ${loadavg()[0]!.toFixed(1)}`,
        );
      } finally {
        if (indexer && indexer.exitCode === null) {
          indexer.kill('SIGTERM');
          await new Promise((resolve) => indexer!.once('exit', resolve));
        }
        api.kill('SIGTERM');
        await new Promise((resolve) => api.once('exit', resolve));
      }
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runIndexBench(): Promise<void> {
  console.log(`index bench (${cpus().length} cores, load ${loadavg().map((l) => l.toFixed(1)).join(' ')})`);
  const only = process.env['BENCH_INDEX_ONLY'];
  if (only === 'chains') {
    // Only make the saved chains (not a measurement: it may run outside the bench lock).
    await savedChainFile(TRANSFERS, PER_BLOCK, 0, WIDE, WIDE_TRANSFERS);
    await savedChainFile(JETTON_TRANSFERS, PER_BLOCK, 10, 0, 0);
    return;
  }
  // `ingest`: parts 1 and 2 only (PostgreSQL ingest, live, PGlite ingest).
  if (!only || only === 'start') await startFigures();
  if (process.env['BENCH_INDEX_ONLY'] === 'start') return;
  if (!only || only === 'served') await servedCatchUp();
  if (process.env['BENCH_INDEX_ONLY'] === 'served') return;
  if (only === 'served-apart') {
    await servedApartCatchUp();
    return;
  }
  if (!only || only === 'indexer') await indexProcessFigures();
  if (process.env['BENCH_INDEX_ONLY'] === 'indexer') return;
  if (!only || only === 'jetton') await jettonIngest();
  if (process.env['BENCH_INDEX_ONLY'] === 'jetton') return;
  await withDatabase(async (url) => {
    // `ingest-pglite`: only the PGlite ingest (below).
    if (only === 'ingest-pglite') return;
    // `live`: only the live part (its index first catches up on the saved chain, not timed).
    if (only !== 'live') {
      const served = await threadChain();
      try {
        const { index, pool } = await ingest(served, 'PostgreSQL', ['--database-url', url]);
        await index.stop();
        pool.close();
      } finally {
        await served.stop();
      }
    }
    if (process.env['BENCH_INDEX_ONLY'] === 'ingest-pg') return;
    // Live: the chain in its own thread (as npm start runs it), on a copy of the same saved chain:
    // the index resumes at its head and follows the new blocks; the thread reports each seal.
    const scratch = scratchCopy(await savedChainFile(TRANSFERS, PER_BLOCK, 0, WIDE, WIDE_TRANSFERS), 'live');
    if (LIVE_HEAP_POLICY === 'serving') useServingHeapPolicy();
    const threadStart = performance.now();
    const thread = await LocalnetThread.start(
      { accounts: PER_BLOCK, blockIntervalMs: LIVE_BLOCK_MS, keepBlocks: 100_000_000, shards: 2, stateFile: scratch.file, saveIntervalSec: 0, reportSeals: true, quietCollections: LIVE_QUIET_GC },
      'silent',
      logger,
    );
    const collected = thread.startCollection;
    console.log(
      `  live: the chain's thread up in ${((performance.now() - threadStart) / 1000).toFixed(1)} s (heap policy ${LIVE_HEAP_POLICY === 'serving' ? "the API's, 1.3x" : "V8's"}); ` +
        (collected ? `its full collection after the restore ${collected.ms} ms, heap ${collected.heapBeforeMb} -> ${collected.heapAfterMb} MB` : 'no full collection after the restore'),
    );
    try {
      const pool = poolOf(thread);
      await pool.start();
      const from = LIVE_CATCHUP ? [] : ['--index-from', String((await thread.status()).seqno)];
      const { config } = loadConfig(['--index', 'on', '--database-url', url, ...from], {});
      let index: IndexService;
      if (LIVE_INDEX === 'thread') {
        // As src/server.ts starts it: Node's platform threads at the index thread's nice too.
        lowerNodeThreads(LIVE_PLATFORM_NICE);
        const servers = parseGlobalConfig(thread.globalConfig, 'local chain').map((s) => ({ ...s, archival: true }));
        index = await startIndexThread(config, { servers, anchor: trustAnchorOf(thread.globalConfig, 'local chain', undefined) }, logger, true);
      } else {
        index = await startIndex(config, pool, logger, true);
      }
      console.log(`  live: the index in ${LIVE_INDEX === 'thread' ? 'its own thread (as npm start)' : "the bench's main thread"}${LIVE_CATCHUP ? '' : ', from the head (no catch-up)'}`);
      // Caught up means at the chain's head as it is now, not as it was when the catch-up began:
      // the chain seals a block every LIVE_BLOCK_MS meanwhile (a 2-minute catch-up leaves ~300
      // empty blocks behind it), and those were the "8-17 s stall when the sends begin" (26
      // November): the index still catching up, not a live block's seal to commit.
      const bocs = await signedTransfers();
      const caughtUpAt = performance.now();
      let behind = Infinity;
      while (behind > 1 && performance.now() - caughtUpAt < 900_000) {
        await sleep(100);
        behind = (await thread.status()).seqno - (index.health().status.committedMcSeqno ?? 0);
      }
      console.log(`  live: the index ${behind} block(s) behind the chain's head (${(await thread.status()).seqno}) after ${((performance.now() - caughtUpAt) / 1000).toFixed(1)} s of catch-up`);
      await live(thread, pool, index, bocs);
      await index.stop();
      pool.close();
    } finally {
      await thread.stop();
      scratch.remove();
    }
  });
  if (only === 'ingest-pg' || only === 'live') return;
  const served = await threadChain();
  try {
    const { index, pool } = await ingest(served, 'PGlite (in memory)', []);
    await index.stop();
    pool.close();
  } finally {
    await served.stop();
  }
}
