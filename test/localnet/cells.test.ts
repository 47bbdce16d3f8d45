import { beginCell, Builder, Cell, Dictionary } from '@ton/core';
import {
  dictLookupPath,
  loadLabel,
  merkleProof,
  merkleUpdateStub,
  PersistentDict,
  prunedBranch,
  serializeBoc,
  serializeProofs,
  storeLabel,
} from '../../src/cells';
import { serializeBoc as serializeTonlibBoc, serializeBocRoots } from '../../src/cells/bocWriter';

function uintCell(v: number): Cell {
  return beginCell().storeUint(v, 32).endCell();
}

describe('serializeBoc', () => {
  it('writes a single-root BoC that @ton/core reads back with the same hash', () => {
    const root = beginCell()
      .storeUint(0xdeadbeef, 32)
      .storeBit(true)
      .storeRef(uintCell(1))
      .storeRef(beginCell().storeRef(uintCell(1)).endCell())
      .endCell();
    const boc = serializeBoc([root]);
    const parsed = Cell.fromBoc(boc);
    expect(parsed).toHaveLength(1);
    expect(parsed[0].hash().equals(root.hash())).toBe(true);
    // Same cells, same order rules: byte-identical to @ton/core's own single-root writer.
    expect(boc.equals(root.toBoc({ idx: false, crc32: true }))).toBe(true);
  });

  it('writes several roots sharing cells, in the given order', () => {
    const shared = uintCell(7);
    const a = beginCell().storeUint(1, 8).storeRef(shared).endCell();
    const b = beginCell().storeUint(2, 8).storeRef(shared).endCell();
    const c = uintCell(9);
    const boc = serializeBoc([a, b, c]);
    const parsed = Cell.fromBoc(boc);
    expect(parsed.map((x) => x.hash().toString('hex'))).toEqual([a, b, c].map((x) => x.hash().toString('hex')));
    // 4 distinct cells: a, b, shared, c.
    expect(boc.readUInt8(6)).toBe(4);
  });

  it("writes tonlib's cell order, byte for byte what the converters write (one BoC writer)", () => {
    // Heavy shared subtrees are where tonlib's order differs from a plain topological one.
    const leaves = Array.from({ length: 6 }, (_, i) => uintCell(i));
    const heavy = beginCell().storeRef(leaves[0]!).storeRef(leaves[1]!).storeRef(leaves[2]!).endCell();
    const mid = beginCell().storeRef(heavy).storeRef(leaves[3]!).endCell();
    const root = beginCell().storeUint(9, 7).storeRef(mid).storeRef(heavy).storeRef(leaves[4]!).storeRef(leaves[5]!).endCell();
    expect(serializeBoc([root]).equals(serializeTonlibBoc(root))).toBe(true);
    expect(serializeBoc([root, mid], { crc32: false }).equals(serializeBocRoots([root, mid], { crc32c: false }))).toBe(true);
    expect(Cell.fromBoc(serializeBoc([root]))[0]!.hash().equals(root.hash())).toBe(true);
  });

  it('detects corruption through the CRC32C', () => {
    const boc = serializeBoc([uintCell(5), uintCell(6)]);
    boc[boc.length - 6] ^= 0xff;
    expect(() => Cell.fromBoc(boc)).toThrow(/CRC32C/);
  });

  it('keeps exotic cells and their level', () => {
    const inner = beginCell().storeUint(42, 64).endCell();
    const proofRoot = beginCell().storeUint(3, 8).storeRef(inner).endCell();
    const proof = merkleProof(proofRoot, { open: new Set([proofRoot]) });
    const parsed = Cell.fromBoc(serializeBoc([proof]))[0];
    expect(parsed.isExotic).toBe(true);
    expect(parsed.refs[0].hash(0).equals(proofRoot.hash())).toBe(true);
    expect(parsed.refs[0].refs[0].isExotic).toBe(true);
    expect(prunedBranch(inner).hash(0).equals(inner.hash())).toBe(true);
  });
});

describe('labels', () => {
  it.each([
    [0n, 0, 0],
    [0n, 0, 256],
    [5n, 3, 10],
    [0n, 200, 256],
    [(1n << 100n) - 1n, 100, 255],
    [0x1234n, 16, 256],
    [1n, 1, 1],
  ])('round-trips value %s of %s bits with max %s', (value, length, max) => {
    const b = beginCell();
    storeLabel(b, value, length, max);
    const label = loadLabel(b.endCell().beginParse(), max);
    expect(label).toEqual({ length, value });
  });

  it('picks hml_same for long runs of one bit', () => {
    const b = beginCell();
    storeLabel(b, 0n, 200, 256);
    expect(b.bits).toBe(3 + 9);
  });
});

