/**
 * `npm run bench -- v3`: toncenter's indexed v3 routes over a PostgreSQL index of >= 100 000
 * transactions made on the embedded chain.
 *
 * The fill is made once and kept (see `fill`): the API as `npm start` runs it, its chain sealing a
 * block per round at the bench's POST /localnet/mine, its index following into the database
 * `bench_v3` (BENCH_PG_URL names the server) as the blocks are made; the transfers go through v2's
 * sendBoc. Each round: wallet v5r1 #0 sends one transfer of WIDE_MESSAGES messages, wallet v4r2 #0
 * TRANSFERS_PER_ROUND of four (one account with a deep history), wallet v4r2 #1 one of three (a
 * 4-transaction trace); the receivers are 1 024 fixed accounts in either shard. The chain keeps
 * only its last FILL_KEEP_BLOCKS blocks (the index has read the older ones) and is saved to
 * `.cache/` on exit. A rerun whose database holds the saved chain's head skips the fill.
 *
 * Then the API runs with its response cache off (`--cache-size 0`), and autocannon drives each
 * figure with 50 connections for SECONDS s, every request with other parameters (another account,
 * message, trace or offset), so no cache of any kind answers the same request twice. Last, every
 * route with the largest values a client may send (offset MAX_OFFSET, limit 1 000, the widest ranges,
 * as many addresses as a URL holds), one at a time, three times each: the slowest of the three.
 * Last, `transactionsByMessage`, `traces` and `blocks` again with v3's cache at the index head on,
 * the head moving for real (`headCached`: a copy of the fill whose chain seals a block every
 * 400 ms), with the hit ratio; `transactions?account=` stays the uncached figure.
 *
 * Targets (issue 23): transactions?account p99 <= 20 ms, transactionsByMessage p99 <= 10 ms,
 * traces?tx_hash (4 transactions) p99 <= 20 ms, blocks?workchain=0&limit=100&sort=desc p99 <= 20 ms,
 * every largest request answered or refused in <= 100 ms. Each figure is also given as PostgreSQL's
 * own time for one such request: every statement the route sends, under EXPLAIN ANALYZE, summed
 * (`pg ms/statements`), which the machine's load touches less.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { Worker } from 'node:worker_threads';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { createHash, createPrivateKey, sign, type KeyObject } from 'node:crypto';
import { mnemonicToPrivateKey } from '@ton/crypto';
import { Address, beginCell, Cell, external, internal, SendMode, storeMessage, toNano } from '@ton/core';
import { WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import autocannon from 'autocannon';
import pg from 'pg';
import { DEFAULT_LOCALNET_MNEMONIC, V4R2_BASE_SUBWALLET_ID } from '../src/localnet';
import { V3_ROUTES, type V3Database } from '../src/v3';
import { V3Query } from '../src/v3/params/query';
import { MAX_LIMIT, MAX_OFFSET } from '../src/v3/params/rules';
import { freePort } from '../test/helpers/waiting';

const ROUNDS = Number(process.env['BENCH_V3_ROUNDS'] ?? 340);
/** Each round: wallet v5r1 #0 sends one transfer of this many messages (v5r1 takes up to 255). */
const WIDE_MESSAGES = 250;
/** Each round: wallet v4r2 #0 sends this many transfers of four messages (its deep history). */
const TRANSFERS_PER_ROUND = 10;
/** Transactions a round makes: the wide transfer and its receivers, the deep wallet's transfers and theirs, the 4-transaction trace. */
const TX_PER_ROUND = 1 + WIDE_MESSAGES + TRANSFERS_PER_ROUND * 5 + 4;
const CONNECTIONS = 50;
const SECONDS = Number(process.env['BENCH_V3_SECONDS'] ?? 10);
/**
 * BENCH_V3_OPEN_RATE: requests a second, in all, of the open-loop run of each uncached figure
 * (Poisson arrivals over up to 50 connections: by default 50 clients each at the keyless limit of
 * 1 a second); 0 skips it.
 */
