/**
 * Old states derived from their blocks (src/localnet/ledger/stateBytes.ts): a block turning cold
 * keeps its state as cells only every STATE_CHECKPOINT seqnos; the others rebuild it from the
 * previous block's state and their own state update when a query reads it. Lite queries of old
 * blocks answer exactly what they answered while the blocks were recent; a state file leaves the
 * derived states out and a restore derives them again; an in-memory restore seals on.
 */
import { Address, toNano } from '@ton/core';
import { Functions } from 'ton-lite-client/dist/schema';
import { applyMerkleUpdate } from '../../src/cells';
import { LocalnetControls } from '../../src/localnet/controls';
import { BASECHAIN, MASTERCHAIN } from '../../src/localnet/ledger/ids';
import { LocalChain } from '../../src/localnet/ledger/LocalChain';
import { decodeSnapshot, encodeSnapshot } from '../../src/localnet/ledger/snapshot';
import { isDerived, STATE_CHECKPOINT, stateRebuilds } from '../../src/localnet/ledger/stateBytes';
import { HOT_BLOCKS, StoredBlock } from '../../src/localnet/ledger/store';
import { ConnectedLocalnet, startConnectedLocalnet } from './helpers/liteClient';

type TlBlockId = { kind: 'tonNode.blockIdExt'; workchain: number; shard: string; seqno: number; rootHash: Buffer; fileHash: Buffer };

function tlId(block: StoredBlock): TlBlockId {
  const { workchain, shard, seqno, rootHash, fileHash } = block.id;
  return { kind: 'tonNode.blockIdExt', workchain, shard: BigInt.asIntN(64, shard).toString(), seqno, rootHash, fileHash };
}

/** Every lite answer below that reads a block's state, as comparable text. */
async function stateAnswers(ctx: ConnectedLocalnet, mc: StoredBlock, accounts: Address[]): Promise<string> {
  const id = tlId(mc);
  const out: unknown[] = [];
  for (const address of accounts) {
    out.push(
      await ctx.engine.query(Functions.liteServer_getAccountState, {
        kind: 'liteServer.getAccountState',
        id,
        account: { kind: 'liteServer.accountId', workchain: address.workChain, id: address.hash },
      }),
    );
    out.push(
      await ctx.engine.query(Functions.liteServer_runSmcMethod, {
        kind: 'liteServer.runSmcMethod',
        mode: 7, // proofs, the state proof and the result stack
        id,
        account: { kind: 'liteServer.accountId', workchain: address.workChain, id: address.hash },
        methodId: '85143', // seqno
        params: Buffer.from('b5ee9c72010101010005000006000000', 'hex'), // an empty stack
      }),
    );
  }
  out.push(await ctx.engine.query(Functions.liteServer_getAllShardsInfo, { kind: 'liteServer.getAllShardsInfo', id }));
  out.push(await ctx.engine.query(Functions.liteServer_getConfigAll, { kind: 'liteServer.getConfigAll', mode: 0, id }));
  return JSON.stringify(out, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v));
}