const uint32Spec = {
  keyBits: 32,
  storeValue: (v: number, b: Builder) => {
    b.storeUint(v, 32);
  },
};

describe('PersistentDict (plain Hashmap)', () => {
  it('serializes exactly like @ton/core Dictionary for the same entries', () => {
    const keys = [0, 1, 2, 3, 7, 100, 101, 65535, 0x7fffffff, 0xffffffff, 12345678];
    let dict = PersistentDict.empty(uint32Spec);
    const ref = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.Uint(32));
    for (const k of keys) {
      dict = dict.set(BigInt(k), (k ^ 0x5a5a) >>> 0, null);
      ref.set(k, (k ^ 0x5a5a) >>> 0);
    }
    const refCell = beginCell().storeDictDirect(ref).endCell();
    expect(dict.rootCell()?.hash().toString('hex')).toBe(refCell.hash().toString('hex'));
    expect(dict.size).toBe(keys.length);
    expect([...dict.entries()].map((e) => Number(e.key))).toEqual([...keys].sort((a, b) => a - b));
  });

  it('is persistent: older versions keep their entries and cells', () => {
    const v1 = PersistentDict.from(
      uint32Spec,
      [1, 2, 3].map((k) => ({ key: BigInt(k), value: k, extra: null })),
    );
    const h1 = v1.rootCell()?.hash().toString('hex');
    const v2 = v1.set(2n, 20, null).delete(3n).set(9n, 9, null);
    expect(v1.get(2n)?.value).toBe(2);
    expect(v1.get(3n)?.value).toBe(3);
    expect(v1.rootCell()?.hash().toString('hex')).toBe(h1);
    expect(v2.get(2n)?.value).toBe(20);
    expect(v2.has(3n)).toBe(false);
    expect(v2.size).toBe(3);
    const rebuilt = PersistentDict.from(uint32Spec, [
      { key: 1n, value: 1, extra: null },
      { key: 2n, value: 20, extra: null },
      { key: 9n, value: 9, extra: null },
    ]);
    expect(v2.rootCell()?.hash().toString('hex')).toBe(rebuilt.rootCell()?.hash().toString('hex'));
  });

  it('deleting the last key empties the dictionary', () => {
    const d = PersistentDict.empty(uint32Spec).set(5n, 5, null).delete(5n);
    expect(d.isEmpty).toBe(true);
    expect(d.rootCell()).toBeNull();
    const b = beginCell();
    d.storeHashmapE(b);
    expect(b.bits).toBe(1);
  });

  it('random insert/delete sequences match a dictionary rebuilt from scratch', () => {
    let seed = 12345;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    let dict = PersistentDict.empty(uint32Spec);
    const model = new Map<number, number>();
    for (let i = 0; i < 400; i++) {
      const k = rnd() % 64;
      if (rnd() % 3 === 0) {
        dict = dict.delete(BigInt(k));
        model.delete(k);
      } else {
        dict = dict.set(BigInt(k), i, null);
        model.set(k, i);
      }
    }
    const ref = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.Uint(32));
    for (const [k, v] of model) ref.set(k, v);
    expect(dict.size).toBe(model.size);
    expect(dict.rootCell()?.hash().toString('hex')).toBe(beginCell().storeDictDirect(ref).endCell().hash().toString('hex'));
  });
});