const OPEN_RATE = Number(process.env['BENCH_V3_OPEN_RATE'] ?? 50);
/** BENCH_V3_DATABASE: another database (and chain file) than the kept fill's, e.g. for a short trial fill. */
const DATABASE = process.env['BENCH_V3_DATABASE'] ?? 'bench_v3';
const ADMIN_URL = process.env['BENCH_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/**
 * Masterchain blocks the chain keeps while it is filled: the index reads each block as it is made,
 * so none older is ever needed. The chain kept every block in the first fills: ~10 MB of cells a
 * block, 3.4 GB after 350 blocks, each block slower than the last (the garbage collector's walks
 * over that heap) until the heap ran out.
 */
const FILL_KEEP_BLOCKS = 64;
/** The fill waits when the index is this many blocks behind, well inside FILL_KEEP_BLOCKS. */
const FILL_MAX_LAG = 24;
/** BENCH_V3_FILL_MINUTES: stop the fill after this long (fewer rounds, the same kind of chain); the figures then say how many transactions they ran on. */
const FILL_MINUTES = Number(process.env['BENCH_V3_FILL_MINUTES'] ?? Infinity);

function databaseUrl(database = DATABASE): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * The receivers: RECEIVERS fixed accounts (either shard), not new ones per message: a first fill
 * that sent every message to a new address ran out of its heap (the chain's state grew by ~80
 * accounts a block on top of the kept blocks).
 */
const RECEIVERS = 1024;
const receiver = (i: number) => new Address(0, createHash('sha256').update(`bench v3 receiver ${i % RECEIVERS}`).digest());

interface BenchWallets {
  v4: WalletContractV4[];
  v5: WalletContractV5R1;
  /** The wallets' key as Node's: tweetnacl's signature took 3 ms per transfer. */
  key: KeyObject;
}

/** The local chain's funded wallets v4r2 #0 and #1 and v5r1 #0 (its default mnemonic, as `npm start` runs it). */
async function benchWallets(globalId: number): Promise<BenchWallets> {
  const keyPair = await mnemonicToPrivateKey([...DEFAULT_LOCALNET_MNEMONIC]);
  const v4 = [0, 1].map((i) => WalletContractV4.create({ workchain: 0, publicKey: keyPair.publicKey, walletId: V4R2_BASE_SUBWALLET_ID + i }));
  const v5 = WalletContractV5R1.create({
    publicKey: keyPair.publicKey,
    walletId: { networkGlobalId: globalId, context: { walletVersion: 'v5r1', workchain: 0, subwalletNumber: 0 } },
  });
  const pkcs8Ed25519Prefix = Buffer.from('302e020100300506032b657004220420', 'hex');
  const key = createPrivateKey({ key: Buffer.concat([pkcs8Ed25519Prefix, keyPair.secretKey.subarray(0, 32)]), format: 'der', type: 'pkcs8' });
  return { v4, v5, key };
}

/**
 * valid_until of every transfer: the chain clock moves a block interval (here an hour) per block
 * sealed on demand, so the wallets' default (now + 60 s by the wall clock) expires after a few blocks.
 */
const NEVER_EXPIRES = 0xffffffff;

const payments = (count: number, first: number) =>
  Array.from({ length: count }, (_, i) => internal({ to: receiver(first + i), value: toNano('0.001'), bounce: false }));

function externalBoc(to: Address, body: Cell): string {
  return beginCell().store(storeMessage(external({ to, body }))).endCell().toBoc().toString('base64');
}

/** A signed v4r2 transfer of `count` messages, to receivers `first`, `first + 1`, ... */
async function transferBoc(wallets: BenchWallets, walletIndex: number, seqno: number, count: number, first: number): Promise<string> {
  const contract = wallets.v4[walletIndex]!;
  const body = await contract.createTransfer({
    seqno,
    signer: async (cell) => sign(null, cell.hash(), wallets.key),
    sendMode: SendMode.PAY_GAS_SEPARATELY,
    timeout: NEVER_EXPIRES,
    messages: payments(count, first),
  });
  return externalBoc(contract.address, body);
}

/** A signed v5r1 transfer of WIDE_MESSAGES messages: most of a round's transactions for one HTTP request. */
async function wideTransferBoc(wallets: BenchWallets, seqno: number, first: number): Promise<string> {
  const body = await wallets.v5.createTransfer({
    seqno,
    signer: async (cell) => sign(null, cell.hash(), wallets.key),
    sendMode: SendMode.PAY_GAS_SEPARATELY,
    timeout: NEVER_EXPIRES,
    messages: payments(WIDE_MESSAGES, first),
  });
  return externalBoc(wallets.v5.address, body);
}

interface ChainHead {
  file: string;
  seqno: number;
  rootHash: string;
}

function cacheFiles(): { file: string; headFile: string } {
  const dir = path.join(__dirname, '..', '.cache');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${DATABASE.replace(/_/g, '-')}-${ROUNDS}x${TRANSFERS_PER_ROUND}x${WIDE_MESSAGES}.state`);
  return { file, headFile: `${file}.head.json` };
}

async function post(url: string, body: unknown): Promise<unknown> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await res.json()) as { ok?: boolean; result?: unknown; error?: unknown };
  if (res.status !== 200 || json.ok === false) throw new Error(`${url}: ${res.status} ${JSON.stringify(json).slice(0, 200)}`);
  return json.result;
}

/**
 * The fill, made once: the API as `npm start` runs it (the chain in its own thread, the index
 * following it into bench_v3), a new chain saved to `.cache/` on exit; the bench sends the
 * transfers through v2's sendBoc and seals a block per round (POST /localnet/mine). Each round:
 * wallet v4r2 #0 sends TRANSFERS_PER_ROUND transfers of four messages (one account with a deep
 * history), wallet v4r2 #1 one of three (a 4-transaction trace); the receivers are 1 024 fixed
 * accounts in either shard. The chain keeps FILL_KEEP_BLOCKS blocks and the fill waits for the
 * index when it falls FILL_MAX_LAG behind. Returns the chain's head (also kept beside the file, so a
 * rerun whose database holds that head skips the fill).
 */
async function fill(): Promise<ChainHead> {
  const { file, headFile } = cacheFiles();
  for (const stale of [file, `${file}.journal`, headFile]) rmSync(stale, { force: true });
  await recreateDatabase();
  const started = performance.now();
  // A transfer of 250 messages is executed before sendBoc answers: more than the 10 s request and 5 s lite query defaults on a busy machine.
  // --pending-traces 0: the API otherwise emulates every sent message's trace in the background
  // (v3's pending routes), reading each account it touches with its proof: for a 250-message
  // transfer 250 account proofs made by the chain's thread and checked on the API's. Measured with
  // --cpu-prof over 10 rounds: ~85% of the API's CPU, the emulator's own share ~7%.
  const fillFlags = ['--block-interval', '3600000', '--keep-blocks', String(FILL_KEEP_BLOCKS), '--request-timeout', '300000', '--query-timeout', '120000', '--pending-traces', '0'];
  const api = await startApi(file, fillFlags, async (api) => {
    const res = await fetch(`${api.root}/api/v2/getMasterchainInfo`).catch(() => null);
    return res?.status === 200;
  });
  let mined = 0;
  let rounds = 0;
  try {
    // The chain's global id (config param 19): part of a v5r1 wallet's id, so of its address.
    const p19 = (await fetch(`${api.root}/api/v2/getConfigParam?config_id=19`).then((res) => res.json())) as { result: { config: { bytes: string } } };
    const wallets = await benchWallets(Cell.fromBase64(p19.result.config.bytes).beginParse().loadInt(32));
    const indexed = async () =>
      fetch(`${api.base}/masterchainInfo`).then(
        async (res) => (res.status === 200 ? ((await res.json()) as { last: { seqno: number } }).last.seqno : -1),
        () => -1,
      );
    let seqno0 = 0;
    // Where the fill's time goes, per stretch of 10 rounds: signing, sendBoc (the emulator runs
    // each transfer's cascade before it answers), mine (the seal), waiting for the index, and the
    // API process's CPU (chain thread, index writer and HTTP together).
    const spent = { sign: 0, send: 0, mine: 0, wait: 0 };
    let cpuMark = api.cpuMs();
    let stretchStart = performance.now();
    let txMark = 0;
    const timed = async <T>(part: keyof typeof spent, work: () => Promise<T>): Promise<T> => {
      const t0 = performance.now();
      try {
        return await work();
      } finally {
        spent[part] += performance.now() - t0;
      }
    };
    const send = async (boc: Promise<string>) => {
      const signed = await timed('sign', () => boc);
      await timed('send', () => post(`${api.root}/api/v2/sendBoc`, { boc: signed }));
    };
    for (let round = 0; round < ROUNDS; round++) {
      if (performance.now() - started > FILL_MINUTES * 60_000) {
        console.log(`  fill: stopped after ${round} of ${ROUNDS} rounds (BENCH_V3_FILL_MINUTES=${FILL_MINUTES})`);
        break;
      }
      for (let i = 0; i < TRANSFERS_PER_ROUND; i++) {
        await send(transferBoc(wallets, 0, seqno0, 4, seqno0 * 4));
        seqno0++;
      }
      await send(transferBoc(wallets, 1, round, 3, round * 3 + 7));
      await send(wideTransferBoc(wallets, round, round * WIDE_MESSAGES + 11));
      mined = ((await timed('mine', () => post(`${api.root}/localnet/mine`, {}))) as { seqno: number }).seqno;
      rounds++;
      await timed('wait', async () => {
        while (mined - (await indexed()) > FILL_MAX_LAG) await new Promise((resolve) => setTimeout(resolve, 200));
      });
      if ((round + 1) % 10 === 0) {
        const tx = rounds * TX_PER_ROUND;
        const wall = (performance.now() - stretchStart) / 1000;
        const parts = Object.entries(spent).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}`).join(', ');
        const cpu = api.cpuMs();
        console.log(
          `  fill: ${round + 1}/${ROUNDS} rounds (~${tx} tx), ${((performance.now() - started) / 1000).toFixed(0)} s; last 10: ${wall.toFixed(1)} s (${parts} s), ` +
            `${((tx - txMark) / wall).toFixed(0)} tx/s, API CPU ${((cpu - cpuMark) / 1000).toFixed(1)} s, index at ${await indexed()}/${mined}, load ${loadavg()[0]!.toFixed(1)}`,
        );
        for (const k of Object.keys(spent) as (keyof typeof spent)[]) spent[k] = 0;
        cpuMark = cpu;
        stretchStart = performance.now();
        txMark = tx;
      }
    }
    while ((await indexed()) < mined) await new Promise((resolve) => setTimeout(resolve, 200));
  } finally {
    await api.stop();
  }
  const head = await indexedHead();
  if (!head || head.seqno !== mined) throw new Error(`the index holds ${head?.seqno}, the chain ${mined}`);
  const chainHead: ChainHead = { file, seqno: head.seqno, rootHash: head.rootHash.toString('hex') };
  if (!existsSync(file)) throw new Error(`the API did not save the chain to ${file}`);
  writeFileSync(headFile, JSON.stringify(chainHead));
  console.log(`  filled: ${rounds} rounds, chain and index in ${((performance.now() - started) / 1000).toFixed(0)} s -> ${file}, ${DATABASE}`);
  return chainHead;
}

