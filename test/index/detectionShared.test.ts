import { beginCell, type Cell, external, internal, SendMode, storeMessage, toNano } from '@ton/core';
import type { WalletContractV4 } from '@ton/ton';
import pino from 'pino';
import { type LitePool } from '../../src/liteclient';
import { startLocalnet, type Localnet } from '../../src/localnet';
import { BlockFetcher } from '../../src/indexer/blockFetcher';
import { McBlockSource, type PreparedMcBlock } from '../../src/indexer/mcBlockSource';
import { TokenDetector, type BlockTokens } from '../../src/indexer/tokenDetection';
import { tvmRuns } from '../../src/metrics';
import { jettonWalletAddress, jettonWalletInit, mintBody } from '../helpers/jetton';
import { startLocalnetPool } from '../helpers/localnetPool';

jest.setTimeout(180_000);

const WALLETS = 6;

/**
 * A code hash is classified once (src/indexer/tokenDetection.ts): the accounts of a new code,
 * in one block or in blocks the pipeline detects at once, wait for the first one's answers
 * instead of each running every interface's get-methods. Before, 6 new jetton wallets of one
 * code in a block (and 6 wallets of a code not yet known) made one classification per account
 * started before the first finished, each writing its own code_interfaces row. On the real local
 * chain, its blocks detected two at a time by one detector, as the pipeline's fetch-ahead does.
 */
describe('token detection classifies a new code once', () => {
  let net: Localnet;
  let pool: LitePool;
  const logger = pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });
  /** Blocks in which the jetton wallets were touched, prepared without detection. */
  /** Prepared blocks with their masterchain block's state update (a prepared block keeps no cell tree). */
  const blocks: (PreparedMcBlock & { stateUpdate: Cell })[] = [];

  beforeAll(async () => {
    net = await startLocalnet({ accounts: WALLETS, blockIntervalMs: 3_600_000, shards: 2 });
    pool = await startLocalnetPool(net, logger);
    const { keyPair } = net.wallets;
    const v4 = net.wallets.wallets.filter((w) => w.version === 'v4r2');
    // Two rounds: every wallet mints its own jetton (its jetton wallet deployed, then touched again).
    for (let round = 0; round < 2; round++) {
      for (const wallet of v4) {
        const to = jettonWalletAddress(wallet.address, wallet.address);
        const mint = internal({
          to,
          value: toNano('0.2'),
          bounce: false,
          init: jettonWalletInit(wallet.address, wallet.address),
          body: mintBody(1_000n, wallet.address),
        });
        const body = (wallet.contract as WalletContractV4).createTransfer({
          seqno: round,
          secretKey: keyPair.secretKey,
          sendMode: SendMode.PAY_GAS_SEPARATELY,
          messages: [mint],
        });
        await net.chain.submitExternalMessage(
          beginCell()
            .store(storeMessage(external({ to: wallet.address, body })))
            .endCell()
            .toBoc(),
        );
      }
      for (let seal = 0; seal < 3; seal++) await net.chain.seal();
    }
    const jettonWallets = new Set(v4.map((w) => `0:${jettonWalletAddress(w.address, w.address).hash.toString('hex').toUpperCase()}`));
    const source = new McBlockSource(pool, new BlockFetcher(pool, logger, () => false), logger);
    const head = net.chain.lastMasterchainBlock().id.seqno;
    let previousTops = (await source.head(1)).parsed.shardTops;
    for (let seqno = 2; seqno <= head; seqno++) {
      const mc = await source.head(seqno);
      const prepared = await source.prepare(mc, previousTops);
      previousTops = mc.parsed.shardTops;
      if (prepared.accounts.some((row) => jettonWallets.has(row.account) && row.account_status === 'active')) blocks.push({ ...prepared, stateUpdate: mc.parsed.block.stateUpdate });
    }
  });

  afterAll(async () => {
    pool?.close();
    await net?.stop();
  });

  const detect = (detector: TokenDetector, block: PreparedMcBlock & { stateUpdate: Cell }): Promise<BlockTokens> =>
    detector.detect(
      pool,
      block.id,
      block.stateUpdate,
      block.accounts.map((row) => ({ row })),
    );

  const getMethodRuns = async () =>
    (await tvmRuns.get()).values.filter((v) => v.labels['kind'] === 'getMethod').reduce((sum, v) => sum + v.value, 0);

  it('writes one code_interfaces row per code and the interfaces one account at a time finds', async () => {
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    const [first, second] = [blocks[0]!, blocks[1]!];
    // Many accounts of the new codes in one block: what the shared classification is about.
    expect(first.accounts.filter((row) => row.account_status === 'active').length).toBeGreaterThanOrEqual(2 * WALLETS);

    const runsBefore = await getMethodRuns();
    const sequential = new TokenDetector();
    const one = [await detect(sequential, first), await detect(sequential, second)];
    const runsSequential = (await getMethodRuns()) - runsBefore;

    const shared = new TokenDetector();
    const both = await Promise.all([detect(shared, first), detect(shared, second)]);
    const runsShared = (await getMethodRuns()) - runsBefore - runsSequential;

    const rowsOf = (results: BlockTokens[]) =>
      results
        .flatMap((r) => r.states.codeInterfaces)
        .map((row) => `${row.code_hash.toString('hex')}=${[...row.interfaces].sort().join(',')}`);
    const sharedRows = rowsOf(both);
    // Each code classified once, with the answer the one-at-a-time detection gives it.
    expect(new Set(sharedRows).size).toBe(sharedRows.length);
    expect(sharedRows.sort()).toEqual(rowsOf(one).sort());
    expect(sharedRows.some((row) => row.endsWith('=jetton_wallet'))).toBe(true);
    // The same wallets' states found (none confirmed here: each master is a wallet, which has no get_wallet_address).
    const walletsOf = (results: BlockTokens[]) =>
      results.flatMap((r) => r.states.jettonWallets.map((w) => `${w.address}:${w.balance}`)).sort();
    expect(walletsOf(both)).toEqual(walletsOf(one));
    // No more get-methods than one block after the other (before: every interface again for each account started early).
    expect(runsShared).toBeLessThanOrEqual(runsSequential);
  });
});
