import { randomBytes } from 'node:crypto';
import { beginCell, Cell, CellType, Dictionary } from '@ton/core';
import { decodeBocFast, merkleProof, merkleUpdate, prunedBranch, serializeBoc } from '../../src/cells';

/** Level-0 hashes of every cell, depth first: two decodings are equal when these are. */
function shape(roots: Cell[]): string[] {
  const out: string[] = [];
  const walk = (c: Cell) => {
    const levels = [0, 1, 2, 3].map((l) => `${c.hash(l).toString('hex')}/${c.depth(l)}`).join(',');
    out.push(`${c.type}:${c.isExotic}:${c.level()}:${c.mask.value}:${c.bits.toString()}:${c.refs.length}:${levels}:${c.toString()}`);
    c.refs.forEach(walk);
  };
  roots.forEach(walk);
  return out;
}

function sampleTree(): Cell {
  const dict = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.Cell());
  for (let i = 0; i < 60; i++) dict.set(i * 31, beginCell().storeBuffer(randomBytes(i % 40)).storeUint(i % 2, 1 + (i % 9)).endCell());
  return beginCell().storeUint(7, 3).storeDict(dict).storeRef(beginCell().storeBuffer(randomBytes(127)).storeUint(1, 7).endCell()).endCell();
}

describe('decodeBocFast', () => {
  it('refuses a header that claims more cells than its data holds, as @ton/core does, without sizing anything by the claim', () => {
    // Magic; 3-byte refs, 1-byte offsets; 16 777 215 cells, 1 root, 2 bytes of data: 21 bytes.
    const boc = Buffer.from([0xb5, 0xee, 0x9c, 0x72, 0x03, 0x01, 0xff, 0xff, 0xff, 0, 0, 1, 0, 0, 0, 0x02, 0, 0, 0, 0x00, 0x00]);
    expect(() => Cell.fromBoc(boc)).toThrow();
    const before = process.memoryUsage().arrayBuffers;
    expect(() => decodeBocFast(boc)).toThrow();
    // Per-cell arrays sized by the claim were ~400 MB; nothing of the kind may be made.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(16 * 1024 * 1024);
    // 4-byte refs: 4 294 967 295 cells claimed.
    const huge = Buffer.from([0xb5, 0xee, 0x9c, 0x72, 0x04, 0x01, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 1, 0, 0, 0, 0, 0x02, 0, 0, 0, 0, 0x00, 0x00]);
    expect(() => decodeBocFast(huge)).toThrow();
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(16 * 1024 * 1024);
  });

  it('decodes what @ton/core decodes, with and without index and CRC-32C, several roots, exotic cells', () => {
    const a = sampleTree();
    const b = sampleTree();
    const update = merkleUpdate(a, b);
    for (const opts of [
      { idx: false, crc32: false },
      { idx: true, crc32: false },
      { idx: false, crc32: true },
      { idx: true, crc32: true },
    ]) {
      const boc = a.toBoc(opts);
      expect(shape(decodeBocFast(boc))).toEqual(shape(Cell.fromBoc(boc)));
    }
    const own = serializeBoc([update]);
    expect(shape(decodeBocFast(own))).toEqual(shape(Cell.fromBoc(own)));
    const two = serializeBoc([a, b]);
    expect(decodeBocFast(two)).toHaveLength(2);
    expect(shape(decodeBocFast(two))).toEqual(shape(Cell.fromBoc(two)));
  });

  it('makes ordinary cells that answer, parse and serialize as those of @ton/core', () => {
    // A chain deeper than 255 (two-byte depths in the hashed representation) and a wide tree.
    let deep = beginCell().storeUint(1, 1).endCell();
    for (let i = 0; i < 300; i++) deep = beginCell().storeUint(i, 9).storeRef(deep).endCell();
    const root = beginCell().storeRef(deep).storeRef(sampleTree()).storeBuffer(randomBytes(50)).storeUint(5, 3).endCell();
    const boc = root.toBoc({ idx: false, crc32: true });
    const fast = decodeBocFast(boc)[0]!;
    const slow = Cell.fromBoc(boc)[0]!;
    expect(shape([fast])).toEqual(shape([slow]));
    expect(fast.depth()).toBe(301);
    expect(fast.equals(slow)).toBe(true);
    expect(slow.equals(fast)).toBe(true);
    expect(fast.toBoc().equals(slow.toBoc())).toBe(true);
    expect(fast.beginParse().loadRef().beginParse().loadUint(9)).toBe(299);
    expect(fast.refs[1]!.beginParse().skip(3).loadMaybeRef()?.hash().equals(slow.refs[1]!.beginParse().skip(3).loadMaybeRef()!.hash())).toBe(true);
    expect(beginCell().storeRef(fast).endCell().hash().equals(beginCell().storeRef(slow).endCell().hash())).toBe(true);
    expect(fast).toBeInstanceOf(Cell);
  });

  it("decodes a BoC that is a small part of a larger buffer from a copy, so its cells do not keep that buffer", () => {
    const boc = beginCell().storeUint(0xabcdef, 24).storeRef(beginCell().storeBuffer(randomBytes(20)).endCell()).endCell().toBoc({ idx: false, crc32: true });
    // As Buffer.from(base64) makes a small BoC: a slice of Node's shared 8 KB pool.
    const pooled = Buffer.from(boc.toString('base64'), 'base64');
    expect(pooled.buffer.byteLength).toBeGreaterThan(2 * pooled.length);
    const [root] = decodeBocFast(pooled);
    const data = (root!.refs[0]!.bits as unknown as { _data: Buffer })._data;
    expect(data.buffer).not.toBe(pooled.buffer);
    expect(data.buffer.byteLength).toBe(boc.length);
    expect(root!.hash().equals(Cell.fromBoc(boc)[0]!.hash())).toBe(true);
  });

  it('leaves a damaged BoC to @ton/core, which refuses it', () => {
    const boc = sampleTree().toBoc({ idx: false, crc32: true });
    const damaged = Buffer.from(boc);
    damaged[20] = damaged[20]! ^ 0x01;
    expect(() => decodeBocFast(damaged)).toThrow();
    expect(() => decodeBocFast(boc.subarray(0, boc.length - 9))).toThrow();
  });

  it("makes level-1 pruned branches that answer, parse and serialize as @ton/core's, and leaves other exotic cells to it", () => {
    const leaf = beginCell().storeBuffer(randomBytes(40)).storeRef(beginCell().storeUint(9, 12).endCell()).endCell();
    const kept = beginCell().storeUint(1, 4).endCell();
    const root = beginCell().storeRef(prunedBranch(leaf)).storeRef(kept).storeRef(prunedBranch(kept)).endCell();
    const boc = serializeBoc([root]);
    const fast = decodeBocFast(boc)[0]!;
    const slow = Cell.fromBoc(boc)[0]!;
    expect(shape([fast])).toEqual(shape([slow]));
    const pruned = fast.refs[0]!;
    // Not @ton/core's constructor's: no closures of its own.
    expect(Object.prototype.hasOwnProperty.call(pruned, 'hash')).toBe(false);
    expect(Object.prototype.hasOwnProperty.call(slow.refs[0]!, 'hash')).toBe(true);
    expect(pruned).toBeInstanceOf(Cell);
    expect(pruned.type).toBe(CellType.PrunedBranch);
    expect(pruned.isExotic).toBe(true);
    expect(pruned.hash(0).equals(leaf.hash())).toBe(true);
    expect(pruned.depth(0)).toBe(leaf.depth());
    expect(pruned.depth(1)).toBe(0);
    expect(pruned.hash(1).equals(slow.refs[0]!.hash(1))).toBe(true);
    expect(pruned.hash().equals(slow.refs[0]!.hash())).toBe(true);
    expect(pruned.equals(slow.refs[0]!)).toBe(true);
    expect(() => pruned.beginParse()).toThrow('Exotic cells cannot be parsed');
    const read = pruned.beginParse(true);
    expect(read.loadUint(8)).toBe(1);
    expect(read.loadUint(8)).toBe(1);
    expect(read.loadBuffer(32).equals(leaf.hash())).toBe(true);
    expect(read.loadUint(16)).toBe(leaf.depth());
    expect(fast.toBoc().equals(slow.toBoc())).toBe(true);
    expect(beginCell().storeRef(fast).endCell().hash().equals(beginCell().storeRef(slow).endCell().hash())).toBe(true);
    expect(fast.level()).toBe(1);
    expect(fast.hash(0).equals(slow.hash(0))).toBe(true);
    expect(fast.hash(1).equals(slow.hash(1))).toBe(true);
    // A pruned branch of level 2 (mask 3: two hashes and depths) and a Merkle proof: @ton/core's.
    const two = beginCell().storeUint(1, 8).storeUint(3, 8).storeBuffer(randomBytes(32)).storeBuffer(randomBytes(32)).storeUint(7, 16).storeUint(5, 16).endCell({ exotic: true });
    const proved = beginCell().storeRef(leaf).storeRef(kept).endCell();
    const proof = merkleProof(proved, { open: new Set([proved]) });
    for (const cell of [two, proof]) {
      const own = serializeBoc([cell]);
      const decoded = decodeBocFast(own)[0]!;
      expect(shape([decoded])).toEqual(shape(Cell.fromBoc(own)));
      expect(Object.prototype.hasOwnProperty.call(decoded, 'hash')).toBe(true);
    }
  });
});