/** The saved fill when bench_v3 holds its head, else a new one. */
async function savedFill(): Promise<ChainHead> {
  const { file, headFile } = cacheFiles();
  if (existsSync(headFile)) {
    // This checkout's chain file, whatever path the head file names: the files may be hard links
    // of another checkout's (the live copy is written beside the chain, so never into that one).
    const head = { ...(JSON.parse(readFileSync(headFile, 'utf8')) as ChainHead), file };
    const indexed = await indexedHead();
    if (existsSync(head.file) && indexed?.seqno === head.seqno && indexed.rootHash.toString('hex') === head.rootHash) {
      console.log(`  ${DATABASE} holds the saved chain to mc ${head.seqno}: fill skipped`);
      return head;
    }
  }
  return fill();
}

/** The database's committed head, or null when it does not exist or holds nothing. */
async function indexedHead(): Promise<{ seqno: number; rootHash: Buffer } | null> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    const { rows } = await admin.query('select 1 from pg_database where datname = $1', [DATABASE]);
    if (rows.length === 0) return null;
  } finally {
    await admin.end();
  }
  const client = new pg.Client({ connectionString: databaseUrl() });
  await client.connect();
  try {
    const { rows } = await client.query<{ mc_seqno: number; root_hash: Buffer }>('select mc_seqno, root_hash from index_checkpoint');
    return rows[0] ? { seqno: rows[0].mc_seqno, rootHash: rows[0].root_hash } : null;
  } catch {
    return null;
  } finally {
    await client.end();
  }
}

