/**
 * What checking lite-server answers costs (issue 13): uncached getAddressInformation and
 * getTransactions through two API servers over the same embedded chain, one checking every
 * proof, one with `--trust-liteservers`, in one run. Target: checked >= 0.7x unchecked.
 *
 *   npm run bench -- proofs        (PROOFS_BENCH_ROUNDS=50 for a quick look)
 */
import { beginCell, external, internal, SendMode, storeMessage, toNano } from '@ton/core';
import type { WalletContractV4 } from '@ton/ton';
import pino from 'pino';
import { loadConfig } from '../src/config';
import type { Localnet } from '../src/localnet';
import { startLocalnetSource } from '../src/localnetSource';
import { startServer, type RunningServer } from '../src/server';
import { drive, rpcCall, type Figures } from './api';

const ROUNDS = Number(process.env['PROOFS_BENCH_ROUNDS'] ?? 400);
const WARMUP = Math.min(30, ROUNDS);
const CONCURRENCY = 4;
/** Transactions in the account's history, and how many getTransactions asks for. */
const HISTORY = 12;
const TX_LIMIT = 10;

/** HISTORY transfers from wallet 0 so that getTransactions walks a real chain of hashes. */
async function makeHistory(net: Localnet): Promise<void> {
  const wallet = net.wallets.wallets[0]!.contract as WalletContractV4;
  for (let seqno = 0; seqno < HISTORY; seqno++) {
    const body = wallet.createTransfer({
      seqno,
      secretKey: net.wallets.keyPair.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [internal({ to: net.wallets.wallets[1]!.address, value: toNano('0.01') })],
    });
    await net.chain.sendExternalMessage(
      beginCell()
        .store(storeMessage(external({ to: wallet.address, body })))
        .endCell()
        .toBoc(),
    );
  }
  await net.chain.seal();
}

function line(name: string, mode: string, figures: Figures): string {
  return `${name.padEnd(22)} ${mode.padEnd(10)} ${figures.perSecond.toFixed(0).padStart(8)} ${figures.p50.toFixed(2).padStart(8)} ${figures.p99.toFixed(2).padStart(8)}`;
}

export async function runProofsBench(): Promise<void> {
  const logger = pino({ level: 'silent' });
  const base = [
    '--port',
    '0',
    '--metrics-port',
    '0',
    '--keyless-rps',
    '0',
    '--cache-size',
    '0',
    '--accounts',
    '2',
    '--log-level',
    'silent',
  ];
  const source = await startLocalnetSource(loadConfig([...base, '--block-interval', '0'], {}).config, logger);
  const servers: RunningServer[] = [];
  const lines: string[] = [];
  try {
    await makeHistory(source.localnet);
    const checked = await startServer(loadConfig(base, {}).config, logger, { ...source, stop: async () => undefined });
    servers.push(checked);
    const trusting = await startServer(loadConfig([...base, '--trust-liteservers'], {}).config, logger, {
      ...source,
      stop: async () => undefined,
    });
    servers.push(trusting);
    const address = source.localnet.wallets.wallets[0]!.address.toString();
    const calls: [string, string, Record<string, unknown>][] = [
      ['getAddressInformation', 'getAddressInformation', { address }],
      [`getTransactions ${TX_LIMIT}`, 'getTransactions', { address, limit: TX_LIMIT }],
    ];
    for (const [name, method, params] of calls) {
      const via = (server: RunningServer) => () => rpcCall(`${server.url}/api/v2/jsonRPC`, method, params);
      await drive(WARMUP, CONCURRENCY, via(checked));
      await drive(WARMUP, CONCURRENCY, via(trusting));
      const on = await drive(ROUNDS, CONCURRENCY, via(checked));
      const off = await drive(ROUNDS, CONCURRENCY, via(trusting));
      lines.push(
        line(name, 'checked', on),
        line(name, 'trusted', off),
        `${''.padEnd(22)} ${'ratio'.padEnd(10)} ${(on.perSecond / off.perSecond).toFixed(2).padStart(8)}x   (target >= 0.70x)`,
      );
    }
  } finally {
    for (const server of servers) await server.stop();
    await source.stop();
  }
  console.log(`Proof checks vs --trust-liteservers, uncached, on the local chain (${ROUNDS} requests each, ${CONCURRENCY} in flight)`);
  console.log(`${'query'.padEnd(22)} ${'mode'.padEnd(10)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)}`);
  for (const text of lines) console.log(text);
}
