import { randomBytes } from 'node:crypto';
import { beginCell, BitString, Cell, Dictionary } from '@ton/core';
import { decodeBocFast, merkleProof, merkleUpdate, prunedBranch, useCoreCells, useLeanCells } from '../../src/cells';

/** Every cell's type, level, mask, bits, refs and hashes/depths at each level, depth first. */
function shape(root: Cell): string[] {
  const out: string[] = [];
  const walk = (c: Cell) => {
    const levels = [0, 1, 2, 3].map((l) => `${c.hash(l).toString('hex')}/${c.depth(l)}`).join(',');
    out.push(`${c.type}:${c.isExotic}:${c.level()}:${c.mask.value}:${c.bits.length}:${c.bits.toString()}:${c.refs.length}:${levels}`);
    c.refs.forEach(walk);
  };
  walk(root);
  return out;
}

/** A dictionary, a deep chain (two-byte depths), odd bit lengths, a builder reused after endCell. */
function sampleTree(seed: Buffer): Cell {
  const dict = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.Cell());
  for (let i = 0; i < 80; i++) dict.set((seed.readUInt32BE(i % 28) ^ (i * 7919)) >>> 0, beginCell().storeBuffer(seed.subarray(0, i % 33)).storeUint(i % 2, 1 + (i % 11)).endCell());
  let deep = beginCell().storeBit(1).endCell();
  for (let i = 0; i < 300; i++) deep = beginCell().storeUint(i, 9).storeRef(deep).endCell();
  const reused = beginCell().storeUint(0xabc, 12);
  const first = reused.endCell();
  reused.storeUint(0x5, 3).storeRef(first);
  return beginCell().storeUint(7, 3).storeDict(dict).storeRef(deep).storeRef(first).storeRef(reused.endCell()).storeBuffer(seed.subarray(0, 100)).endCell();
}

/** Own properties holding functions: @ton/core's constructor makes six per cell and one per BitString. */
function ownFunctions(value: object): number {
  return Reflect.ownKeys(value).filter((key) => typeof (value as Record<string | symbol, unknown>)[key] === 'function').length;
}

/**
 * Own properties holding an object of the cell's own (a BitString, a refs array): a level-0 lean
 * cell keeps its bits' buffer, its hash's buffer and its refs, nothing made for it alone.
 */
function ownObjects(value: object): string[] {
  return Reflect.ownKeys(value)
    .filter((key) => {
      const field = (value as Record<string | symbol, unknown>)[key];
      return typeof field === 'object' && field !== null && !Buffer.isBuffer(field) && !(field instanceof Cell);
    })
    .map(String);
}

describe('useLeanCells', () => {
  afterEach(() => useCoreCells());

  it("builds and decodes cells without per-cell closures, with @ton/core's hashes, depths, levels, BoCs and parses", () => {
    const seed = randomBytes(128);
    const core = sampleTree(seed);
    const coreProof = merkleProof(core, { open: new Set([core, core.refs[1]!]) });
    const coreUpdate = merkleUpdate(core, sampleTree(randomBytes(128)));
    expect(ownFunctions(core)).toBe(6);
    useLeanCells();
    const lean = sampleTree(seed);
    expect(ownFunctions(lean)).toBe(0);
    expect(ownFunctions(lean.bits)).toBe(0);
    expect(lean).toBeInstanceOf(Cell);
    expect(lean.bits).toBeInstanceOf(BitString);
    expect(shape(lean)).toEqual(shape(core));
    expect(lean.toBoc().equals(core.toBoc())).toBe(true);
    expect(lean.toString()).toBe(core.toString());
    expect(lean.equals(core) && core.equals(lean)).toBe(true);
    // Cells above pruned branches (levels 1-3) made by the builder, and their exotic parents.
    const pruned = prunedBranch(lean.refs[1]!);
    const above = beginCell().storeUint(1, 1).storeRef(pruned).endCell();
    const abovePruned = (() => {
      useCoreCells();
      const cell = beginCell().storeUint(1, 1).storeRef(prunedBranch(core.refs[1]!)).endCell();
      useLeanCells();
      return cell;
    })();
    expect(ownFunctions(above)).toBe(0);
    expect(above.level()).toBe(1);
    expect(shape(above)).toEqual(shape(abovePruned));
    // Cell.fromBoc (and so fromBase64) decodes lean cells, exotic ones included.
    for (const root of [core, coreProof, coreUpdate]) {
      const boc = root.toBoc({ idx: false, crc32: true });
      const decoded = Cell.fromBase64(boc.toString('base64'));
      expect(shape(decoded)).toEqual(shape(root));
      expect(decoded.toBoc({ idx: false, crc32: true }).equals(boc)).toBe(true);
      expect(shape(decodeBocFast(boc)[0]!)).toEqual(shape(root));
    }
    expect(ownFunctions(Cell.fromBoc(core.toBoc())[0]!)).toBe(0);
    // One heap object a level-0 cell, decoded or built: no BitString, refs array or mask of its own.
    for (const cell of [lean, lean.refs[1]!, lean.refs[2]!, Cell.fromBoc(core.toBoc())[0]!, Cell.fromBoc(core.toBoc())[0]!.refs[1]!]) {
      expect(ownObjects(cell)).toEqual([]);
    }
    expect(ownObjects(core).length).toBeGreaterThan(0);
    // Parsing answers as @ton/core's: a dictionary read back, a ref's field, the deep chain's head.
    const parsed = lean.beginParse();
    expect(parsed.loadUint(3)).toBe(7);
    const dict = parsed.loadDict(Dictionary.Keys.Uint(32), Dictionary.Values.Cell());
    const coreDict = core.beginParse().skip(3).loadDict(Dictionary.Keys.Uint(32), Dictionary.Values.Cell());
    expect(dict.keys()).toEqual(coreDict.keys());
    expect(parsed.loadRef().beginParse().loadUint(9)).toBe(299);
    expect(lean.refs[1]!.depth()).toBe(300);
    // A builder reused after endCell: the first cell keeps its bits and refs.
    expect(lean.refs[2]!.bits.length).toBe(12);
    expect(lean.refs[2]!.refs).toHaveLength(0);
    expect(lean.refs[3]!.bits.length).toBe(15);
  });

  it("leaves exotic cells and @ton/core's refusals to @ton/core", () => {
    useLeanCells();
    const leaf = beginCell().storeUint(3, 8).endCell();
    const pruned = prunedBranch(leaf);
    expect(pruned.isExotic).toBe(true);
    expect(pruned.level()).toBe(1);
    const builder = beginCell();
    for (let i = 0; i < 4; i++) builder.storeRef(leaf);
    expect(() => builder.storeRef(leaf)).toThrow();
    expect(() => Cell.fromBoc(Buffer.from('b5ee9c72410101010003', 'hex'))).toThrow();
  });
});
