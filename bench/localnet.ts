/**
 * Local chain benchmark: seal time and getAccountState latency (through an unmodified
 * ton-lite-client over TCP) at 100, 1 000 and 10 000 accounts.
 *
 *   npm run bench:localnet            # all sizes
 *   npm run bench:localnet -- 1000    # one size
 *
 * Targets at 10 000 accounts: seal < 50 ms, getAccountState p50 < 2 ms.
 */
import { Address, beginCell, Cell, external, internal, SendMode, storeMessage, toNano } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { LiteClient, LiteSingleEngine } from 'ton-lite-client';
import { startLocalnet } from '../src/localnet';

interface Figures {
  accounts: number;
  genesisSealMs: number;
  emptySeal: Stats;
  transferSeal: Stats;
  getAccountState: Stats;
}

interface Stats {
  p50: number;
  p90: number;
  max: number;
}

function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { p50: at(0.5), p90: at(0.9), max: sorted[sorted.length - 1] };
}

function ms(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

async function measure(accountCount: number): Promise<Figures> {
  // One funded wallet per version is enough to send transfers; the rest are plain accounts.
  const net = await startLocalnet({ accounts: 1, blockIntervalMs: 0 });
  const chain = net.chain;
  const filler: Address[] = [];
  const entries = [];
  for (let i = 0; i < accountCount; i++) {
    const init = { code: beginCell().storeUint(0x00, 8).endCell(), data: beginCell().storeUint(i, 32).endCell() };
    const address = new Address(
      0,
      beginCell()
        .store((b) => b.storeRef(init.code).storeRef(init.data))
        .endCell()
        .hash(),
    );
    filler.push(address);
    entries.push({ address, init, balance: toNano('1') });
  }
  // Deploys in batches so sandbox's per-message cost dominates, not one giant seal.
  const genesisStart = process.hrtime.bigint();
  for (let i = 0; i < entries.length; i += 1000) {
    await chain.deployGenesis(entries.slice(i, i + 1000));
  }
  const deployMs = ms(genesisStart);
  const sealStart = process.hrtime.bigint();
  await chain.seal();
  const genesisSealMs = ms(sealStart);
  process.stdout.write(`  ${accountCount} accounts deployed in ${deployMs.toFixed(0)} ms, sealed in ${genesisSealMs.toFixed(0)} ms\n`);

  const emptySeals: number[] = [];
  for (let i = 0; i < 30; i++) {
    const t = process.hrtime.bigint();
    await chain.seal();
    emptySeals.push(ms(t));
  }

  const wallet = net.wallets.wallets.find((w) => w.version === 'v4r2')!.contract as WalletContractV4;
  const transferSeals: number[] = [];
  for (let seqno = 0; seqno < 20; seqno++) {
    const body: Cell = wallet.createTransfer({
      seqno,
      secretKey: net.wallets.keyPair.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [internal({ to: filler[seqno % filler.length], value: toNano('0.01'), bounce: false })],
    });
    const boc = beginCell()
      .store(storeMessage(external({ to: wallet.address, body })))
      .endCell()
      .toBoc();
    const t = process.hrtime.bigint();
    await chain.sendExternalMessage(boc);
    transferSeals.push(ms(t));
  }

  const engine = new LiteSingleEngine({ host: `tcp://${net.host}:${net.port}`, publicKey: net.publicKey });
  engine.on('error', () => undefined);
  await new Promise<void>((resolve) => engine.once('ready', () => resolve()));
  const client = new LiteClient({ engine });
  const last = (await client.getMasterchainInfo()).last;
  const latencies: number[] = [];
  for (let i = 0; i < 300; i++) {
    const address = filler[(i * 7919) % filler.length];
    const t = process.hrtime.bigint();
    const res = await client.getAccountStateRaw(address, last);
    latencies.push(ms(t));
    if (res.balance.coins === 0n) throw new Error('bench account has no balance');
  }
  engine.close();
  await net.stop();
  return {
    accounts: accountCount,
    genesisSealMs,
    emptySeal: stats(emptySeals),
    transferSeal: stats(transferSeals),
    getAccountState: stats(latencies.slice(20)),
  };
}

async function main(): Promise<void> {
  const sizes = process.argv
    .slice(2)
    .map(Number)
    .filter((n) => n > 0);
  const results: Figures[] = [];
  for (const size of sizes.length > 0 ? sizes : [100, 1000, 10000]) {
    process.stdout.write(`measuring ${size} accounts...\n`);
    results.push(await measure(size));
  }
  const fmt = (s: Stats) => `p50 ${s.p50.toFixed(2)} / p90 ${s.p90.toFixed(2)} / max ${s.max.toFixed(2)} ms`;
  process.stdout.write('\naccounts | empty seal | seal with one transfer (execute + seal) | getAccountState over TCP\n');
  for (const r of results) {
    process.stdout.write(`${r.accounts} | ${fmt(r.emptySeal)} | ${fmt(r.transferSeal)} | ${fmt(r.getAccountState)}\n`);
  }
  const big = results.find((r) => r.accounts === 10000);
  if (big) {
    process.stdout.write(
      `\ntargets at 10 000 accounts: seal < 50 ms (${big.transferSeal.p50.toFixed(2)} ms p50 with a transfer: ${big.transferSeal.p50 < 50 ? 'met' : 'MISSED'}), ` +
        `getAccountState p50 < 2 ms (${big.getAccountState.p50.toFixed(2)} ms: ${big.getAccountState.p50 < 2 ? 'met' : 'MISSED'})\n`,
    );
  }
  // ton-lite-client leaves per-query timers behind; do not wait for them.
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
