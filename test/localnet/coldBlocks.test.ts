/**
 * Old blocks as bytes (src/localnet/ledger/blockBytes.ts): a block HOT_BLOCKS behind its chain's
 * head keeps only its BoC; its root and its transactions' cells are decoded on demand into a
 * bounded cache, equal to what was sealed. A state file holds the blocks as bytes with their meta,
 * and a restore indexes them without decoding one.
 */
import { Address, Cell, loadTransaction, toNano } from '@ton/core';
import { createHash } from 'crypto';
import { startLocalnet, type Localnet } from '../../src/localnet';
import { LocalnetControls } from '../../src/localnet/controls';
import { coldDecodes, isCold } from '../../src/localnet/ledger/blockBytes';
import { BASECHAIN, FULL_SHARD, MASTERCHAIN } from '../../src/localnet/ledger/ids';
import { LocalChain } from '../../src/localnet/ledger/LocalChain';
import { blockHeaderProof, proofCell } from '../../src/localnet/ledger/proofs';
import { HOT_BLOCKS, StoredBlock } from '../../src/localnet/ledger/store';
import { decodeSnapshot, encodeSnapshot } from '../../src/localnet/ledger/snapshot';
import { serializeBoc } from '../../src/cells';

describe('old blocks of the local chain kept as bytes', () => {
  let net: Localnet;
  let funded: StoredBlock;
  /** What the funding block held while it was recent (cells), to compare with its decoded form. */
  let sealedRoot: Buffer;
  let sealedTxs: { hash: string; cell: string }[];
  const recipient = new Address(0, Buffer.alloc(32, 0x33));

  beforeAll(async () => {
    net = await startLocalnet({ accounts: 1, blockIntervalMs: 0, keepBlocks: 0, shards: 1 });
    await new LocalnetControls(net).fund(recipient, toNano('3'));
    const head = net.chain.lastMasterchainBlock();
    funded = [head, ...net.chain.shardTopsOf(head)].find((b) => b.id.workchain === BASECHAIN && b.transactions.length > 0)!;
    expect(funded).toBeDefined();
    expect(isCold(funded)).toBe(false);
    sealedRoot = serializeBoc([funded.root]);
    sealedTxs = funded.transactions.map((t) => ({ hash: t.hash.toString('hex'), cell: t.cell.toBoc().toString('hex') }));
    for (let i = 0; i < HOT_BLOCKS + 3; i++) await net.chain.seal();
  }, 60_000);

  afterAll(async () => {
    await net.stop();
  });

  it('a block behind the recent ones is cold; its BoC is what was sealed; its cells decode on demand, equal', () => {
    const block = net.chain.store.bySeqno(BASECHAIN, funded.id.seqno, funded.id.shard)!;
    expect(block).toBe(funded);
    expect(isCold(block)).toBe(true);
    expect(block.boc.equals(sealedRoot)).toBe(true);
    expect(createHash('sha256').update(block.boc).digest().equals(block.id.fileHash)).toBe(true);
    // The newest blocks are not cold.
    expect(isCold(net.chain.lastMasterchainBlock())).toBe(false);
    const before = coldDecodes();
    expect(block.root.hash().equals(block.id.rootHash)).toBe(true);
    expect(block.transactions.map((t) => ({ hash: t.hash.toString('hex'), cell: t.cell.toBoc().toString('hex') }))).toEqual(sealedTxs);
    // One decode for the root and every transaction of the block (the cache).
    expect(coldDecodes()).toBe(before + 1);
    // A proof of an old block's header is built from the decoded cells and names the block's root.
    const proof = proofCell(blockHeaderProof(block.root, 0));
    expect(proof.refs[0]!.hash(0).equals(block.id.rootHash)).toBe(true);
  });

  it('the cache of decoded blocks is bounded: old blocks read in turn are decoded again', () => {
    const cold = net.chain.store.blocks(MASTERCHAIN).filter(isCold);
    expect(cold.length).toBeGreaterThanOrEqual(5);
    for (const block of cold) expect(block.root.hash().equals(block.id.rootHash)).toBe(true);
    const before = coldDecodes();
    // The first of them left the cache (4 blocks) while the others were read.
    expect(cold[0]!.root.hash().equals(cold[0]!.id.rootHash)).toBe(true);
    expect(coldDecodes()).toBe(before + 1);
  });

  it('a state file holds the blocks as bytes and a restore indexes them without decoding one', async () => {
    const snap = await net.chain.snapshot();
    const file = encodeSnapshot({ chain: snap, adnlSeed: Buffer.alloc(32, 1), mnemonic: [], accounts: 1 });
    const decoded = decodeSnapshot(file).chain;
    expect(decoded.masterchain.every((b) => b.meta !== undefined && b.root === undefined)).toBe(true);
    const before = coldDecodes();
    const restored = await LocalChain.restore(decoded, { blockIntervalMs: 0, keepBlocks: 0 });
    try {
      expect(coldDecodes()).toBe(before);
      const block = restored.store.bySeqno(BASECHAIN, funded.id.seqno, funded.id.shard)!;
      expect(isCold(block)).toBe(true);
      expect(block.id.rootHash.equals(funded.id.rootHash)).toBe(true);
      expect(block.boc.equals(sealedRoot)).toBe(true);
      expect(block.transactions.map((t) => ({ hash: t.hash.toString('hex'), cell: t.cell.toBoc().toString('hex') }))).toEqual(sealedTxs);
      expect(restored.store.transactionsOf(BASECHAIN, recipient.hash).length).toBe(1);
      // Each record's ids read back as its transaction cell says, from one buffer of its own
      // (no bigint or further buffer per field: the chain keeps one record per transaction).
      for (const tx of block.transactions) {
        const parsed = loadTransaction(tx.cell.beginParse());
        expect(tx.hash.equals(tx.cell.hash())).toBe(true);
        expect(tx.lt).toBe(parsed.lt);
        expect(tx.prevLt).toBe(parsed.prevTransactionLt);
        expect(BigInt('0x' + tx.prevHash.toString('hex'))).toBe(parsed.prevTransactionHash);
        expect(BigInt('0x' + tx.address.toString('hex'))).toBe(parsed.address);
        const own = Object.values(tx as object);
        expect(own.filter((v) => Buffer.isBuffer(v))).toHaveLength(1);
        expect(own.filter((v) => typeof v === 'bigint')).toHaveLength(0);
      }
      // The restored chain seals on: its head's state is cells.
      const next = await restored.seal();
      expect(next.id.seqno).toBe(net.chain.lastMasterchainBlock().id.seqno + 1);
      expect(Cell.fromBoc(next.boc)[0]!.hash().equals(next.id.rootHash)).toBe(true);
    } finally {
      await restored.stop();
    }
  });

  it('a state file of version 3 (blocks as cells) is still read, its blocks given their sealed bytes', async () => {
    const snap = await net.chain.snapshot();
    const stored = (wc: number, shard: bigint) => net.chain.store.blocks(wc, shard);
    const shards = snap.basechain.map((c) => c.shard);
    // What the version 3 writer wrote: a JSON header, then one BoC of config, zerostates, libs and each block's root and state.
    const roots: Cell[] = [snap.config, snap.zeroStates.masterchain, snap.zeroStates.basechain];
    if (snap.libs) roots.push(snap.libs);
    for (const b of [...stored(MASTERCHAIN, FULL_SHARD), ...shards.flatMap((sh) => stored(BASECHAIN, sh))]) roots.push(b.root, b.state);
    const header = {
      version: 3,
      validatorSeed: snap.validatorSeed.toString('hex'),
      adnlSeed: '01'.repeat(32),
      mnemonic: [],
      accounts: 1,
      lastUtime: snap.lastUtime,
      height: snap.masterchain.length,
      hasLibs: snap.libs !== null,
      masterchainFileHashes: snap.masterchain.map((b) => b.fileHash.toString('hex')),
      basechain: snap.basechain.map((c) => ({ shard: c.shard.toString(16), fileHashes: c.blocks.map((b) => b.fileHash.toString('hex')) })),
    };
    const json = Buffer.from(JSON.stringify(header));
    const length = Buffer.alloc(4);
    length.writeUInt32LE(json.length, 0);
    const decoded = decodeSnapshot(Buffer.concat([Buffer.from('LNET'), length, json, serializeBoc(roots)])).chain;
    const restored = await LocalChain.restore(decoded, { blockIntervalMs: 0, keepBlocks: 0 });
    try {
      expect(restored.lastMasterchainBlock().id.rootHash.equals(net.chain.lastMasterchainBlock().id.rootHash)).toBe(true);
      const block = restored.store.bySeqno(BASECHAIN, funded.id.seqno, funded.id.shard)!;
      expect(block.boc.equals(sealedRoot)).toBe(true);
      expect(block.transactions.map((t) => ({ hash: t.hash.toString('hex'), cell: t.cell.toBoc().toString('hex') }))).toEqual(sealedTxs);
    } finally {
      await restored.stop();
    }
  });
});
