import { internal, SendMode, toNano } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { MASTERCHAIN } from '../../src/localnet/ledger/ids';
import { LocalChain } from '../../src/localnet/ledger/LocalChain';
import { startConnectedLocalnet, type ConnectedLocalnet } from './helpers/liteClient';
import { strictLoad } from './helpers/strictTlb';

/**
 * In-memory snapshots restored in place, seen by an unmodified lite client connected all along:
 * its head goes back, a wait for a later seqno is answered at once, forgotten blocks are gone, and
 * the chain goes on from the snapshot.
 */

let connected: ConnectedLocalnet;

beforeAll(async () => {
  connected = await startConnectedLocalnet({ accounts: 1 });
}, 60_000);

afterAll(async () => {
  await connected?.close();
});

test('restore while a lite client waits for a later block', async () => {
  const { net, client } = connected;
  const chain = net.chain;
  const wallet = client.open(net.wallets.wallets[0]!.contract as WalletContractV4);
  const state = await chain.captureState();
  const snapHead = chain.lastMasterchainBlock();
  const seqnoBefore = await wallet.getSeqno();

  await wallet.sendTransfer({
    seqno: seqnoBefore,
    secretKey: net.wallets.keyPair.secretKey,
    sendMode: SendMode.PAY_GAS_SEPARATELY,
    messages: [internal({ to: net.wallets.wallets[1]!.address, value: toNano('3'), bounce: false })],
  });
  await chain.seal();
  const forgotten = chain.lastMasterchainBlock();
  expect(forgotten.id.seqno).toBe(snapHead.id.seqno + 2);
  expect(await wallet.getSeqno()).toBe(seqnoBefore + 1);

  // A long-poll for a block the chain will not reach again soon.
  const started = Date.now();
  const waiting = client.getMasterchainInfo({ awaitSeqno: forgotten.id.seqno + 10, timeout: 20_000 });
  await new Promise((resolve) => setTimeout(resolve, 200));
  const head = await chain.restoreState(state);
  expect(head.id.rootHash.equals(snapHead.id.rootHash)).toBe(true);
  const answered = await waiting;
  // Answered by the restore, not by the wait's 20 s timeout.
  expect(Date.now() - started).toBeLessThan(15_000);
  expect(answered.last.seqno).toBe(snapHead.id.seqno);
  expect(answered.last.rootHash.equals(snapHead.id.rootHash)).toBe(true);

  expect(await wallet.getSeqno()).toBe(seqnoBefore);
  expect(chain.store.bySeqno(MASTERCHAIN, forgotten.id.seqno)).toBeUndefined();
  await expect(client.getFullBlock(forgotten.id.seqno)).rejects.toThrow();

  // The chain goes on from the snapshot: the same transfer can be made again, blocks are valid.
  await wallet.sendTransfer({
    seqno: seqnoBefore,
    secretKey: net.wallets.keyPair.secretKey,
    sendMode: SendMode.PAY_GAS_SEPARATELY,
    messages: [internal({ to: net.wallets.wallets[1]!.address, value: toNano('1'), bounce: false })],
  });
  expect(await wallet.getSeqno()).toBe(seqnoBefore + 1);
  const next = chain.lastMasterchainBlock();
  expect(next.id.seqno).toBe(snapHead.id.seqno + 1);
  expect(next.startLt).toBe(snapHead.endLt);
  strictLoad('loadBlock', next.root);
  for (const top of chain.shardTopsOf(next)) {
    strictLoad('loadBlock', top.root);
    strictLoad('loadShardState', top.state);
  }
  const info = await client.getMasterchainInfo();
  expect(info.last.seqno).toBe(next.id.seqno);
}, 60_000);

test('a snapshot outlives the retention window: restored after its blocks left the live chain', async () => {
  const chain = await LocalChain.create({ blockIntervalMs: 0, keepBlocks: 16 });
  try {
    for (let i = 0; i < 20; i++) await chain.seal();
    const state = await chain.captureState();
    const snapHead = chain.lastMasterchainBlock();
    for (let i = 0; i < 40; i++) await chain.seal();
    // The live chain dropped the snapshot's head (block 1, a key block, stays pinned).
    expect(chain.store.bySeqno(MASTERCHAIN, snapHead.id.seqno)).toBeUndefined();
    expect(chain.store.bySeqno(MASTERCHAIN, 1)).toBeDefined();

    const head = await chain.restoreState(state);
    expect(head.id.rootHash.equals(snapHead.id.rootHash)).toBe(true);
    expect(chain.store.bySeqno(MASTERCHAIN, snapHead.id.seqno - 15)?.id.seqno).toBe(snapHead.id.seqno - 15);
    expect(chain.store.bySeqno(MASTERCHAIN, snapHead.id.seqno + 1)).toBeUndefined();
    expect(chain.store.bySeqno(MASTERCHAIN, 1)).toBeDefined();
    const next = await chain.seal();
    expect(next.id.seqno).toBe(snapHead.id.seqno + 1);
    strictLoad('loadBlock', next.root);
    for (const top of chain.shardTopsOf(next)) strictLoad('loadShardState', top.state);
  } finally {
    await chain.stop();
  }
}, 60_000);
