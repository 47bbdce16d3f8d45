import { beginCell, Cell, CellType, Dictionary } from '@ton/core';
import { merkleUpdate, serializeBoc } from '../../src/cells';

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
});