async function recreateDatabase(): Promise<void> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${DATABASE} with (force)`);
  await admin.query(`create database ${DATABASE}`);
  await admin.end();
}


interface Api {
  /** http://host:port */
  root: string;
  /** root + /api/v3 */
  base: string;
  /** The API process's CPU time so far (user + system), ms. */
  cpuMs(): number;
  /** Its Prometheus metrics URL, when it serves them. */
  metrics?: string;
  stop(): Promise<void>;
}

/**
 * The API as `npm start` runs it (bin/ton-http-bridge.js: the chain in its own thread), in its own
 * process so autocannon never shares its event loop: over the chain in `stateFile` and `database`
 * (bench_v3), response cache off unless `cached`, its index following the chain. `ready` says when
 * it may be used.
 */
async function startApi(stateFile: string, chainFlags: readonly string[], ready: (api: Api) => Promise<boolean>, database = DATABASE, cached = false, withMetrics = false): Promise<Api> {
  const port = await freePort();
  // cached: the response cache at its default size and v3's cache at the index head on (its default), and the
  // metrics server (the cache's counters), else no response cache at all.
  const metricsPort = cached || withMetrics ? await freePort() : 0;
  const cacheFlags = cached ? ['--cache-size', '64mb', '--v3-head-cache', 'on'] : ['--cache-size', '0'];
  const flags = ['--port', String(port), '--metrics-port', String(metricsPort), '--keyless-rps', '0', ...cacheFlags, '--index', 'on', '--database-url', databaseUrl(database)];
  flags.push('--state-file', stateFile, '--save-interval', '0', '--shards', '2', '--accounts', '2', ...chainFlags);
  // BENCH_V3_NODE_FLAGS: more flags for the API's node (e.g. `--cpu-prof --cpu-prof-dir=DIR` to see where a fill's time goes).
  const nodeFlags = (process.env['BENCH_V3_NODE_FLAGS'] ?? '').split(' ').filter(Boolean);
  // BENCH_V3_API_FLAGS: more flags for the API (e.g. `--v3-head-warm 0`); BENCH_V3_BIN: another
  // checkout's bin/ton-http-bridge.js (e.g. main's, to compare two builds on one fill in one lock hold).
  flags.push(...(process.env['BENCH_V3_API_FLAGS'] ?? '').split(' ').filter(Boolean));
  const bin = process.env['BENCH_V3_BIN'] ?? path.join(__dirname, '..', 'bin', 'ton-http-bridge.js');
  const child = spawn(process.execPath, ['--max-old-space-size=4096', ...nodeFlags, bin, ...flags, '--log-level', 'warn'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const root = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  };
  const cpuMs = () => {
    const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime, fields 14 and 15 of stat (11 and 12 after the command name), in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  };
  const api: Api = { root, base: `${root}/api/v3`, cpuMs, stop, ...(metricsPort ? { metrics: `http://127.0.0.1:${metricsPort}/metrics` } : {}) };
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the API exited (${child.exitCode})`);
      if (await ready(api)) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return api;
}

/** The API over the saved fill, its index at the chain's head (the chain makes no block of its own). */
async function startFilledApi(head: ChainHead, withMetrics = false): Promise<Api> {
  return startApi(head.file, ['--block-interval', '0', '--keep-blocks', String(FILL_KEEP_BLOCKS)], async (api) => {
    const last = await fetch(`${api.base}/masterchainInfo`).then(
      async (res) => (res.status === 200 ? ((await res.json()) as { last: { seqno: number } }).last.seqno : -1),
      () => -1,
    );
    return last >= head.seqno;
  }, DATABASE, false, withMetrics);
}

interface Figure {
  name: string;
  target: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** The API process's CPU time per request, ms. */
  cpuPerRequest?: number;
  /** Answers per second at 50 connections. */
  rps?: number;
  /** Mean answer size, KB. */
  kb?: number;
  /** p99 with one connection (no request waits behind another), ms. */
  p99Single?: number;
  /** The same connections paced at OPEN_RATE requests a second in all: latency below saturation. */
  paced?: { p50: number; p99: number; rps: number; bad: number };
  /** PostgreSQL's own time for one request (all its statements, EXPLAIN ANALYZE), ms. */
  pg?: { ms: number; statements: number };
  /** The answers' X-Cache at 50 connections: hit, miss, none (not kept, or the head unknown at that moment). */
  cache?: { hit: number; miss: number; none: number };
  /** Masterchain blocks the index committed during the 50-connection run (the head moved this often). */
  commits?: number;
  /** Computations the response cache made during the 50-connection run (its misses: one per single flight). */
  computed?: number;
  /** The index heads published during the run and after how long (--v3-head-warm), when the API reports them. */
  published?: string;
}

/** autocannon with 50 connections, each request the next path of `paths` (round robin). */
async function cannon(api: Api, name: string, target: number, paths: readonly string[], indexHead?: () => Promise<number>): Promise<Figure> {
  const prefix = new URL(api.base).pathname;
  let next = 0;
  const cache = { hit: 0, miss: 0, none: 0 };
  const run = (connections: number, duration: number) =>
    autocannon({
      url: api.base,
      connections,
      duration,
      requests: [
        {
          method: 'GET',
          setupRequest: (req) => ({ ...req, path: prefix + paths[next++ % paths.length]! }),
          // Only where the cache is counted: autocannon reads every body for onResponse, which costs its (the API's neighbour's) CPU.
          ...(indexHead ? { onResponse } : {}),
        },
      ],
    });
  function onResponse(_status: number, _body: string, _context: unknown, headers: unknown): void {
    // autocannon keeps the header names as written on the wire (X-Cache).
    const all = headers as Record<string, string | undefined>;
    const name = Object.keys(all).find((key) => key.toLowerCase() === 'x-cache');
    const value = name === undefined ? undefined : all[name];
    if (value === 'hit') cache.hit++;
    else if (value === 'miss') cache.miss++;
    else cache.none++;
  }
  const cpuBefore = api.cpuMs();
  const headBefore = await indexHead?.();
  const computedBefore = await cacheMisses(api);
  const publishedBefore = await publications(api);
  const result = await run(CONNECTIONS, SECONDS);
  const cpuPerRequest = (api.cpuMs() - cpuBefore) / Math.max(1, result.requests.total);
  const commits = headBefore === undefined ? undefined : (await indexHead!()) - headBefore;
  const computedAfter = await cacheMisses(api);
  const computed = computedBefore === undefined || computedAfter === undefined ? undefined : computedAfter - computedBefore;
  const published = publicationText(publishedBefore, await publications(api));
  const counted = { ...cache };
  // The same requests one at a time: the latency of a request that waits for no other.
  const single = await run(1, Math.max(2, Math.round(SECONDS / 2)));
  // The same requests arriving at a bounded rate (OPEN_RATE a second in all, over up to 50
  // connections: by default 50 clients each at the keyless limit of one a second): the latency a
  // request meets when the API is not saturated, where the closed loop above measures how many it
  // answers when it is.
  const paced = indexHead || OPEN_RATE <= 0 ? undefined : await openLoop(api, paths, OPEN_RATE, SECONDS, CONNECTIONS);
  return {
    name,
    target,
    cpuPerRequest,
    rps: result.requests.total / SECONDS,
    kb: result.throughput.total / Math.max(1, result.requests.total) / 1024,
    p99Single: single.latency.p99,
    ...(paced ? { paced } : {}),
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx + single.non2xx,
    errors: result.errors + result.timeouts + single.errors + single.timeouts,
    cache: counted,
    ...(commits === undefined ? {} : { commits }),
    ...(computed === undefined ? {} : { computed }),
    ...(published === undefined ? {} : { published }),
  };
}

/**
 * An open loop: requests at `rate` a second in all, their arrivals a Poisson process (independent
 * clients: exponential gaps), over a keep-alive pool of at most `connections` sockets, for
 * `seconds`. Each latency counts from the moment its request was due, so a request sent late
 * (the pool's sockets all busy, or this process late) counts its wait too. autocannon's
 * `overallRate` sends each second's requests together, which measures a burst, not this.
 */
async function openLoop(api: Api, paths: readonly string[], rate: number, seconds: number, connections: number): Promise<{ p50: number; p99: number; rps: number; bad: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const prefix = new URL(api.base);
  const latencies: number[] = [];
  let bad = 0;
  let next = 0;
  const get = (path: string, due: number): Promise<void> =>
    new Promise((resolve) => {
      const req = http.get({ host: prefix.hostname, port: prefix.port, path: prefix.pathname + path, agent }, (res) => {
        res.on('data', () => {});
        res.on('end', () => {
          latencies.push(performance.now() - due);
          if (res.statusCode !== 200) bad++;
          resolve();
        });
      });
      req.on('error', () => {
        bad++;
        resolve();
      });
    });
  const started = performance.now();
  const pending: Promise<void>[] = [];
  for (let at = 0; ; ) {
    at += (-Math.log(1 - Math.random()) * 1000) / rate;
    if (at >= seconds * 1000) break;
    const due = started + at;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(get(paths[next++ % paths.length]!, due));
  }
  await Promise.all(pending);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number): number => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99), rps: latencies.length / seconds, bad };
}

/** ton_bridge_response_cache_misses_total of the API (answers computed), when it serves metrics. */
async function cacheMisses(api: Api): Promise<number | undefined> {
  if (!api.metrics) return undefined;
  const text = await fetch(api.metrics).then((res) => res.text());
  const line = text.split('\n').find((l) => l.startsWith('ton_bridge_response_cache_misses_total'));
  return line === undefined ? 0 : Number(line.split(' ').at(-1));
}

/** The head publications so far (--v3-head-warm's histogram), by why: count and seconds; empty for a build without it. */
async function publications(api: Api): Promise<Record<string, { count: number; sum: number }>> {
  const by: Record<string, { count: number; sum: number }> = {};
  if (!api.metrics) return by;
  const text = await fetch(api.metrics).then((res) => res.text());
  for (const line of text.split('\n')) {
    const match = /^ton_bridge_v3_head_publish_delay_seconds_(count|sum)\{why="(\w+)"\} (\S+)$/.exec(line);
    if (!match) continue;
    const entry = (by[match[2]!] ??= { count: 0, sum: 0 });
    entry[match[1] as 'count' | 'sum'] = Number(match[3]);
  }
  return by;
}

/** `warm N (mean M ms), deadline N (...), at_once N` between two readings of `publications`. */
function publicationText(before: Record<string, { count: number; sum: number }>, after: Record<string, { count: number; sum: number }>): string | undefined {
  const parts = Object.entries(after).map(([why, { count, sum }]) => {
    const n = count - (before[why]?.count ?? 0);
    const ms = ((sum - (before[why]?.sum ?? 0)) * 1000) / Math.max(1, n);
    return `${why} ${n}${n ? ` (mean ${ms.toFixed(0)} ms)` : ''}`;
  });
  return parts.length ? `published: ${parts.join(', ')}` : undefined;
}

async function explainMs(client: pg.Client, text: string, values: readonly unknown[]): Promise<number> {
  const { rows } = await client.query<{ 'QUERY PLAN': Array<{ 'Execution Time': number; 'Planning Time': number }> }>(
    `explain (analyze, format json) ${text}`,
    values as unknown[],
  );
  const plan = rows[0]!['QUERY PLAN'][0]!;
  return plan['Execution Time'] + plan['Planning Time'];
}

/**
 * PostgreSQL's own time for one request of a route: the route's run (the server's code) over a
 * database that records each statement it sends, then each statement under EXPLAIN ANALYZE
 * (planning + execution), summed. The best of three, warm: the part of the figure the database
 * makes, which the machine's load touches less than a p99 across HTTP.
 */
async function pgTimeOf(client: pg.Client, path: string, query: Record<string, string | string[]>): Promise<{ ms: number; statements: number }> {
  const route = V3_ROUTES.find((r) => r.path === path);
  if (!route) return { ms: NaN, statements: 0 };
  const captured: { text: string; values: readonly unknown[] }[] = [];
  const db: V3Database = {
    async query<Row extends object>(text: string, values: readonly unknown[]): Promise<Row[]> {
      captured.push({ text, values: [...values] });
      return (await client.query<Row>(text, values as unknown[])).rows;
    },
  };
  await route.run({ db, settings: { noAddressBook: false, noMetadata: false, testnet: false } }, route.parse(new V3Query(query)));
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    let sum = 0;
    for (const statement of captured) sum += await explainMs(client, statement.text, statement.values);
    best = Math.min(best, sum);
  }
  return { ms: best, statements: captured.length };
}

function hex(buffer: Buffer): string {
  return buffer.toString('hex');
}

export async function runV3Bench(): Promise<void> {
  console.log(`v3 bench (${cpus().length} cores, load ${loadavg().map((l) => l.toFixed(1)).join(' ')})`);
  const head = await savedFill();
  // BENCH_V3_FILL_ONLY=1: make (or check) the fill and stop, so a long fill can run outside the
  // bench lock and the measurement later under it.
  if (process.env['BENCH_V3_FILL_ONLY'] === '1') return;
  // BENCH_V3_STALL=1: only what large pages cost the other clients (stall below).
  if (process.env['BENCH_V3_STALL'] === '1') {
    await stall(head);
    return;
  }
  // BENCH_V3_CACHED_ONLY=1: only the figures with the cache at the index head (e.g. another BENCH_V3_HOT_KEYS).
  if (process.env['BENCH_V3_CACHED_ONLY'] === '1') {
    await headCached(head, await hotSample());
    return;
  }
  // BENCH_V3_LARGEST_ONLY=1: only the largest requests (a quick check of one build's worst answers).
  if (process.env['BENCH_V3_LARGEST_ONLY'] === '1') {
    await largestOnly(head);
    return;
  }
  const api = await startFilledApi(head);
  const client = new pg.Client({ connectionString: databaseUrl() });
  await client.connect();
  const figures: Figure[] = [];
  let hot = { messages: [] as Buffer[], fourTx: [] as Buffer[] };
  try {
    const count = Number((await client.query<{ n: string }>('select count(*) as n from transactions')).rows[0]!.n);
    const blocks = (await client.query('select 1 from blocks')).rowCount;
    console.log(`  index: ${count} transactions, ${blocks} blocks${count < 100_000 ? ' (fewer than the issue\'s 100 000: a fill stopped by BENCH_V3_FILL_MINUTES)' : ''}`);
    // An index in service has its statistics and its visibility map (index-only scans): autovacuum,
    // or the writer's ANALYZE and VACUUM where there is none (src/indexer/statistics.ts); the fill
    // may have ended before their next turn.
    await client.query('vacuum analyze');

    // transactions?account=A&limit=100: the deep wallet (v4r2 #0; its pages to offset 3 000) and the 500 busiest others.
    // The v5r1 wallet's transactions hold 250 messages each (the fill's shortcut, not a usual
    // account): left out of the sampled requests, as the messages it sent.
    const wide = await wideSender(client);
    const accounts = (
      await client.query<{ account: string }>('select account from transactions where account <> $1 group by account order by count(*) desc limit 500', [wide])
    ).rows.map((r) => r.account);
    const deep = accounts[0]!;
    const accountPaths = accounts.flatMap((a, i) => [
      `/transactions?account=${a}&limit=100`,
      `/transactions?account=${deep}&limit=100&offset=${(i * 100) % 3_000}`,
    ]);
    figures.push(await cannon(api, 'transactions?account=A&limit=100', 20, accountPaths));
    figures.at(-1)!.pg = await pgTimeOf(client, '/transactions', { account: deep, limit: '100' });
    // Deeper pages of the deep wallet, as the figure samples them: the page's keys walk the account's index.
    const deepPages: string[] = [];
    for (const offset of [0, 1500, 2900]) deepPages.push(`${offset}: ${(await pgTimeOf(client, '/transactions', { account: deep, limit: '100', offset: String(offset) })).ms.toFixed(2)}`);
    console.log(`  the deep wallet's page of 100, PostgreSQL ms by offset: ${deepPages.join(', ')}`);

    const messages = (
      await client.query<{ msg_hash: Buffer }>("select msg_hash from messages where direction = 'in' and source is distinct from $1 order by random() limit 2000", [wide])
    ).rows.map((r) => r.msg_hash);
    figures.push(await cannon(api, 'transactionsByMessage?msg_hash=H', 10, messages.map((h) => `/transactionsByMessage?msg_hash=${hex(h)}`)));
    figures.at(-1)!.pg = await pgTimeOf(client, '/transactionsByMessage', { msg_hash: hex(messages[0]!) });

    const fourTx = (
      await client.query<{ hash: Buffer }>(
        `select (select T.hash from transactions as T where T.trace_id = E.trace_id order by T.lt desc limit 1) as hash
           from traces as E where E.nodes_ = 4 order by random() limit 1000`,
      )
    ).rows.map((r) => r.hash);
    if (fourTx.length === 0) throw new Error('the bench chain has no 4-transaction trace');
    figures.push(await cannon(api, 'traces?tx_hash=H (4 transactions)', 20, fourTx.map((h) => `/traces?tx_hash=${hex(h)}`)));
    figures.at(-1)!.pg = await pgTimeOf(client, '/traces', { tx_hash: hex(fourTx[0]!) });

    // Each request another page start, so every answer differs.
    const blockPaths = Array.from({ length: 500 }, (_, i) => `/blocks?workchain=0&limit=100&sort=desc&offset=${i}`);
    figures.push(await cannon(api, 'blocks?workchain=0&limit=100&sort=desc', 20, blockPaths));
    figures.at(-1)!.pg = await pgTimeOf(client, '/blocks', { workchain: '0', limit: '100', sort: 'desc' });

    printFigures(`${CONNECTIONS} connections, ${SECONDS} s each, response cache off`, figures);

    await largest(api, client, head.seqno, deep, messages[0]!, fourTx[0]!);
    hot = { messages: messages.slice(0, HOT_KEYS), fourTx: fourTx.slice(0, HOT_KEYS) };
  } finally {
    await client.end();
    await api.stop();
  }
  if (process.env['BENCH_V3_HEAD_CACHE'] !== '0') await headCached(head, hot);
}

