import { beginCell, Cell, CellType } from '@ton/core';
import { merkleProof } from '../../src/cells';
import { bocRoots } from '../../src/proofs/answers';
import { LiteServerProofError } from '../../src/errors';
import { clearShardProofCache, provenMasterchainState } from '../../src/proofs/shardProofCache';
import type { McBlock } from '../../src/proofs/chainSession';

/**
 * Decoding lite-server BoCs through the interner (src/chain/answers.ts) and keeping proven
 * masterchain states per block (src/chain/shardProofCache.ts): what is reused is exactly what
 * the same bytes give, and a changed byte is never mistaken for what was seen before.
 */

function tree(seed: number, leaves = 3): Cell {
  let node = beginCell().storeUint(seed, 32).endCell();
  for (let i = 0; i < leaves; i++)
    node = beginCell()
      .storeUint(seed + i + 1, 24)
      .storeRef(node)
      .storeRef(beginCell().storeUint(i, 16).endCell())
      .endCell();
  return node;
}

/** A fresh Buffer with the same bytes (answers arrive in new buffers). */
const copy = (bytes: Buffer) => Buffer.from(Uint8Array.prototype.slice.call(bytes));

describe('interned answer decoding', () => {
  test('the same bytes in another buffer give the same cells; roots hash as @ton/core decodes them', () => {
    const boc = tree(1).toBoc();
    const [first] = bocRoots(copy(boc), 'test');
    const [second] = bocRoots(copy(boc), 'test');
    expect(second).toBe(first);
    expect(first!.hash().equals(Cell.fromBoc(boc)[0]!.hash())).toBe(true);
  });

  test('one changed data byte is another cell with its own hash', () => {
    const boc = tree(2).toBoc({ idx: false, crc32: false });
    const [original] = bocRoots(copy(boc), 'test');
    // The root's first data byte follows the 2 descriptor bytes of the first cell after the header.
    const changed = copy(boc);
    // Magic, flags, offset size, then one byte each: cells, roots, absent, total size, root
    // index; the root (cell 0) follows: its two descriptor bytes, then its data.
    const rootData = 4 + 1 + 1 + 5 + 2;
    changed[rootData] = changed[rootData]! ^ 0xff;
    const [tampered] = bocRoots(changed, 'test');
    expect(tampered!.hash().equals(original!.hash())).toBe(false);
    expect(tampered!.hash().equals(Cell.fromBoc(changed)[0]!.hash())).toBe(true);
  });

  test('a truncated BoC is an invalid answer, not a crash', () => {
    const boc = tree(3).toBoc();
    expect(() => bocRoots(boc.subarray(0, boc.length - 9), 'proof')).toThrow(/invalid lite-server answer: proof/);
  });

  test('a BoC larger than the interning bound decodes (byte-level decoder) to the same cells as @ton/core', () => {
    const big = tree(4, 700);
    const [root] = bocRoots(big.toBoc(), 'state');
    expect(root!.hash().equals(big.hash())).toBe(true);
  });

  test('a large Merkle proof decodes to the cells @ton/core gives: type, level hashes and depths', () => {
    // A proof of one leaf of a 700-level tree: every other branch pruned (exotic cells of level 1).
    const big = tree(6, 700);
    const open = new Set<Cell>();
    for (let cell: Cell | undefined = big; cell; cell = cell.refs[0]) open.add(cell);
    const proof = merkleProof(big, { open });
    const boc = proof.toBoc();
    const [ours] = bocRoots(copy(boc), 'proof');
    const [theirs] = Cell.fromBoc(boc);
    expect(ours!.type).toBe(CellType.MerkleProof);
    expect(ours!.refs[0]!.hash(0).equals(big.hash())).toBe(true);
    for (const level of [0, 1, 2, 3]) {
      expect(ours!.hash(level).equals(theirs!.hash(level))).toBe(true);
      expect(ours!.depth(level)).toBe(theirs!.depth(level));
    }
  });

  test('a large BoC with one changed byte is another cell (its own hash, as @ton/core hashes it); a truncated one is refused', () => {
    const boc = tree(7, 700).toBoc({ idx: false, crc32: false });
    const [original] = bocRoots(copy(boc), 'state');
    const changed = copy(boc);
    // The last cell's data (a leaf near the bottom of the tree) is the BoC's last bytes.
    changed[changed.length - 1] = changed[changed.length - 1]! ^ 0x01;
    const [tampered] = bocRoots(changed, 'state');
    expect(tampered!.hash().equals(original!.hash())).toBe(false);
    expect(tampered!.hash().equals(Cell.fromBoc(changed)[0]!.hash())).toBe(true);
    expect(() => bocRoots(copy(boc).subarray(0, boc.length - 3), 'proof')).toThrow(/invalid lite-server answer: proof/);
  });
});

function mcBlock(seqno: number): McBlock {
  return {
    workchain: -1,
    shard: '-9223372036854775808',
    seqno,
    rootHash: Buffer.alloc(32, seqno),
    fileHash: Buffer.alloc(32, 255 - seqno),
  };
}

describe('proven masterchain states per block', () => {
  beforeEach(() => clearShardProofCache());

  test('proven once for the same block and bytes, again for other bytes or another block', () => {
    const state = tree(5);
    const prove = jest.fn(() => state);
    const bytes = Buffer.from('proof bytes of shard 1');
    expect(provenMasterchainState(mcBlock(10), bytes, prove)).toBe(state);
    expect(provenMasterchainState(mcBlock(10), copy(bytes), prove)).toBe(state);
    expect(prove).toHaveBeenCalledTimes(1);
    provenMasterchainState(mcBlock(10), Buffer.from('proof bytes of shard 2'), prove);
    expect(prove).toHaveBeenCalledTimes(2);
    provenMasterchainState(mcBlock(11), bytes, prove);
    expect(prove).toHaveBeenCalledTimes(3);
  });

  test('a proof that fails is never kept', () => {
    const bytes = Buffer.from('a lie');
    const failing = () => {
      throw new LiteServerProofError('shard proof: the proof is not of block 12');
    };
    expect(() => provenMasterchainState(mcBlock(12), bytes, failing)).toThrow(LiteServerProofError);
    expect(() => provenMasterchainState(mcBlock(12), copy(bytes), failing)).toThrow(LiteServerProofError);
  });

  test('only the newest blocks are kept', () => {
    const prove = jest.fn(() => tree(6));
    const bytes = Buffer.from('same bytes');
    for (let seqno = 20; seqno < 25; seqno++) provenMasterchainState(mcBlock(seqno), bytes, prove);
    expect(prove).toHaveBeenCalledTimes(5);
    provenMasterchainState(mcBlock(24), bytes, prove);
    expect(prove).toHaveBeenCalledTimes(5);
    provenMasterchainState(mcBlock(20), bytes, prove);
    expect(prove).toHaveBeenCalledTimes(6);
  });
});
