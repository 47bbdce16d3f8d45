/**
 * Local chain benchmark (2 shards, the default): seal time, getAccountState latency over TCP and
 * the time of a snapshot save, at 100, 1 000 and 10 000 accounts; and memory under --keep-blocks.
 * getAccountState is measured with two clients, each named in the output: an unmodified
 * ton-lite-client (getAccountStateRaw: pure-JS AES, parses the state and the proof), with where
 * its time goes, and our own ADNL client (node:crypto AES, answer not parsed); and the server's
 * part alone (building the answer, no network).
 *
 *   npm run bench:localnet                       # all sizes
 *   npm run bench:localnet -- 1000               # one size
 *   npm run bench:localnet -- memory [blocks] [keep]
 *                                                # RSS every 1 000 blocks while sealing `blocks`
 *                                                # (default 10 000) with --keep-blocks `keep`
 *                                                # (default DEFAULT_KEEP_BLOCKS)
 *
 * Targets at 10 000 accounts: seal with a transfer < 50 ms, getAccountState p50 <= 1 ms; RSS
 * flat once the window is full.
 */
import { Address, beginCell, Cell, external, internal, SendMode, storeMessage, toNano } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { LiteClient, LiteSingleEngine } from 'ton-lite-client';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { Functions } from 'ton-lite-client/dist/schema';
import { ServerEngine } from '../src/liteclient/engine';
import { startLocalnet, type Localnet } from '../src/localnet';
import { createLocalnetHandlers } from '../src/localnet/liteserver/queries';
import { toTlBlockId } from '../src/localnet/liteserver/queries/common';
import { encodeLiteAnswer } from '../src/tl/functions';
import type { BlockIdExt } from '../src/tl';
import { DEFAULT_KEEP_BLOCKS } from '../src/localnet/ledger/retention';
import { MASTERCHAIN } from '../src/localnet/ledger/ids';

interface Figures {
  accounts: number;
  genesisSealMs: number;
  emptySeal: Stats;
  transferSeal: Stats;
  /** ton-lite-client's getAccountStateRaw, whole call, and where its time goes. */
  getAccountState: TonLiteClientFigures;
  /** The same queries on our own ADNL client (native AES), answer not parsed. */
  getAccountStateRaw: Stats;
  /** The server alone: the lite-server handler and the TL encoding of its answer, no network. */
  serverAnswer: Stats;
  save: { bytes: number; saveMs: number; maxStallMs: number; firstSaveMs: number; firstStallMs: number };
}

interface TonLiteClientFigures extends Stats {
  /** Inside its engine.query: request out, answer in and decrypted (aes-js), TL-decoded. */
  roundTrip: Stats;
  /** After it: Cell.fromBoc of state and proof, loadAccount, loadShardStateUnsplit. */
  parse: Stats;
  /** Mean time per call inside aes-js (its AES-CTR, both directions). */
  aesMs: number;
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

  const blockId: BlockIdExt = toTlBlockId(net.chain.lastMasterchainBlock().id);
  const getAccountState = await tonLiteClientFigures(net, filler, blockId);
  const raw = await ourClientLatencies(net, filler, blockId);
  const serverAnswer = await serverAnswerTimes(net, filler, blockId);

  // Saves as --save-interval makes them: encoding in slices with the event loop free between
  // them, the disk work off it; the second save (after 5 more rounds) encodes only the new cells.
  // The longest stall is the figure that matters: the API shares this event loop.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-localnet-'));
  const timedSave = async (): Promise<{ saveMs: number; maxStallMs: number; bytes: number }> => {
    let maxStallMs = 0;
    let lastTick = performance.now();
    const probe = setInterval(() => {
      const now = performance.now();
      maxStallMs = Math.max(maxStallMs, now - lastTick - 5);
      lastTick = now;
    }, 5);
    const started = performance.now();
    await net.save(path.join(dir, 'chain.lnet'));
    const saveMs = performance.now() - started;
    clearInterval(probe);
    return { saveMs, maxStallMs, bytes: fs.statSync(path.join(dir, 'chain.lnet')).size };
  };
  const firstSave = await timedSave();
  for (let i = 0; i < 5; i++) await chain.seal();
  const nextSave = await timedSave();
  fs.rmSync(dir, { recursive: true, force: true });
  await net.stop();
  return {
    save: {
      bytes: nextSave.bytes,
      saveMs: nextSave.saveMs,
      maxStallMs: nextSave.maxStallMs,
      firstSaveMs: firstSave.saveMs,
      firstStallMs: firstSave.maxStallMs,
    },
    accounts: accountCount,
    genesisSealMs,
    emptySeal: stats(emptySeals),
    transferSeal: stats(transferSeals),
    getAccountState,
    getAccountStateRaw: stats(raw.slice(20)),
    serverAnswer: stats(serverAnswer.slice(20)),
  };
}

