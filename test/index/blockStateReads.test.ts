import { Address, beginCell, external, internal, SendMode, storeMessage, toNano } from '@ton/core';
import type { WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { accountAt } from '../../src/chain';
import { sameBlock } from '../../src/proofs';
import { type LitePool } from '../../src/liteclient';
import { startLocalnet, type Localnet } from '../../src/localnet';
import { BlockFetcher } from '../../src/indexer/blockFetcher';
import { accountInUpdate, CellMemory, updatedAccounts } from '../../src/indexer/blockStates';
import { McBlockSource, readOfBlockState } from '../../src/indexer/mcBlockSource';
import { parseBlock, type ParsedBlock } from '../../src/indexer/parseBlock';
import { indexMetrics } from '../../src/metrics/indexMetrics';
import { jettonWalletAddress, jettonWalletInit, mintBody } from '../helpers/jetton';
import { startLocalnetPool } from '../helpers/localnetPool';

jest.setTimeout(120_000);

/**
 * Token detection runs get-methods on the account states a block's own state update reveals
 * (readOfBlockState), where it used to read each one again from a lite server. On the real local
 * chain, for every account a masterchain block's blocks touched whose state the update reveals,
 * that read equals the proven lite read at the masterchain block: the account (balance, state),
 * its cell, its last transaction, the shard block and its gen_utime (the get-methods' clock).
 */
describe('account reads from a block state update', () => {
  let net: Localnet;
  let pool: LitePool;
  const logger = pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });

  beforeAll(async () => {
    net = await startLocalnet({ accounts: 2, blockIntervalMs: 3_600_000, shards: 2 });
    pool = await startLocalnetPool(net, logger);
  });

  afterAll(async () => {
    pool?.close();
    await net?.stop();
  });

  it('equal the proven lite reads at the masterchain block, for every revealed account', async () => {
    const { keyPair } = net.wallets;
    const v4 = net.wallets.wallets.find((w) => w.version === 'v4r2')!;
    const v5 = net.wallets.wallets.find((w) => w.version === 'v5r1')!;
    const fresh = () => internal({ to: new Address(0, randomBytes(32)), value: toNano('0.01'), bounce: false });
    // v4 mints its own jetton twice: the second state of its jetton wallet has new data whose
    // reference to the (unchanged) wallet code the update prunes. A bounceable message to a fresh
    // address leaves no account there (the update does not touch the accounts dictionary's path).
    const jettonWallet = jettonWalletAddress(v4.address, v4.address);
    const mint = () => internal({ to: jettonWallet, value: toNano('0.2'), bounce: false, init: jettonWalletInit(v4.address, v4.address), body: mintBody(1_000n, v4.address) });
    const bounced = new Address(0, randomBytes(32));
    for (let round = 0; round < 2; round++) {
      const extra = round === 0 ? [mint()] : [mint(), internal({ to: bounced, value: toNano('0.01'), bounce: true })];
      const v4Body = (v4.contract as WalletContractV4).createTransfer({ seqno: round, secretKey: keyPair.secretKey, sendMode: SendMode.PAY_GAS_SEPARATELY, messages: [fresh(), fresh(), ...extra] });
      await net.chain.submitExternalMessage(beginCell().store(storeMessage(external({ to: v4.address, body: v4Body }))).endCell().toBoc());
      const v5Body = (v5.contract as WalletContractV5R1).createTransfer({ seqno: round, secretKey: keyPair.secretKey, sendMode: SendMode.PAY_GAS_SEPARATELY, messages: Array.from({ length: 6 }, fresh) });
      await net.chain.submitExternalMessage(beginCell().store(storeMessage(external({ to: v5.address, body: v5Body }))).endCell().toBoc());
      await net.chain.seal();
      await net.chain.seal();
    }
    const head = net.chain.lastMasterchainBlock().id.seqno;
    const fetcher = new BlockFetcher(pool, logger, () => false);
    const source = new McBlockSource(pool, fetcher, logger);
    let previousTops = (await source.head(1)).parsed.shardTops;
    const memory = new CellMemory();
    let compared = 0;
    let active = 0;
    const liteReads = async () => (await indexMetrics.accountStates.get()).values.find((v) => v.labels['source'] === 'lite_server')?.value ?? 0;
    const jettonStates: bigint[] = [];
    let secondJettonStateReads = -1;
    let bouncedRows = 0;
    for (let seqno = 2; seqno <= head; seqno++) {
      const mc = await source.head(seqno);
      const readsBefore = await liteReads();
      const prepared = await source.prepare(mc, previousTops);
      const reads = (await liteReads()) - readsBefore;
      for (const row of prepared.accounts) {
        if (row.account === `0:${jettonWallet.hash.toString('hex').toUpperCase()}` && row.balance > 0n && jettonStates.length === 1) secondJettonStateReads = reads;
        if (row.account === `0:${bounced.hash.toString('hex').toUpperCase()}`) {
          // As a lite read of a nonexistent account gives it.
          expect(row.account_status).toBe('nonexist');
          expect(row.last_trans_lt).toBeNull();
          bouncedRows++;
        }
      }
      previousTops = mc.parsed.shardTops;
      // A prepared block keeps no cell tree: the shard blocks' trees (their state updates) fetched again.
      const shardTrees = await Promise.all(prepared.shardBlocks.map(async (b) => parseBlock(b.id, await fetcher.fetch(b.id), seqno)));
      const blocks: ParsedBlock[] = [mc.parsed, ...shardTrees];
      // Each account's last transaction in this masterchain block, and the block holding it.
      const last = new Map<string, { address: Address; lt: bigint; block: ParsedBlock }>();
      for (const block of blocks) {
        for (const tx of block.transactions) {
          const known = last.get(tx.row.account);
          if (!known || tx.row.lt > known.lt) last.set(tx.row.account, { address: tx.address, lt: tx.row.lt, block });
        }
      }
      const session = pool.openSession({}, Date.now() + 30_000);
      for (const { address, lt, block } of last.values()) {
        const accounts = updatedAccounts(block.block.stateUpdate);
        const state = accounts ? accountInUpdate(accounts.root, address, lt, memory) : undefined;
        if (!state) {
          // As the pipeline: an unchanged code or data cell the update prunes comes from a proven read once.
          const read = await accountAt(session, mc.id, address);
          const init = read.account?.storage.state.type === 'active' ? read.account.storage.state.state : null;
          memory.rememberCell(init?.code);
          memory.rememberCell(init?.data);
          continue;
        }
        const fromBlock = readOfBlockState(address, state, mc.id, blocks);
        expect(fromBlock).toBeDefined();
        const lite = await accountAt(session, mc.id, address);
        expect(sameBlock(fromBlock!.shardBlock, lite.shardBlock)).toBe(true);
        expect(fromBlock!.syncUtime).toBe(lite.syncUtime);
        // Level 0: the update's cell holds pruned branches (unchanged code), the same cell's higher hashes differ.
        expect(fromBlock!.accountCell?.hash(0).toString('hex')).toBe(lite.accountCell?.hash(0).toString('hex'));
        // The code and data the get-methods run on are complete: the very cells the lite read sends.
        const code = (r: typeof lite) => (r.account?.storage.state.type === 'active' ? r.account.storage.state.state.code : undefined);
        const data = (r: typeof lite) => (r.account?.storage.state.type === 'active' ? r.account.storage.state.state.data : undefined);
        expect(code(fromBlock!)?.hash().toString('hex')).toBe(code(lite)?.hash().toString('hex'));
        expect(data(fromBlock!)?.hash().toString('hex')).toBe(data(lite)?.hash().toString('hex'));
        expect(fromBlock!.account?.storage.balance.coins).toBe(lite.account?.storage.balance.coins);
        expect(fromBlock!.account?.storage.state.type).toBe(lite.account?.storage.state.type);
        expect(fromBlock!.lastTransaction?.lt).toBe(lite.lastTransaction?.lt);
        // (None for an account that does not exist: a bounced message's fresh address.)
        if (lite.lastTransaction) expect(Buffer.from(fromBlock!.lastTransaction!.hash as Buffer).equals(lite.lastTransaction.hash as Buffer)).toBe(true);
        else expect(fromBlock!.lastTransaction).toBeNull();
        if (lite.account?.storage.state.type === 'active') active++;
        if (address.equals(jettonWallet)) jettonStates.push(lite.account!.storage.balance.coins);
        compared++;
      }
    }
    // The wallets (active) and the fresh receivers (uninit), masterchain accounts too.
    expect(compared).toBeGreaterThanOrEqual(16);
    expect(active).toBeGreaterThanOrEqual(2);
    // Both states of the jetton wallet came from the blocks (the second one rebuilt around its pruned code).
    expect(jettonStates.length).toBe(2);
    expect(bouncedRows).toBe(1);
    // The pipeline read no account of that block from a lite server: every state was in the block.
    expect(secondJettonStateReads).toBe(0);
  });
});