describe('PersistentDict (HashmapAug)', () => {
  const sumSpec = {
    keyBits: 16,
    storeValue: (v: number, b: Builder) => {
      b.storeUint(v, 16);
    },
    aug: {
      zero: 0,
      combine: (a: number, b: number) => a + b,
      store: (e: number, b: Builder) => {
        b.storeUint(e, 32);
      },
    },
  };

  /** Independent check: walk the cells, re-add leaf extras, compare with each fork's extra. */
  function checkAug(cell: Cell, n: number): number {
    const s = cell.beginParse();
    const label = loadLabel(s, n);
    const rest = n - label.length;
    if (rest === 0) {
      const extra = s.loadUint(32);
      expect(s.loadUint(16)).toBe(extra);
      expect(s.remainingBits).toBe(0);
      return extra;
    }
    const l = checkAug(s.loadRef(), rest - 1);
    const r = checkAug(s.loadRef(), rest - 1);
    const extra = s.loadUint(32);
    expect(extra).toBe(l + r);
    expect(s.remainingBits).toBe(0);
    return extra;
  }

  it('stores extras at leaves and sums at forks', () => {
    let d = PersistentDict.empty(sumSpec);
    for (const k of [3, 9, 1000, 4096, 65535, 7]) d = d.set(BigInt(k), k, k);
    expect(d.extra).toBe(3 + 9 + 1000 + 4096 + 65535 + 7);
    expect(checkAug(d.rootCell() as Cell, 16)).toBe(d.extra);
    const b = beginCell();
    d.storeHashmapAugE(b);
    const s = b.endCell().beginParse();
    expect(s.loadBit()).toBe(true);
    s.loadRef();
    expect(s.loadUint(32)).toBe(d.extra);
    const empty = beginCell();
    PersistentDict.empty(sumSpec).storeHashmapAugE(empty);
    expect(empty.bits).toBe(33);
  });

  it('reuses the cells of untouched subtrees', () => {
    let d = PersistentDict.empty(sumSpec);
    for (let k = 0; k < 256; k++) d = d.set(BigInt(k * 251), 1, 1);
    const before = d.rootCell() as Cell;
    const d2 = d.set(5n * 251n, 2, 2);
    const after = d2.rootCell() as Cell;
    // The half of the tree that does not contain the key is the very same object.
    const side = (5 * 251) >> 15 ? 1 : 0;
    expect(after.refs[1 - side]).toBe(before.refs[1 - side]);
    expect(after.hash().equals(before.hash())).toBe(false);
  });

  /** The cells under `root` that are not among `known` (by identity): what a serialization built anew. */
  function newCells(root: Cell, known: Set<Cell>): number {
    let count = 0;
    const stack = [root];
    const seen = new Set<Cell>();
    while (stack.length > 0) {
      const c = stack.pop() as Cell;
      if (seen.has(c) || known.has(c)) continue;
      seen.add(c);
      count++;
      stack.push(...c.refs);
    }
    return count;
  }

  function allCells(root: Cell): Set<Cell> {
    const all = new Set<Cell>();
    const stack = [root];
    while (stack.length > 0) {
      const c = stack.pop() as Cell;
      if (all.has(c)) continue;
      all.add(c);
      stack.push(...c.refs);
    }
    return all;
  }

  it('fromCell reads a dictionary back with its own cells: same entries, extras and size, nothing rebuilt', () => {
    let d = PersistentDict.empty(sumSpec);
    for (let k = 0; k < 300; k++) d = d.set(BigInt((k * 7919) % 65536), k + 1, k + 1);
    // The cells as a state file gives them back: decoded from a BoC, none of them the writer's objects.
    const saved = Cell.fromBoc((d.rootCell() as Cell).toBoc())[0];
    const read = PersistentDict.fromCell(sumSpec, saved, (_key, s) => {
      const extra = s.loadUint(32);
      return { value: s.loadUint(16), extra };
    });
    expect(read.size).toBe(d.size);
    expect(read.extra).toBe(d.extra);
    expect([...read.entries()]).toEqual([...d.entries()]);
    // Serializing it builds no cell: the root is the cell it was read from.
    expect(read.rootCell()).toBe(saved);
    expect(PersistentDict.fromCell(sumSpec, null, () => ({ value: 0, extra: 0 })).isEmpty).toBe(true);
  });

  it('a dictionary read by fromCell rebuilds only the changed paths, however many entries it holds', () => {
    const build = (count: number) => {
      let d = PersistentDict.empty(sumSpec);
      for (let k = 0; k < count; k++) d = d.set(BigInt((k * 7919) % 65536), 1, 1);
      const saved = Cell.fromBoc((d.rootCell() as Cell).toBoc())[0];
      return { saved, dict: PersistentDict.fromCell(sumSpec, saved, (_key, s) => ({ extra: s.loadUint(32), value: s.loadUint(16) })) };
    };
    for (const count of [200, 20_000]) {
      const { saved, dict } = build(count);
      const known = allCells(saved);
      // Two entries changed and one added: at most one new cell per level of their paths (16-bit keys).
      const changed = dict.set(7919n, 5, 5).set(0n, 3, 3).set(1n, 9, 9);
      const fresh = newCells(changed.rootCell() as Cell, known);
      expect(fresh).toBeGreaterThan(0);
      expect(fresh).toBeLessThanOrEqual(3 * 17);
      // The same entries built key by key (as before fromCell) give the same root hash.
      const rebuilt = PersistentDict.from(sumSpec, changed.entries());
      expect((changed.rootCell() as Cell).hash().equals((rebuilt.rootCell() as Cell).hash())).toBe(true);
    }
  });
});