function printFigures(title: string, figures: readonly Figure[]): void {
  console.log(`\n  ${title}, load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  const cached = figures.some((f) => f.commits !== undefined);
  console.log(
    `  ${'figure'.padEnd(42)} ${'req'.padStart(6)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'pg ms'.padStart(10)} ${'API cpu'.padStart(7)} ${'req/s'.padStart(6)} ${'KB/ans'.padStart(6)} ${'1-conn p99'.padStart(10)} ${'paced p50/p99 (req/s)'.padStart(24)} target  result${cached ? '  X-Cache hit/miss/none (hit ratio), commits, answers computed (a miss and the identical ones that waited for it: one)' : ''}`,
  );
  for (const f of figures) {
    const bad = f.non2xx + f.errors;
    const pass = f.p99 <= f.target && bad === 0;
    const c = f.cache;
    const ratio = c ? c.hit / Math.max(1, c.hit + c.miss + c.none) : NaN;
    console.log(
      `  ${f.name.padEnd(42)} ${String(f.requests).padStart(6)} ${f.p50.toFixed(1).padStart(7)} ${f.p99.toFixed(1).padStart(7)} ${`${(f.pg?.ms ?? NaN).toFixed(2)}/${f.pg?.statements ?? 0}`.padStart(10)} ${(f.cpuPerRequest ?? NaN).toFixed(2).padStart(7)} ${(f.rps ?? NaN).toFixed(0).padStart(6)} ${(f.kb ?? NaN).toFixed(1).padStart(6)} ${(f.p99Single ?? NaN).toFixed(1).padStart(10)} ${(f.paced ? `${f.paced.p50.toFixed(1)}/${f.paced.p99.toFixed(1)} (${f.paced.rps.toFixed(0)})${f.paced.bad ? ` ${f.paced.bad} bad` : ''}` : '-').padStart(24)} <= ${String(f.target).padStart(3)}  ${pass ? 'pass' : 'FAIL'}${bad ? ` (${bad} non-2xx/errors)` : ''}` +
        (cached && c ? `  ${c.hit}/${c.miss}/${c.none} (${(ratio * 100).toFixed(1)} %), ${f.commits ?? '?'} commits, ${f.computed ?? '?'} computed${f.published ? `; ${f.published}` : ''}` : ''),
    );
  }
}

/** The cached figures' requests alone, sampled as the uncached run samples them. */
async function hotSample(): Promise<{ messages: Buffer[]; fourTx: Buffer[] }> {
  const client = new pg.Client({ connectionString: databaseUrl() });
  await client.connect();
  try {
    // BENCH_V3_SAMPLE_SEED (-1..1): the same sample in every run (random() of this session), so two builds answer the same keys.
    const seed = process.env['BENCH_V3_SAMPLE_SEED'];
    if (seed !== undefined) await client.query('select setseed($1)', [Number(seed)]);
    const wide = (await client.query<{ source: string }>("select source from messages where direction = 'out' group by source order by count(*) desc limit 1")).rows[0]!.source;
    const messages = (
      await client.query<{ msg_hash: Buffer }>("select msg_hash from messages where direction = 'in' and source is distinct from $1 order by random() limit $2", [wide, HOT_KEYS])
    ).rows.map((r) => r.msg_hash);
    const fourTx = (
      await client.query<{ hash: Buffer }>(
        `select (select T.hash from transactions as T where T.trace_id = E.trace_id order by T.lt desc limit 1) as hash
           from traces as E where E.nodes_ = 4 order by random() limit $1`,
        [HOT_KEYS],
      )
    ).rows.map((r) => r.hash);
    return { messages, fourTx };
  } finally {
    await client.end();
  }
}

/** BENCH_V3_HOT_KEYS: the cached figures' distinct requests (messages, traces, pages) each. */
const HOT_KEYS = Number(process.env['BENCH_V3_HOT_KEYS'] ?? 100);
/** The local chain's block rate while the cached figures run: the head (so every key) moves this often. */
const LIVE_BLOCK_MS = 400;

/**
 * The three figures the cache at the index head may answer (transactionsByMessage, traces,
 * blocks), measured with it on and the head moving for real: the API runs over a copy of the fill
 * (its database cloned, `bench_v3_live`, and its chain file copied) with the chain sealing a block
 * every LIVE_BLOCK_MS and the index committing each one, so every key is invalidated at the local
 * chain's block rate while autocannon runs. Each figure's requests cycle over HOT_KEYS distinct
 * URLs; the bench counts X-Cache of every answer (the hit ratio) and the commits during the run.
 * `transactions?account=` is not measured here: it stays the uncached figure above.
 */
async function headCached(head: ChainHead, hot: { messages: Buffer[]; fourTx: Buffer[] }): Promise<void> {
  // BENCH_V3_LIVE_DATABASE: the copy's name (default bench_v3_live), e.g. one per helper.
  const liveDatabase = process.env['BENCH_V3_LIVE_DATABASE'] ?? `${DATABASE}_live`;
  const liveFile = `${head.file}.live`;
  const started = performance.now();
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${liveDatabase} with (force)`);
    await admin.query(`create database ${liveDatabase} template ${DATABASE} strategy file_copy`);
  } finally {
    await admin.end();
  }
  // The planner's statistics of the copy: the uncached run analyzes the fill before measuring;
  // run alone (BENCH_V3_CACHED_ONLY), a fill never analyzed planned its statements blind (seconds
  // a statement, 3 s timeouts: measured on a fresh fill, 27 November 2026).
  const live = new pg.Client({ connectionString: databaseUrl(liveDatabase) });
  await live.connect();
  try {
    await live.query('analyze');
  } finally {
    await live.end();
  }
  for (const suffix of ['', '.journal']) if (existsSync(head.file + suffix)) copyFileSync(head.file + suffix, liveFile + suffix);
  console.log(`\n  the fill copied for a live chain (${liveDatabase}, ${path.basename(liveFile)}) in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  const api = await startApi(
    liveFile,
    ['--block-interval', String(LIVE_BLOCK_MS), '--keep-blocks', String(FILL_KEEP_BLOCKS)],
    async (api) => {
      const last = await fetch(`${api.base}/masterchainInfo`).then(
        async (res) => (res.status === 200 ? ((await res.json()) as { last: { seqno: number } }).last.seqno : -1),
        () => -1,
      );
      return last > head.seqno;
    },
    liveDatabase,
    true,
  );
  const client = new pg.Client({ connectionString: databaseUrl(liveDatabase) });
  await client.connect();
  const indexHead = async () => (await client.query<{ mc_seqno: number }>('select mc_seqno from index_checkpoint')).rows[0]!.mc_seqno;
  const figures: Figure[] = [];
  try {
    figures.push(await cannon(api, 'transactionsByMessage?msg_hash=H', 10, hot.messages.map((h) => `/transactionsByMessage?msg_hash=${hex(h)}`), indexHead));
    figures.push(await cannon(api, 'traces?tx_hash=H (4 transactions)', 20, hot.fourTx.map((h) => `/traces?tx_hash=${hex(h)}`), indexHead));
    const pages = Array.from({ length: HOT_KEYS }, (_, i) => `/blocks?workchain=0&limit=100&sort=desc&offset=${i}`);
    figures.push(await cannon(api, 'blocks?workchain=0&limit=100&sort=desc', 20, pages, indexHead));
    printFigures(
      `${CONNECTIONS} connections, ${SECONDS} s each, v3 cache at the index head ON, the chain sealing a block every ${LIVE_BLOCK_MS} ms (the index following), ${HOT_KEYS} distinct requests per figure`,
      figures,
    );
  } finally {
    await client.end();
    await api.stop();
    const drop = new pg.Client({ connectionString: ADMIN_URL });
    await drop.connect();
    await drop.query(`drop database if exists ${liveDatabase} with (force)`);
    await drop.end();
    for (const suffix of ['', '.journal']) rmSync(liveFile + suffix, { force: true });
  }
}

/** `pg N ms/K` for a route path with its query string (repeated keys as lists, as Express reads them). */
async function pgTimeText(client: pg.Client, route: string): Promise<string> {
  const [path, search] = route.split('?') as [string, string | undefined];
  const query: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(search ?? '')) {
    const had = query[key];
    query[key] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  const { ms, statements } = await pgTimeOf(client, path, query);
  return `pg ${ms.toFixed(1)} ms/${statements}`;
}

/** The fill's v5r1 wallet: its transactions hold 250 messages each (the fill's shortcut, not a usual account). */
async function wideSender(client: pg.Client): Promise<string> {
  return (await client.query<{ source: string }>("select source from messages where direction = 'out' group by source order by count(*) desc limit 1")).rows[0]!.source;
}

/** The largest requests alone, with the same deep account, message and 4-transaction trace the whole bench samples. */
async function largestOnly(head: ChainHead): Promise<void> {
  const api = await startFilledApi(head, true);
  const client = new pg.Client({ connectionString: databaseUrl() });
  await client.connect();
  try {
    await client.query('vacuum analyze');
    const wide = await wideSender(client);
    const deep = (
      await client.query<{ account: string }>('select account from transactions where account <> $1 group by account order by count(*) desc limit 1', [wide])
    ).rows[0]!.account;
    const message = (await client.query<{ msg_hash: Buffer }>("select msg_hash from messages where direction = 'in' and source is distinct from $1 limit 1", [wide])).rows[0]!.msg_hash;
    const fourTx = (
      await client.query<{ hash: Buffer }>('select (select T.hash from transactions as T where T.trace_id = E.trace_id order by T.lt desc limit 1) as hash from traces as E where E.nodes_ = 4 limit 1')
    ).rows[0]!.hash;
    await largest(api, client, head.seqno, deep, message, fourTx);
  } finally {
    await client.end();
    await api.stop();
  }
}

/** Every route with the largest values a client may send, one request at a time, worst of three. */
async function largest(api: Api, client: pg.Client, head: number, deep: string, msgHash: Buffer, txHash: Buffer): Promise<void> {
  const maxLt = '9223372036854775807';
  const maxUtime = '2147483647';
  const wide = `start_lt=0&end_lt=${maxLt}&start_utime=0&end_utime=${maxUtime}`;
  const page = `limit=${MAX_LIMIT}&offset=${MAX_OFFSET}`;
  // As many addresses as the 16 KB URL bound lets through (the 1 024-value bound is never reached by a GET).
  const all = (await client.query<{ account: string }>('select account from latest_account_states order by account limit 1024')).rows.map((r) => r.account);
  const fit = (key: string): string => {
    let query = '';
    for (const account of all) {
      const next = `${query}${query ? '&' : ''}${key}=${account}`;
      if (next.length > 16 * 1024 - 200) break;
      query = next;
    }
    return query;
  };
  const manyAddresses = fit('address');
  const manyAccounts = fit('account');
  const many = manyAccounts.split('&').length;
  const requests: [string, string][] = [
    ['masterchainInfo', '/masterchainInfo'],
    ['blocks, widest', `/blocks?${wide}&${page}&sort=asc`],
    ['blocks, workchain, widest', `/blocks?workchain=0&${wide}&${page}`],
    ['masterchainBlockShardState', `/masterchainBlockShardState?seqno=${head}`],
    ['masterchainBlockShards', `/masterchainBlockShards?seqno=${head}&${page}`],
    ['transactions, widest', `/transactions?${wide}&${page}`],
    ['transactions, lt range', `/transactions?start_lt=0&end_lt=${maxLt}&${page}&sort=asc`],
    ['transactions, deep account widest', `/transactions?account=${deep}&${wide}&${page}`],
    [`transactions, ${many} accounts`, `/transactions?${manyAccounts}&${page}`],
    [`transactions, ${many} excluded`, `/transactions?${fit('exclude_account')}&${page}`],
    ['transactions, offset over bound', `/transactions?limit=${MAX_LIMIT}&offset=${MAX_OFFSET + 1}`],
    ['transactionsByMasterchainBlock', `/transactionsByMasterchainBlock?seqno=${head}&${page}`],
    ['transactionsByMessage, direction', `/transactionsByMessage?msg_hash=${hex(msgHash)}&direction=in&${page}`],
    ['transactionsByMessage, opcode', `/transactionsByMessage?opcode=0&${page}`],
    ['adjacentTransactions', `/adjacentTransactions?hash=${hex(txHash)}`],
    ['messages, widest', `/messages?${wide}&${page}`],
    ['messages, source widest', `/messages?source=${deep}&${wide}&${page}`],
    ['messages, destination null', `/messages?destination=null&${page}`],
    ['messages, opcode', `/messages?opcode=0&${page}`],
    [`accountStates, ${many}`, `/accountStates?${manyAddresses}`],
    [`walletStates, ${many}`, `/walletStates?${manyAddresses}`],
    [`addressBook, ${many}`, `/addressBook?${manyAddresses}`],
    ['topAccountsByBalance', `/topAccountsByBalance?${page}`],
    ['traces, widest', `/traces?${wide}&${page}`],
    ['traces, deep account widest', `/traces?account=${deep}&${wide}&${page}`],
    ['traces, no filter', `/traces?${page}`],
    ['events, deep account', `/events?account=${deep}&${page}`],
    ['actions, deep account widest', `/actions?account=${deep}&${wide}&${page}`],
    ['pendingTransactions', `/pendingTransactions?account=${deep}`],
    ['pendingTraces', `/pendingTraces?account=${deep}`],
    ['pendingActions', `/pendingActions?account=${deep}`],
  ];
  console.log(`\n  the largest requests (offset ${MAX_OFFSET}, limit ${MAX_LIMIT}, widest ranges, a full URL of addresses), worst of 3, load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  for (const [label, route] of requests) {
    let worst = 0;
    let status = 0;
    let error = '';
    let bytes = 0;
    // The API's own CPU for the request (mean of the three): what it costs where the wall time is the machine's load.
    const cpuBefore = api.cpuMs();
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const res = await fetch(`${api.base}${route}`);
      const text = await res.text();
      worst = Math.max(worst, performance.now() - started);
      status = res.status;
      bytes = Buffer.byteLength(text);
      if (status !== 200) error = text.slice(0, 60);
    }
    const cpu = (api.cpuMs() - cpuBefore) / 3;
    const pgText = status === 200 ? await pgTimeText(client, route) : '';
    console.log(
      `  ${label.padEnd(36)} ${String(status).padEnd(4)} ${worst.toFixed(1).padStart(7)} ms <= 100  ${worst <= 100 ? 'pass' : 'FAIL'}  ${pgText.padEnd(16)} cpu ${cpu.toFixed(0).padStart(4)} ms ${(bytes / 1024).toFixed(0).padStart(6)} KB ${error}`,
    );
  }
}

