/**
 * What the HTTP API costs on top of the lite server, on the embedded chain:
 * getAddressInformation, runGetMethod (`seqno`) and sendBoc (signed wallet transfers), each made
 * through the server (JSON-RPC over keep-alive HTTP) and, in the same run, directly with an
 * unmodified ton-lite-client LiteClient over ADNL/TCP to the same lite server.
 *
 *   npm run bench -- api
 *
 * Direct equivalents: getMasterchainInfo + getAccountState; getMasterchainInfo + runMethod
 * (liteServer.runSmcMethod, executed by the lite server, where the API runs the method itself in
 * the emulator on the downloaded state); sendMessage. The API runs with its response cache off
 * (`--cache-size 0`): every read goes to the lite server, as the direct one does. The ratio row is
 * API / LiteClient: req/s (>= 1 is the API faster) and p50, p99 (<= 1 is the API faster).
 */
import http from 'node:http';
import { beginCell, external, internal, SendMode, storeMessage, toNano } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import pino from 'pino';
import { LiteClient, LiteSingleEngine } from 'ton-lite-client';
import { loadConfig } from '../src/config';
import { startLocalnetSource } from '../src/localnetSource';
import { startServer } from '../src/server';

const READ_ROUNDS = 400;
const SEND_ROUNDS = 80;
const WARMUP = 30;
const CONCURRENCY = 4;

export interface Figures {
  perSecond: number;
  p50: number;
  p99: number;
}

/** Runs `rounds` calls of `call(i)` with `concurrency` in flight; latency per call, throughput overall. */
export async function drive(rounds: number, concurrency: number, call: (i: number, lane: number) => Promise<void>): Promise<Figures> {
  const samples: number[] = [];
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, lane) => {
      for (;;) {
        const i = next++;
        if (i >= rounds) return;
        const t = process.hrtime.bigint();
        await call(i, lane);
        samples.push(Number(process.hrtime.bigint() - t) / 1e6);
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;
  return { perSecond: rounds / seconds, p50: at(0.5), p99: at(0.99) };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

export function rpcCall(url: string, method: string, params: Record<string, unknown>): Promise<void> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', agent, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 200) reject(new Error(`${method}: HTTP ${res.statusCode} ${text.slice(0, 200)}`));
          else resolve();
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function row(name: string, path: string, figures: Figures): string {
  return `${name.padEnd(22)} ${path.padEnd(11)} ${figures.perSecond.toFixed(0).padStart(8)} ${figures.p50.toFixed(2).padStart(8)} ${figures.p99.toFixed(2).padStart(8)}`;
}

export async function runApiBench(): Promise<void> {
  const walletsNeeded = CONCURRENCY;
  const { config } = loadConfig(
    ['--index', 'off', '--port', '0', '--metrics-port', '0', '--keyless-rps', '0', '--cache-size', '0', '--accounts', String(walletsNeeded), '--log-level', 'silent'],
    {},
  );
  const logger = pino({ level: 'silent' });
  const source = await startLocalnetSource(config, logger);
  const server = await startServer(config, logger, source);
  const url = `${server.url}/api/v2/jsonRPC`;
  const net = source.localnet;
  const engine = new LiteSingleEngine({ host: `tcp://${net.host}:${net.port}`, publicKey: net.publicKey });
  engine.on('error', () => undefined);
  await new Promise<void>((resolve) => engine.once('ready', () => resolve()));
  // No caching between calls: the API builds a fresh LiteClient per request too.
  const noCache = { get: () => undefined, set: () => undefined, delete: () => undefined, clear: () => undefined };
  const lite = new LiteClient({ engine, cacheMap: () => noCache });

  const v4 = net.wallets.wallets.filter((w) => w.version === 'v4r2');
  const target = v4[0].address;
  const lines: string[] = [];
  const compare = async (
    name: string,
    rounds: number,
    concurrency: number,
    viaHttp: (i: number, lane: number) => Promise<void>,
    direct: (i: number, lane: number) => Promise<void>,
  ) => {
    await drive(Math.min(WARMUP, rounds), concurrency, viaHttp);
    await drive(Math.min(WARMUP, rounds), concurrency, direct);
    const h = await drive(rounds, concurrency, viaHttp);
    const d = await drive(rounds, concurrency, direct);
    lines.push(
      row(name, 'http', h),
      row(name, 'liteclient', d),
      `${''.padEnd(22)} ${'ratio'.padEnd(11)} ${(h.perSecond / d.perSecond).toFixed(2).padStart(8)}x ${(h.p50 / d.p50).toFixed(2).padStart(7)}x ${(h.p99 / d.p99).toFixed(2).padStart(7)}x`,
    );
  };

  try {
    await compare(
      'getAddressInformation',
      READ_ROUNDS,
      CONCURRENCY,
      () => rpcCall(url, 'getAddressInformation', { address: target.toString() }),
      async () => {
        const head = (await lite.getMasterchainInfo()).last;
        await lite.getAccountStateRaw(target, head);
      },
    );
    await compare(
      'runGetMethod seqno',
      READ_ROUNDS,
      CONCURRENCY,
      () => rpcCall(url, 'runGetMethod', { address: target.toString(), method: 'seqno', stack: [] }),
      async () => {
        const head = (await lite.getMasterchainInfo()).last;
        await lite.runMethod(target, 'seqno', Buffer.alloc(0), head);
      },
    );

    // sendBoc: one stream of pre-signed transfers per wallet (seqnos must follow each other).
    const keyPair = net.wallets.keyPair;
    const lanes = v4
      .slice(0, CONCURRENCY)
      .map((w) => WalletContractV4.create({ workchain: 0, publicKey: keyPair.publicKey, walletId: w.walletId }));
    lanes.forEach((wallet, i) => {
      if (!wallet.address.equals(v4[i]!.address)) throw new Error('bench wallets do not match the funded ones');
    });
    const nextSeqno = lanes.map(() => 0);
    const signed = (lane: number): Buffer => {
      const wallet = lanes[lane]!;
      const body = wallet.createTransfer({
        seqno: nextSeqno[lane]++,
        secretKey: keyPair.secretKey,
        sendMode: SendMode.PAY_GAS_SEPARATELY,
        messages: [internal({ to: target, value: toNano('0.001') })],
      });
      return beginCell()
        .store(storeMessage(external({ to: wallet.address, body })))
        .endCell()
        .toBoc();
    };
    await compare(
      'sendBoc transfer',
      SEND_ROUNDS,
      CONCURRENCY,
      (_, lane) => rpcCall(url, 'sendBoc', { boc: signed(lane).toString('base64') }),
      async (_, lane) => {
        const answer = await lite.sendMessage(signed(lane));
        if (answer.status !== 1) throw new Error(`sendMessage status ${answer.status}`);
      },
    );
  } finally {
    engine.close();
    agent.destroy();
    await server.stop();
  }

  console.log(`API vs direct LiteClient on the local chain (${READ_ROUNDS} reads / ${SEND_ROUNDS} sends each, ${CONCURRENCY} in flight)`);
  console.log(`${'query'.padEnd(22)} ${'path'.padEnd(11)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)}`);
  for (const line of lines) console.log(line);
}