/** aes-js's AES-CTR, which the adnl package (under ton-lite-client) runs for every byte both ways, timed. */
function timeAesJs(): { ms(): number; restore(): void } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const aesjs = require('aes-js') as { ModeOfOperation: { ctr: { prototype: { encrypt: AesCtr; decrypt: AesCtr } } } };
  const proto = aesjs.ModeOfOperation.ctr.prototype;
  const original = { encrypt: proto.encrypt, decrypt: proto.decrypt };
  let total = 0n;
  const timed = (run: AesCtr): AesCtr =>
    function (this: unknown, data: Uint8Array) {
      const t = process.hrtime.bigint();
      try {
        return run.call(this, data);
      } finally {
        total += process.hrtime.bigint() - t;
      }
    };
  proto.encrypt = timed(original.encrypt);
  proto.decrypt = timed(original.decrypt);
  return {
    ms: () => Number(total) / 1e6,
    restore: () => Object.assign(proto, original),
  };
}

type AesCtr = (this: unknown, data: Uint8Array) => Uint8Array;

/** ton-lite-client's getAccountStateRaw over TCP: the whole call, its round trip (engine.query), its parsing, its AES. */
async function tonLiteClientFigures(net: Localnet, filler: Address[], id: BlockIdExt): Promise<TonLiteClientFigures> {
  const engine = new LiteSingleEngine({ host: `tcp://${net.host}:${net.port}`, publicKey: net.publicKey });
  engine.on('error', () => undefined);
  await new Promise<void>((resolve) => engine.once('ready', () => resolve()));
  let inQuery = 0;
  const query = engine.query.bind(engine);
  engine.query = (async (...args: Parameters<typeof query>) => {
    const t = process.hrtime.bigint();
    try {
      return await query(...args);
    } finally {
      inQuery = ms(t);
    }
  }) as typeof engine.query;
  const client = new LiteClient({ engine });
  const calls: number[] = [];
  const roundTrips: number[] = [];
  const parses: number[] = [];
  const aes = timeAesJs();
  const warmUp = 20;
  let aesAfterWarmUp = 0;
  const count = 320;
  for (let i = 0; i < count; i++) {
    if (i === warmUp) aesAfterWarmUp = aes.ms();
    const address = filler[(i * 7919) % filler.length];
    const t = process.hrtime.bigint();
    const res = await client.getAccountStateRaw(address, id);
    const call = ms(t);
    if (res.balance.coins === 0n) throw new Error('bench account has no balance');
    if (i >= warmUp) {
      calls.push(call);
      roundTrips.push(inQuery);
      parses.push(call - inQuery);
    }
  }
  const aesMs = (aes.ms() - aesAfterWarmUp) / (count - warmUp);
  aes.restore();
  engine.close();
  return { ...stats(calls), roundTrip: stats(roundTrips), parse: stats(parses), aesMs };
}

/** The same queries on our ADNL client (src/liteclient/engine.ts: node:crypto AES), answer not parsed. */
async function ourClientLatencies(net: Localnet, filler: Address[], id: BlockIdExt): Promise<number[]> {
  const ours = new ServerEngine({ host: net.host, port: net.port, publicKey: net.publicKey });
  await ours.waitReady(5000);
  const raw: number[] = [];
  for (let i = 0; i < 320; i++) {
    const address = filler[(i * 7919) % filler.length];
    const t = process.hrtime.bigint();
    const res = await ours.query(Functions.liteServer_getAccountState, {
      kind: 'liteServer.getAccountState',
      id,
      account: { kind: 'liteServer.accountId', workchain: address.workChain, id: address.hash },
    });
    raw.push(ms(t));
    if (res.state.length === 0) throw new Error('bench account has no state');
  }
  ours.close();
  return raw;
}

