import { beginCell, Cell } from '@ton/core';
import { CellInterner } from '../../src/cells';

describe('CellInterner', () => {
  const shared = beginCell().storeUint(0xabcdef, 24).storeRef(beginCell().storeBit(true).endCell()).endCell();
  const rootA = beginCell().storeUint(1, 7).storeRef(shared).storeRef(shared).endCell();
  const rootB = beginCell().storeUint(2, 7).storeRef(shared).endCell();

  test('reads BoCs into cells with the same hashes as @ton/core, odd bit lengths included', () => {
    const interner = new CellInterner();
    for (const root of [rootA, rootB, shared, Cell.EMPTY]) {
      const [parsed] = interner.parse(root.toBoc());
      expect(parsed.hash().equals(root.hash())).toBe(true);
      expect(parsed.bits.length).toBe(root.bits.length);
    }
    const multi = interner.parse(Buffer.from(rootA.toBoc({ idx: true, crc32: true })));
    expect(multi[0].hash().equals(rootA.hash())).toBe(true);
  });

  test('returns the very same Cell object for a subtree seen before', () => {
    const interner = new CellInterner();
    const [a] = interner.parse(rootA.toBoc());
    const [b] = interner.parse(rootB.toBoc());
    expect(b.refs[0]).toBe(a.refs[0]);
    expect(a.refs[0]).toBe(a.refs[1]);
  });

  test('forgets everything when the bound is reached, and still reads correctly', () => {
    const interner = new CellInterner(2);
    for (let i = 0; i < 5; i++) {
      const root = beginCell().storeUint(i, 16).storeRef(shared).endCell();
      expect(interner.parse(root.toBoc())[0].hash().equals(root.hash())).toBe(true);
    }
  });
});