describe('dictLookupPath', () => {
  const d = PersistentDict.from(
    uint32Spec,
    [10, 20, 30, 40, 1 << 20].map((k) => ({ key: BigInt(k), value: k + 1, extra: null })),
  );
  it('finds present keys and returns the cells on the way', () => {
    const path = dictLookupPath(d.rootCell(), 32, 30n);
    expect(path.value?.loadUint(32)).toBe(31);
    expect(path.cells[0]).toBe(d.rootCell());
    expect(path.cells.length).toBeGreaterThan(1);
  });
  it('reports absent keys', () => {
    expect(dictLookupPath(d.rootCell(), 32, 31n).value).toBeNull();
    expect(dictLookupPath(null, 32, 31n)).toEqual({ cells: [], value: null });
  });
});

describe('Merkle proofs', () => {
  it('prunes everything outside the keep set and keeps the virtual hash', () => {
    const d = PersistentDict.from(
      uint32Spec,
      Array.from({ length: 50 }, (_, i) => ({ key: BigInt(i * 7919), value: i, extra: null })),
    );
    const root = d.rootCell() as Cell;
    const path = dictLookupPath(root, 32, 7919n * 13n);
    const proof = merkleProof(root, { open: new Set(path.cells) });
    const parsed = Cell.fromBoc(serializeBoc([proof]))[0];
    expect(parsed.isExotic).toBe(true);
    const content = parsed.refs[0];
    expect(content.hash(0).equals(root.hash())).toBe(true);
    // The proof reveals the path: the same lookup works on the virtual tree.
    expect(dictLookupPath(content, 32, 7919n * 13n).value?.loadUint(32)).toBe(13);
    // And nothing else: a different key runs into a pruned branch.
    expect(() => dictLookupPath(content, 32, 7919n * 40n)).toThrow(/pruned/);
    expect(serializeBoc([proof]).length).toBeLessThan(serializeBoc([root]).length);
  });

  it('serializes proofs without building them, byte-identical to the built proof cells', () => {
    const d = PersistentDict.from(
      uint32Spec,
      Array.from({ length: 300 }, (_, i) => ({ key: BigInt(i * 104729), value: i, extra: null })),
    );
    const root = beginCell()
      .storeUint(7, 8)
      .storeRef(d.rootCell() as Cell)
      .storeRef(uintCell(99))
      .endCell();
    const path = dictLookupPath(root.refs[0], 32, 104729n * 77n);
    const keep = { open: new Set([root, ...path.cells]), full: new Set([root.refs[1]]) };
    const other = uintCell(5);
    const fast = serializeProofs([{ root, keep }, other, { root: root.refs[0], keep: { open: new Set([root.refs[0]]) } }]);
    const slow = serializeBoc([merkleProof(root, keep), other, merkleProof(root.refs[0], { open: new Set([root.refs[0]]) })]);
    expect(fast.equals(slow)).toBe(true);
    const parsed = Cell.fromBoc(fast);
    expect(parsed[0].refs[0].hash(0).equals(root.hash())).toBe(true);
    // A proof of a tree that already holds pruned cells (level 1), like a block's state update.
    const upd = merkleUpdateStub(uintCell(1), uintCell(2));
    const block = beginCell().storeRef(upd).storeRef(uintCell(3)).endCell();
    const keepBlock = { open: new Set([block, upd]) };
    expect(serializeProofs([{ root: block, keep: keepBlock }]).equals(serializeBoc([merkleProof(block, keepBlock)]))).toBe(true);
  });

  it('builds a MERKLE_UPDATE whose hashes name both states', () => {
    const a = uintCell(1);
    const b = beginCell().storeRef(uintCell(2)).endCell();
    const upd = merkleUpdateStub(a, b);
    expect(upd.isExotic).toBe(true);
    expect(upd.level()).toBe(0);
    expect(upd.bits.length).toBe(552);
    expect(upd.refs[1].hash(0).equals(b.hash())).toBe(true);
    const reparsed = Cell.fromBoc(serializeBoc([upd]))[0];
    expect(reparsed.hash().equals(upd.hash())).toBe(true);
  });
});
