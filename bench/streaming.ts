/**
 * `npm run bench -- streaming`: the Streaming API under subscribers, on the whole product (the
 * embedded chain at --block-interval 300, the index in PostgreSQL, the API) in this process and
 * the subscribers in a child process (bench/streamingClients.ts).
 *
 * For N = 1, 100, 1 000 SSE connections (BENCH_STREAMING_CLIENTS, comma-separated), each
 * subscribed to `transactions` of 5 addresses of its own: transfers of 4 messages every 200 ms
 * (20 matching transactions/s, BENCH_STREAMING_SECONDS long, default 15), each message to an
 * address of another connection. Reported: transactions received of those sent (lost), from the
 * masterchain block's seal to the event's arrival at the subscriber p50/p99, and this process's
 * RSS before the subscribers and at the end, with the machine's load.
 * Targets (issue 25): p99 <= 100 ms with one client, <= 200 ms and RSS growth <= 150 MB with 1 000,
 * no event lost.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { Address, beginCell, external, internal, SendMode, storeMessage, toNano } from '@ton/core';
import type { WalletContractV4 } from '@ton/ton';
import pg from 'pg';
import pino from 'pino';
import { loadConfig } from '../src/config';
import type { Localnet } from '../src/localnet';
import { startLocalnetSource } from '../src/localnetSource';
import { startServer, type RunningServer } from '../src/server';
import type { Arrival } from './streamingClients';

const CLIENTS = (process.env['BENCH_STREAMING_CLIENTS'] ?? '1,100,1000').split(',').map(Number);
const SECONDS = Number(process.env['BENCH_STREAMING_SECONDS'] ?? 15);
const SEND_EVERY_MS = 200;
const MESSAGES_PER_TRANSFER = 4;
const ADMIN_URL = process.env['BENCH_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const rssMb = () => Math.round(process.memoryUsage().rss / 1024 / 1024);
const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function waitFor(check: () => boolean, what: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function message<T>(child: ChildProcess, kind: string, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the subscribers did not answer ${kind}`)), ms);
    const onMessage = (m: { kind: string }) => {
      if (m.kind !== kind) return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve(m as T);
    };
    child.on('message', onMessage);
  });
}

async function run(net: Localnet, server: RunningServer, clients: number, seqno: { next: number }): Promise<void> {
  const groups = Array.from({ length: clients }, () => Array.from({ length: 5 }, () => `0:${randomBytes(32).toString('hex').toUpperCase()}`));
  const child = fork(path.join(__dirname, 'streamingClients.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const rssBefore = rssMb();
    child.send({ kind: 'start', start: { url: server.url, groups } });
    const connected = await message<{ connected: number; failed: number }>(child, 'connected', 300_000);
    const rssConnected = rssMb();
    const sealedAt = new Map<number, number>();
    const committedAt = new Map<number, number>();
    const off = net.chain.onBlock((block) => {
      if (block.id.workchain === -1) sealedAt.set(block.id.seqno, Date.now());
    });
    const offIndex = server.services.index!.onBlock((block) => committedAt.set(block.mcSeqno, Date.now()));
    const wallet = net.wallets.wallets.find((w) => w.version === 'v4r2' && w.index === 0)!;
    const contract = wallet.contract as WalletContractV4;
    const end = Date.now() + SECONDS * 1000;
    let k = 0;
    let sent = 0;
    while (Date.now() < end) {
      const tick = Date.now();
      const messages = Array.from({ length: MESSAGES_PER_TRANSFER }, () => {
        const to = groups[k % clients]![Math.floor(k / clients) % 5]!;
        k++;
        return internal({ to: Address.parseRaw(to), value: toNano('0.001'), bounce: false });
      });
      const body = contract.createTransfer({ seqno: seqno.next++, secretKey: net.wallets.keyPair.secretKey, sendMode: SendMode.PAY_GAS_SEPARATELY, messages });
      await net.chain.submitExternalMessage(beginCell().store(storeMessage(external({ to: wallet.address, body }))).endCell().toBoc());
      sent += MESSAGES_PER_TRANSFER;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, SEND_EVERY_MS - (Date.now() - tick))));
    }
    // Everything sent lands in the next timed block; then it is indexed and published.
    const head = net.chain.lastMasterchainBlock().id.seqno + 1;
    await waitFor(() => (server.services.streaming!.bus.lastSeqno ?? 0) >= head, `block ${head} published`, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    off();
    offIndex();
    const rssEnd = rssMb();
    const answer = message<{ arrivals: Arrival[]; failed: number }>(child, 'arrivals', 60_000);
    child.send({ kind: 'stop' });
    const { arrivals } = await answer;
    const latencies = arrivals.flatMap((a) => (sealedAt.has(a.seqno) ? [a.at - sealedAt.get(a.seqno)!] : []));
    // The index's part (seal -> commit, per block) and streaming's own (commit -> client, per event).
    const indexing = [...committedAt].flatMap(([s, at]) => (sealedAt.has(s) ? [at - sealedAt.get(s)!] : []));
    const streaming = arrivals.flatMap((a) => (committedAt.has(a.seqno) ? [a.at - committedAt.get(a.seqno)!] : []));
    const received = arrivals.reduce((n, a) => n + a.transactions, 0);
    console.log(
      `  ${clients} SSE client(s) (${connected.connected} subscribed, ${connected.failed} refused): ${received} of ${sent} transactions received ` +
        `(${sent - received} lost) in ${arrivals.length} events; seal -> client p50 ${percentile(latencies, 50).toFixed(0)} ms, ` +
        `p99 ${percentile(latencies, 99).toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms ` +
        `(seal -> commit p50/p99 ${percentile(indexing, 50).toFixed(0)}/${percentile(indexing, 99).toFixed(0)} ms; ` +
        `commit -> client p50/p99 ${percentile(streaming, 50).toFixed(0)}/${percentile(streaming, 99).toFixed(0)} ms); ` +
        `server RSS ${rssBefore} MB before, ${rssConnected} MB subscribed, ${rssEnd} MB at the end (+${rssEnd - rssBefore} MB); load ${load()}`,
    );
  } finally {
    child.kill();
  }
}

export async function runStreamingBench(): Promise<void> {
  console.log(`streaming bench (${cpus().length} cores, load ${load()}; ${SECONDS} s at ${(MESSAGES_PER_TRANSFER * 1000) / SEND_EVERY_MS} matching tx/s per run)`);
  const name = `bench_streaming_${Date.now()}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const logger = pino({ level: 'silent' });
  const { config } = loadConfig(
    [
      '--port', '0', '--metrics-port', '0', '--keyless-rps', '0', '--accounts', '1', '--block-interval', '300',
      '--index', 'on', '--database-url', url.toString(), '--stream-keyless-connections', '0',
    ],
    {},
  );
  const source = await startLocalnetSource(config, logger);
  const server = await startServer(config, logger, source);
  try {
    const index = server.services.index!;
    await waitFor(
      () => index.health().status.state === 'live' && (server.services.streaming!.bus.lastSeqno ?? -1) >= (index.health().status.committedMcSeqno ?? 0) - 1,
      'the index and streaming live',
      180_000,
    );
    const seqno = { next: 0 };
    for (const clients of CLIENTS) await run(source.localnet, server, clients, seqno);
  } finally {
    await server.stop();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