/** The server's part alone: the handler (proofs, BoCs) and the TL encoding of its answer, no network, no AES. */
async function serverAnswerTimes(net: Localnet, filler: Address[], id: BlockIdExt): Promise<number[]> {
  const handler = createLocalnetHandlers(net.chain)['liteServer.getAccountState'];
  if (!handler) throw new Error('no getAccountState handler');
  const context = { connection: { id: 0, remoteAddress: '127.0.0.1', remotePort: 0 } };
  const times: number[] = [];
  for (let i = 0; i < 320; i++) {
    const address = filler[(i * 7919) % filler.length];
    const t = process.hrtime.bigint();
    const answer = await handler(
      { kind: 'liteServer.getAccountState', id, account: { kind: 'liteServer.accountId', workchain: 0, id: address.hash } },
      context,
    );
    encodeLiteAnswer('liteServer.getAccountState', answer);
    times.push(ms(t));
  }
  return times;
}

/** Seals `blocks` empty rounds with a window of `keep`, printing memory every 1 000. */
async function memory(blocks: number, keep: number): Promise<void> {
  const net = await startLocalnet({ accounts: 10, blockIntervalMs: 0, keepBlocks: keep });
  const mb = (n: number) => (n / 1024 / 1024).toFixed(0);
  process.stdout.write(`sealing ${blocks} rounds (2 shards), --keep-blocks ${keep}\n`);
  process.stdout.write('blocks | RSS MB | heap used MB | external MB | stored mc blocks | ms per seal (last 1 000)\n');
  let started = performance.now();
  for (let i = 1; i <= blocks; i++) {
    await net.chain.seal();
    if (i % 1000 === 0) {
      const msPerSeal = (performance.now() - started) / 1000;
      // With --expose-gc (npm run bench:localnet sets it) the figures are live memory, not garbage.
      (globalThis as { gc?: () => void }).gc?.();
      const m = process.memoryUsage();
      process.stdout.write(
        `${i} | ${mb(m.rss)} | ${mb(m.heapUsed)} | ${mb(m.external)} | ${net.chain.store.blocks(MASTERCHAIN).length} | ${msPerSeal.toFixed(1)}\n`,
      );
      started = performance.now();
    }
  }
  await net.stop();
}

async function main(): Promise<void> {
  if (process.argv[2] === 'memory') {
    await memory(Number(process.argv[3] ?? 10_000), Number(process.argv[4] ?? DEFAULT_KEEP_BLOCKS));
    process.exit(0);
  }
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
  const p50s = (s: Stats) => `${s.p50.toFixed(2)} / ${s.p90.toFixed(2)}`;
  process.stdout.write(
    '\naccounts | empty seal | seal with one transfer (execute + seal) | save: first (every cell, longest event-loop stall), next, file size\n',
  );
  for (const r of results) {
    const save = `${r.save.firstSaveMs.toFixed(0)} ms / stall ${r.save.firstStallMs.toFixed(0)} ms, next ${r.save.saveMs.toFixed(0)} ms / stall ${r.save.maxStallMs.toFixed(0)} ms, ${(r.save.bytes / 1e6).toFixed(1)} MB`;
    process.stdout.write(`${r.accounts} | ${fmt(r.emptySeal)} | ${fmt(r.transferSeal)} | ${save}\n`);
  }
  process.stdout.write(
    '\ngetAccountState, ms p50 / p90 (300 queries, one at a time, at the head block)\n' +
      'accounts | ton-lite-client over TCP: whole call | its engine.query (round trip) | its parsing after it | its aes-js per call (mean) | our ADNL client over TCP, unparsed | server alone: answer built + TL-encoded\n',
  );
  for (const r of results) {
    const lite = r.getAccountState;
    process.stdout.write(
      `${r.accounts} | ${p50s(lite)} | ${p50s(lite.roundTrip)} | ${p50s(lite.parse)} | ${lite.aesMs.toFixed(2)} | ${p50s(r.getAccountStateRaw)} | ${p50s(r.serverAnswer)}\n`,
    );
  }
  const big = results.find((r) => r.accounts === 10000);
  if (big) {
    process.stdout.write(
      `\ntargets at 10 000 accounts: seal < 50 ms (${big.transferSeal.p50.toFixed(2)} ms p50 with a transfer: ${big.transferSeal.p50 < 50 ? 'met' : 'MISSED'}), ` +
        `getAccountState p50 <= 1 ms (${big.getAccountState.p50.toFixed(2)} ms with ton-lite-client: ${big.getAccountState.p50 <= 1 ? 'met' : 'MISSED'}; ` +
        `${big.getAccountStateRaw.p50.toFixed(2)} ms with our ADNL client: ${big.getAccountStateRaw.p50 <= 1 ? 'met' : 'MISSED'}; ` +
        `the server's own part ${big.serverAnswer.p50.toFixed(2)} ms)\n`,
    );
  }
  // ton-lite-client leaves per-query timers behind; do not wait for them.
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
