import { beginCell, external, internal, SendMode, storeMessage, toNano } from '@ton/core';
import type { WalletContractV4 } from '@ton/ton';
import pino from 'pino';
import { configAllAt } from '../../src/chain';
import { loadConfig } from '../../src/config';
import { createLitePool, parseGlobalConfig, trustAnchorOf, type LitePool } from '../../src/liteclient';
import { startLocalnet, type Localnet } from '../../src/localnet';
import { BlockFetcher } from '../../src/indexer/blockFetcher';
import { configHashInUpdate } from '../../src/indexer/blockConfig';
import { McBlockSource } from '../../src/indexer/mcBlockSource';
import { TokenDetector } from '../../src/indexer/tokenDetection';
import { jettonWalletAddress, jettonWalletInit, mintBody } from '../helpers/jetton';

jest.setTimeout(120_000);

/**
 * Token detection runs its get-methods with the block's config. It used to read the config
 * (getConfigAll, a proof of the whole dictionary) at every masterchain block; now a block whose
 * verified state update names the dictionary hash of a config already read reuses that config.
 * On the real local chain: the hash the update names is the proven config's at every block, and
 * blocks that all run detection read the config once.
 */
describe('the config of token detection, by the hash the block names', () => {
  let net: Localnet;
  let pool: LitePool;
  const logger = pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });
  const configReads: number[] = [];

  beforeAll(async () => {
    net = await startLocalnet({ accounts: 2, blockIntervalMs: 3_600_000, shards: 2 });
    const { config } = loadConfig(['--health-interval', '200'], {});
    const servers = parseGlobalConfig(net.globalConfig, 'local chain').map((s) => ({ ...s, archival: true }));
    pool = createLitePool({ servers, anchor: trustAnchorOf(net.globalConfig, 'local chain', undefined) }, config, logger, false);
    // Counts the getConfigAll queries every session of the pool sends (the real lite server answers them).
    const open = pool.openSession.bind(pool);
    pool.openSession = (options, deadline) => {
      const session = open(options, deadline);
      const query = session.liteQuery.bind(session);
      session.liteQuery = (q, check) => {
        if (q.kind === 'liteServer.getConfigAll') configReads.push(Date.now());
        return query(q, check);
      };
      return session;
    };
    await pool.start();
  });

  afterAll(async () => {
    pool?.close();
    await net?.stop();
  });

  it('names the proven config at each block, and a kept config is not read again', async () => {
    const { keyPair } = net.wallets;
    const v4 = net.wallets.wallets.find((w) => w.version === 'v4r2')!;
    // v4 mints its own jetton each round: its jetton wallet is touched in every round's blocks, so
    // detection runs get_wallet_data on it (and asks its claimed master) at each of them.
    const jettonWallet = jettonWalletAddress(v4.address, v4.address);
    const rounds = 4;
    for (let round = 0; round < rounds; round++) {
      const mint = internal({ to: jettonWallet, value: toNano('0.2'), bounce: false, init: jettonWalletInit(v4.address, v4.address), body: mintBody(1_000n, v4.address) });
      const body = (v4.contract as WalletContractV4).createTransfer({ seqno: round, secretKey: keyPair.secretKey, sendMode: SendMode.PAY_GAS_SEPARATELY, messages: [mint] });
      await net.chain.submitExternalMessage(beginCell().store(storeMessage(external({ to: v4.address, body }))).endCell().toBoc());
      await net.chain.seal();
      await net.chain.seal();
    }
    const head = net.chain.lastMasterchainBlock().id.seqno;
    const detector = new TokenDetector();
    const source = new McBlockSource(pool, new BlockFetcher(pool, logger, () => false), logger, detector);
    let previousTops = (await source.head(1)).parsed.shardTops;
    const walletRaw = `0:${jettonWallet.hash.toString('hex').toUpperCase()}`;
    let detectedBlocks = 0;
    let interfaces: readonly string[] = [];
    const session = pool.openSession({}, Date.now() + 60_000);
    const hashes = new Set<string>();
    for (let seqno = 2; seqno <= head; seqno++) {
      const mc = await source.head(seqno);
      // The hash the verified block's update names is the proven config's at that block.
      const named = configHashInUpdate(mc.parsed.block.stateUpdate);
      expect(named).not.toBeNull();
      const readsBefore = configReads.length;
      const proven = await configAllAt(session, mc.id);
      configReads.splice(readsBefore);
      expect(named!.toString('hex')).toBe(proven.hash(0).toString('hex'));
      hashes.add(named!.toString('hex'));

      const prepared = await source.prepare(mc, previousTops);
      previousTops = mc.parsed.shardTops;
      const touchedWallet = prepared.accounts.some((row) => row.account === walletRaw && row.account_status === 'active');
      if (touchedWallet) detectedBlocks++;
      for (const row of prepared.tokens.states.codeInterfaces) if (row.code_hash.equals(prepared.accounts.find((a) => a.account === walletRaw)?.code_hash ?? Buffer.alloc(0))) interfaces = row.interfaces;
    }
    // The local chain keeps its config: one dictionary over the whole run.
    expect(hashes.size).toBe(1);
    // Detection ran in a block of each round (the wallet's get-methods need the config each time)...
    expect(detectedBlocks).toBeGreaterThanOrEqual(rounds);
    expect(interfaces).toContain('jetton_wallet');
    // ...and the config was read once, at the first of them (before: once per such block).
    expect(configReads.length).toBe(1);
    expect(detector.configs.reads).toBe(1);
  });
});