/** The API's event-loop delay since the last scrape (prom-client resets its histogram at each), ms. */
async function loopLag(api: Api): Promise<{ p99: number; max: number; mean: number }> {
  const text = await (await fetch(api.metrics!)).text();
  const read = (name: string) => Number(new RegExp(`^ton_bridge_nodejs_eventloop_lag_${name}_seconds (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) * 1000;
  return { p99: read('p99'), max: read('max'), mean: read('mean') };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
}

/** Small requests one after the other (a pause of `gapMs` between), for `ms`: their latencies by kind. */
async function probe(api: Api, ms: number, gapMs = 10): Promise<Record<string, number[]>> {
  const kinds: [string, string][] = [
    ['v2 getMasterchainInfo', `${api.root}/api/v2/getMasterchainInfo`],
    ['v3 blocks?limit=1', `${api.base}/blocks?limit=1`],
  ];
  const out: Record<string, number[]> = Object.fromEntries(kinds.map(([name]) => [name, []]));
  const end = performance.now() + ms;
  for (let i = 0; performance.now() < end; i++) {
    const [name, url] = kinds[i % kinds.length]!;
    const started = performance.now();
    const res = await fetch(url);
    await res.arrayBuffer();
    if (res.status === 200) out[name]!.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
  return out;
}

function probeText(latencies: Record<string, number[]>): string {
  return Object.entries(latencies)
    .map(([name, list]) => {
      const sorted = [...list].sort((a, b) => a - b);
      return `${name} p50 / p99 / max ${percentile(sorted, 50).toFixed(1)} / ${percentile(sorted, 99).toFixed(1)} / ${sorted.at(-1)?.toFixed(1)} ms (${sorted.length})`;
    })
    .join('; ');
}

/**
 * Clients fetching `paths` in closed loops, in a thread of this process (the 2.7 MB bodies are
 * read there, not on the probe's event loop), for `ms`: answers by status.
 */
function loadPages(paths: readonly string[], clients: number, ms: number): Promise<{ statuses: Record<string, number>; bytes: number }> {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { paths, clients, ms } = workerData;
    const statuses = {};
    let bytes = 0;
    let next = 0;
    const end = Date.now() + ms;
    async function client() {
      while (Date.now() < end) {
        const res = await fetch(paths[next++ % paths.length]);
        const body = await res.arrayBuffer();
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        bytes += body.byteLength;
      }
    }
    Promise.all(Array.from({ length: clients }, client)).then(() => parentPort.postMessage({ statuses, bytes }));
  `;
  const worker = new Worker(code, { eval: true, workerData: { paths, clients, ms } });
  return new Promise((resolve, reject) => {
    worker.once('message', (result: { statuses: Record<string, number>; bytes: number }) => {
      void worker.terminate();
      resolve(result);
    });
    worker.once('error', reject);
  });
}

/**
 * What pages of 1 000 transactions (2.6-2.8 MB of JSON each) cost every other client: the API's
 * event-loop delay and the latency of small requests (v2 getMasterchainInfo, v3 blocks?limit=1)
 * while BENCH_V3_STALL_CLIENTS clients (4) fetch such pages in closed loops for SECONDS, against
 * the same probe with no load; then the wall time of the largest page alone (median and worst of 7)
 * and the API's CPU per page. The answers' SHA-256 are printed so that two builds (BENCH_V3_BIN)
 * can be seen to answer the same bytes. Response cache off.
 */
async function stall(head: ChainHead): Promise<void> {
  const clients = Number(process.env['BENCH_V3_STALL_CLIENTS'] ?? 4);
  // BENCH_V3_STALL_ROUTE=actions: pages of 1 000 actions (newest first, offsets 0..10 000) instead
  // of transactions; =traces: pages of BENCH_V3_STALL_TRACES traces (20) with their actions, the
  // widest page all of a fill's traces (limit 1 000).
  const stallRoute = process.env['BENCH_V3_STALL_ROUTE'];
  const actions = stallRoute === 'actions';
  const traces = stallRoute === 'traces';
  const perPage = Number(process.env['BENCH_V3_STALL_TRACES'] ?? 20);
  const api = await startFilledApi(head, true);
  try {
    const route = traces ? 'traces' : actions ? 'actions' : 'transactions';
    const pages = traces
      ? Array.from({ length: 11 }, (_, i) => `${api.base}/traces?limit=${perPage}&offset=${i * perPage}&include_actions=true`)
      : Array.from({ length: 11 }, (_, i) => `${api.base}/${route}?limit=${MAX_LIMIT}&offset=${i * 1000}`);
    const widest = traces
      ? `${api.base}/traces?limit=${MAX_LIMIT}&include_actions=true`
      : `${api.base}/${route}?start_lt=0&end_lt=9223372036854775807&start_utime=0&end_utime=2147483647&limit=${MAX_LIMIT}&offset=${actions ? 0 : MAX_OFFSET}`;
    const same = traces
      ? [pages[0]!, pages[5]!, widest, `${api.base}/events?limit=${perPage}&offset=${perPage}`, `${api.base}/traces?limit=5`]
      : actions
      ? [pages[0]!, widest, `${api.base}/actions?limit=${MAX_LIMIT}&offset=2000&sort=asc&include_accounts=true`, `${api.base}/actions?limit=5`, `${api.base}/actions?limit=100&offset=50`,
        `${api.base}/traces?limit=${MAX_LIMIT}&include_actions=true`]
      : [
          pages[0]!,
          widest,
          `${api.base}/transactions?limit=${MAX_LIMIT}&offset=2000&sort=asc`,
          `${api.base}/transactionsByMasterchainBlock?seqno=${head.seqno - 1}&limit=${MAX_LIMIT}`,
          `${api.base}/transactions?limit=5`,
          `${api.base}/transactions?limit=100&offset=50`,
        ];
    for (const url of same) {
      const bytes = Buffer.from(await (await fetch(url)).arrayBuffer());
      console.log(`  answer ${url.slice(api.base.length)}: ${bytes.length} bytes, sha256 ${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}`);
    }
    // Warm: each page once (PostgreSQL's buffers, V8's code).
    for (const url of pages) await (await fetch(url)).arrayBuffer();

    await loopLag(api);
    const idle = await probe(api, 5000);
    const idleLag = await loopLag(api);
    console.log(`  idle (load ${loadavg().map((l) => l.toFixed(1)).join(' ')}): loop delay p99 ${idleLag.p99.toFixed(1)} max ${idleLag.max.toFixed(1)} ms; ${probeText(idle)}`);

    const cpuBefore = api.cpuMs();
    await loopLag(api);
    const [loaded, small] = await Promise.all([loadPages(pages, clients, SECONDS * 1000), probe(api, SECONDS * 1000)]);
    const lag = await loopLag(api);
    const served = loaded.statuses['200'] ?? 0;
    const cpu = api.cpuMs() - cpuBefore;
    console.log(
      `  ${clients} clients of ${traces ? `traces limit=${perPage}` : `limit=${MAX_LIMIT}`} pages, ${SECONDS} s (load ${loadavg().map((l) => l.toFixed(1)).join(' ')}): ${served} pages (${((loaded.bytes / 1024 / 1024) / SECONDS).toFixed(1)} MB/s), statuses ${JSON.stringify(loaded.statuses)}; ` +
        `API CPU ${(cpu / Math.max(1, served)).toFixed(1)} ms/page (with the probes'); loop delay p99 ${lag.p99.toFixed(1)} max ${lag.max.toFixed(1)} mean ${lag.mean.toFixed(1)} ms`,
    );
    console.log(`    ${probeText(small)}`);

    const walls: number[] = [];
    const cpuWidest = api.cpuMs();
    for (let i = 0; i < 7; i++) {
      const started = performance.now();
      await (await fetch(widest)).arrayBuffer();
      walls.push(performance.now() - started);
    }
    walls.sort((a, b) => a - b);
    console.log(`  largest page (${route} widest, offset ${actions || traces ? 0 : MAX_OFFSET}) alone: wall median ${percentile(walls, 50).toFixed(0)} worst ${walls.at(-1)!.toFixed(0)} ms; API CPU ${((api.cpuMs() - cpuWidest) / 7).toFixed(0)} ms/page`);
  } finally {
    await api.stop();
  }
}
