import { beginCell, Cell, CellType, Dictionary } from '@ton/core';
import { merkleUpdate, prunedBranch, serializeBoc } from '../../src/cells';

/** Every cell of a tree that is not a pruned branch, by level-0 hash (hex). */
function revealed(root: Cell): Set<string> {
  const out = new Set<string>();
  const stack = [root];
  while (stack.length > 0) {
    const cell = stack.pop()!;
    if (cell.type === CellType.PrunedBranch) continue;
    out.add(cell.hash(0).toString('hex'));
    stack.push(...cell.refs);
  }
  return out;
}

function state(entries: Map<number, number>): Cell {
  const dict = Dictionary.empty(Dictionary.Keys.Uint(256), Dictionary.Values.Cell());
  for (const [key, value] of entries) dict.set(key, beginCell().storeUint(value, 64).storeRef(beginCell().storeUint(key, 32)).endCell());
  return beginCell().storeUint(0xabcd, 16).storeDict(dict).storeRef(beginCell().storeUint(7, 8)).endCell();
}

describe('merkleUpdate (a block state update with the diff)', () => {
  const before = new Map(Array.from({ length: 200 }, (_, i) => [i * 7919, i] as [number, number]));
  const after = new Map(before);
  after.set(7919 * 5, 999); // changed
  after.delete(7919 * 6); // removed
  after.set(123_456_789, 1); // added
  const oldRoot = state(before);
  const newRoot = state(after);
  const update = merkleUpdate(oldRoot, newRoot);

  it('binds the old and new state hashes and round-trips through a BoC', () => {
    expect(update.type).toBe(CellType.MerkleUpdate);
    expect(update.level()).toBe(0);
    expect(update.refs[0]!.hash(0).equals(oldRoot.hash())).toBe(true);
    expect(update.refs[1]!.hash(0).equals(newRoot.hash())).toBe(true);
    const copy = Cell.fromBoc(serializeBoc([update]))[0]!;
    expect(copy.hash().equals(update.hash())).toBe(true);
  });

  it('reveals the changed and added entries in the new tree, the changed and removed ones in the old, and prunes the rest', () => {
    const leaf = (key: number, value: number) => beginCell().storeUint(value, 64).storeRef(beginCell().storeUint(key, 32)).endCell().hash().toString('hex');
    const inNew = revealed(update.refs[1]!);
    const inOld = revealed(update.refs[0]!);
    expect(inNew.has(leaf(7919 * 5, 999))).toBe(true);
    expect(inNew.has(leaf(123_456_789, 1))).toBe(true);
    expect(inOld.has(leaf(7919 * 5, 5))).toBe(true);
    expect(inOld.has(leaf(7919 * 6, 6))).toBe(true);
    // Unchanged entries and the unchanged third reference are pruned on both sides.
    expect(inNew.has(leaf(7919 * 100, 100))).toBe(false);
    expect(inOld.has(leaf(7919 * 100, 100))).toBe(false);
    expect(inNew.has(beginCell().storeUint(7, 8).endCell().hash().toString('hex'))).toBe(false);
    // A diff, not a copy: far fewer cells than the state's.
    expect(inNew.size).toBeLessThan(60);
  });

  it('of a state to itself is two bare roots', () => {
    const same = merkleUpdate(oldRoot, oldRoot);
    expect(revealed(same.refs[0]!).size).toBe(1);
    expect(revealed(same.refs[1]!).size).toBe(1);
  });

  it("builds every cell as @ton/core's constructors do (pruned branches and the copies above them: hashes, depths, levels at every level)", () => {
    // The same tree rebuilt by @ton/core alone, cell by cell from the bits and refs.
    const rebuilt = new Map<Cell, Cell>();
    const rebuild = (cell: Cell): Cell => {
      let copy = rebuilt.get(cell);
      if (!copy) {
        copy = new Cell({ exotic: cell.isExotic, bits: cell.bits, refs: cell.refs.map(rebuild) });
        rebuilt.set(cell, copy);
      }
      return copy;
    };
    let pruned = 0;
    for (const [ours, core] of [[update, rebuild(update)]] as const) {
      const stack: [Cell, Cell][] = [[ours, core]];
      while (stack.length > 0) {
        const [a, b] = stack.pop()!;
        expect(a.type).toBe(b.type);
        expect(a.level()).toBe(b.level());
        expect(a.mask.value).toBe(b.mask.value);
        for (let level = 0; level <= 3; level++) {
          expect(a.hash(level).toString('hex')).toBe(b.hash(level).toString('hex'));
          expect(a.depth(level)).toBe(b.depth(level));
        }
        if (a.type === CellType.PrunedBranch) {
          pruned++;
          expect(a.beginParse(true).loadUint(8)).toBe(1);
          expect(() => a.beginParse()).toThrow();
        }
        a.refs.forEach((ref, i) => stack.push([ref, b.refs[i]!]));
      }
    }
    expect(pruned).toBeGreaterThan(10);
    // A pruned branch alone, against one @ton/core builds from the same fields.
    const cell = newRoot.refs[0]!;
    const core = beginCell().storeUint(1, 8).storeUint(1, 8).storeBuffer(cell.hash(0)).storeUint(cell.depth(0), 16).endCell({ exotic: true });
    const ours = prunedBranch(cell);
    for (let level = 0; level <= 3; level++) expect(ours.hash(level).equals(core.hash(level))).toBe(true);
    expect(ours.bits.equals(core.bits)).toBe(true);
    expect(serializeBoc([ours]).equals(serializeBoc([core]))).toBe(true);
  });
});
