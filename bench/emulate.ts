/**
 * emulateTrace on the embedded chain (issue 26): a wallet transfer (2 transactions) and a jetton
 * transfer with a forward payload (5 transactions), each emulated over and over: latency p50/p99
 * one request at a time, then traces per second with 4 clients, with the default TVM threads.
 *
 *   npm run bench -- emulate            (EMULATE_REQUESTS=200 per measurement by default)
 *
 * Target (issue 26): jetton transfer p50 <= 50 ms on the local chain.
 */
import { beginCell, Cell, external, internal, SendMode, storeMessage, toNano } from '@ton/core';
import { TonClient, WalletContractV4 } from '@ton/ton';
import pino from 'pino';
import { loadConfig } from '../src/config';
import { startLocalnetSource } from '../src/localnetSource';
import { startServer } from '../src/server';
import { jettonTransferBody, jettonWalletAddress, jettonWalletInit, mintBody } from '../test/helpers/jetton';
import { transferFromWallet } from '../test/helpers/walletActions';

const CLIENTS = 4;

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!;
}

async function emulateOnce(url: string, boc: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${url}/api/emulate/v1/emulateTrace`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ boc }) });
  const body = (await res.json()) as { transactions?: Record<string, unknown>; error?: string };
  if (res.status !== 200) throw new Error(`emulateTrace answered ${res.status}: ${body.error}`);
  return performance.now() - started;
}

async function measure(label: string, url: string, boc: string, requests: number, transactions: number): Promise<void> {
  for (let i = 0; i < 5; i++) await emulateOnce(url, boc);
  const times: number[] = [];
  for (let i = 0; i < requests; i++) times.push(await emulateOnce(url, boc));
  times.sort((a, b) => a - b);
  const started = performance.now();
  let done = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (done < requests) {
        done++;
        await emulateOnce(url, boc);
      }
    }),
  );
  const perSecond = (done / (performance.now() - started)) * 1000;
  console.log(
    `  ${label.padEnd(34)} ${transactions} txs: p50 ${percentile(times, 0.5).toFixed(1)} ms, p99 ${percentile(times, 0.99).toFixed(1)} ms (1 client); ` +
      `${perSecond.toFixed(1)} traces/s (${CLIENTS} clients)`,
  );
}

export async function runEmulateBench(): Promise<void> {
  const requests = Number(process.env['EMULATE_REQUESTS'] ?? 200);
  const { config } = loadConfig(['--index', 'off', '--port', '0', '--keyless-rps', '0', '--accounts', '2', '--block-interval', '600000', '--cache-size', '0'], {});
  const logger = pino({ level: 'silent' });
  const source = await startLocalnetSource(config, logger);
  const server = await startServer(config, logger, source);
  try {
    const api = `${server.url}/api/v2`;
    const client = new TonClient({ endpoint: `${api}/jsonRPC` });
    const { keyPair, wallets } = source.localnet.wallets;
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: keyPair.publicKey });
    const receiver = wallets.find((w) => w.address.hash[0]! >> 7 !== wallet.address.hash[0]! >> 7)?.address ?? wallets[1]!.address;
    const ours = jettonWalletAddress(wallet.address, wallet.address);
    await transferFromWallet(client, keyPair, [
      internal({ to: ours, value: toNano('0.2'), bounce: false, init: jettonWalletInit(wallet.address, wallet.address), body: mintBody(1_000_000n, wallet.address) }),
    ]);
    const seqno = await client.open(wallet).getSeqno();
    const signed = (body: Cell): string =>
      beginCell()
        .store(storeMessage(external({ to: wallet.address, body })))
        .endCell()
        .toBoc()
        .toString('base64');
    const transfer = wallet.createTransfer({
      seqno,
      secretKey: keyPair.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS,
      messages: [internal({ to: receiver, value: toNano('1'), bounce: true })],
      timeout: Math.floor(Date.now() / 1000) + 3600,
    });
    const jetton = wallet.createTransfer({
      seqno,
      secretKey: keyPair.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS,
      timeout: Math.floor(Date.now() / 1000) + 3600,
      messages: [
        internal({
          to: ours,
          value: toNano('0.3'),
          bounce: true,
          body: jettonTransferBody({
            amount: 100n,
            to: receiver,
            responseTo: wallet.address,
            forwardTon: toNano('0.05'),
            forwardPayload: beginCell().storeUint(0, 32).storeStringTail('bench').endCell(),
          }),
        }),
      ],
    });
    console.log(`emulate: emulateTrace on the embedded chain, ${config.tvmWorkers} TVM threads, ${requests} requests per figure`);
    await measure('wallet transfer (other shard)', server.url, signed(transfer), requests, 2);
    await measure('jetton transfer, forward payload', server.url, signed(jetton), requests, 5);
  } finally {
    await server.stop();
  }
}