describe('old states of the local chain derived from their blocks', () => {
  let ctx: ConnectedLocalnet;
  const recipients = [0x31, 0x32, 0x33].map((b) => new Address(0, Buffer.alloc(32, b)));
  let wallet: Address;
  /** Masterchain blocks and what their state queries answered while they were recent. */
  const answered: { mc: StoredBlock; shards: StoredBlock[]; stateHashes: string[]; answers: string }[] = [];

  beforeAll(async () => {
    ctx = await startConnectedLocalnet({ accounts: 1, keepBlocks: 0, shards: 2 });
    wallet = ctx.net.wallets.wallets[0]!.address;
    const controls = new LocalnetControls(ctx.net);
    // Enough rounds to pass a checkpoint, each changing accounts of both shards.
    for (let i = 0; i < STATE_CHECKPOINT + HOT_BLOCKS + 4; i++) {
      await controls.fund(recipients[i % recipients.length]!, toNano('1') + BigInt(i));
      const mc = ctx.net.chain.lastMasterchainBlock();
      const shards = ctx.net.chain.shardTopsOf(mc);
      answered.push({
        mc,
        shards,
        stateHashes: [mc, ...shards].map((b) => b.state.hash().toString('hex')),
        answers: await stateAnswers(ctx, mc, [...recipients, wallet]),
      });
    }
    for (let i = 0; i < HOT_BLOCKS; i++) await ctx.net.chain.seal();
  }, 120_000);

  afterAll(async () => {
    await ctx.close();
  });

  it('old states are derived but every STATE_CHECKPOINT-th; the recent ones and the checkpoints are cells', () => {
    const store = ctx.net.chain.store;
    for (const { mc, shards } of answered) {
      for (const block of [mc, ...shards]) {
        const stored = store.bySeqno(block.id.workchain, block.id.seqno, block.id.shard)!;
        expect(stored).toBe(block);
        expect(isDerived(block)).toBe(block.id.seqno % STATE_CHECKPOINT !== 0);
      }
    }
    expect(isDerived(ctx.net.chain.lastMasterchainBlock())).toBe(false);
    expect(answered.some(({ mc }) => mc.id.seqno % STATE_CHECKPOINT === 0)).toBe(true);
  });

  it('lite queries of old states answer as they did while the blocks were recent', async () => {
    const before = stateRebuilds();
    for (const { mc, shards, stateHashes, answers } of answered) {
      expect([mc, ...shards].map((b) => b.state.hash().toString('hex'))).toEqual(stateHashes);
      expect(await stateAnswers(ctx, mc, [...recipients, wallet])).toBe(answers);
    }
    expect(stateRebuilds()).toBeGreaterThan(before);
  }, 60_000);

  it('a state update applies only to the state it was made from', () => {
    const { shards } = answered[answered.length - 1]!;
    const block = shards.find((b) => b.id.workchain === BASECHAIN)!;
    const other = ctx.net.chain.lastMasterchainBlock().state;
    expect(() => applyMerkleUpdate(other, block.root.refs[2]!)).toThrow('another state');
  });

  it('a state file leaves derived states out; a restore derives them again, equal, and seals on', async () => {
    const snap = await ctx.net.chain.snapshot();
    const derivedInFile = [...snap.masterchain, ...snap.basechain.flatMap((c) => c.blocks)].filter((b) => b.state === null).length;
    expect(derivedInFile).toBeGreaterThan(answered.length);
    const decoded = decodeSnapshot(encodeSnapshot({ chain: snap, adnlSeed: Buffer.alloc(32, 1), mnemonic: [], accounts: 1 })).chain;
    const restored = await LocalChain.restore(decoded, { blockIntervalMs: 0, keepBlocks: 0 });
    try {
      for (const { mc, shards, stateHashes } of answered) {
        const blocks = [mc, ...shards].map((b) => restored.store.bySeqno(b.id.workchain, b.id.seqno, b.id.shard)!);
        expect(blocks.map((b) => b.state.hash().toString('hex'))).toEqual(stateHashes);
      }
      const next = await restored.seal();
      expect(next.id.seqno).toBe(ctx.net.chain.lastMasterchainBlock().id.seqno + 1);
    } finally {
      await restored.stop();
    }
  }, 60_000);

  it('a chain restored to an in-memory snapshot whose head turned cold holds that head as cells and seals on', async () => {
    const controls = new LocalnetControls(ctx.net);
    const taken = await controls.snapshot();
    const head = ctx.net.chain.lastMasterchainBlock();
    for (let i = 0; i < HOT_BLOCKS + 2; i++) await ctx.net.chain.seal();
    expect(isDerived(head) || head.id.seqno % STATE_CHECKPOINT === 0).toBe(true);
    await controls.restore(taken.id);
    const restoredHead = ctx.net.chain.lastMasterchainBlock();
    expect(restoredHead).toBe(head);
    expect(isDerived(restoredHead)).toBe(false);
    for (const shard of ctx.net.chain.shardTopsOf(restoredHead)) expect(isDerived(shard)).toBe(false);
    await controls.fund(recipients[0]!, toNano('2'));
    const after = ctx.net.chain.lastMasterchainBlock();
    expect(after.id.seqno).toBe(head.id.seqno + 1);
    expect(ctx.net.chain.store.bySeqno(MASTERCHAIN, head.id.seqno)).toBe(head);
  }, 60_000);
});
