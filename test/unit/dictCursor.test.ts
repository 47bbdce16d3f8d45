import { randomBytes } from 'node:crypto';
import { beginCell, Cell, Dictionary } from '@ton/core';
import { BitCursor, dictLookupCursor, dictLookupPath, forEachDictLeaf, forEachDictLeafCursor, prunedBranch, skipCurrencyCollection } from '../../src/cells';

/**
 * The cursor walks (src/cells/dictCursor.ts) against the Slice walks they replace on the index's
 * thread and against @ton/core's Dictionary: the same leaves in the same order, the same values
 * found and the same keys absent, for keys of 256, 64 and 15 bits (labels of every form: dense
 * small keys make hml_same and short labels, sparse random ones long labels).
 */

/** `value` as a key's first `bits` bits, most significant first (a 15-bit key in the top of 2 bytes). */
function bufferKey(bits: number, value: bigint): Buffer {
  const bytes = Math.ceil(bits / 8);
  return Buffer.from((value << BigInt(bytes * 8 - bits)).toString(16).padStart(bytes * 2, '0'), 'hex');
}

function sampleKeys(bits: number, count: number, dense: boolean): bigint[] {
  const keys = new Set<bigint>();
  while (keys.size < count) {
    const random = BigInt(`0x${randomBytes(Math.ceil(bits / 8)).toString('hex')}`) & ((1n << BigInt(bits)) - 1n);
    keys.add(dense ? BigInt(keys.size * 3) + (random & 1n) : random);
  }
  return [...keys];
}

function dictOf(bits: number, keys: readonly bigint[]): Cell {
  const dict = Dictionary.empty(Dictionary.Keys.BigUint(bits), Dictionary.Values.Uint(32));
  keys.forEach((key, i) => dict.set(key, i + 1));
  return beginCell().storeDictDirect(dict).endCell();
}

describe('dictionary walks with a cursor', () => {
  for (const bits of [256, 64, 15]) {
    for (const dense of [false, true]) {
      test(`${bits}-bit keys, ${dense ? 'dense' : 'random'}: every leaf in order, every lookup`, () => {
        const keys = sampleKeys(bits, bits === 15 ? 200 : 300, dense);
        const root = dictOf(bits, keys);
        const bySlice: number[] = [];
        forEachDictLeaf(root, bits, (_key, value) => bySlice.push(value.loadUint(32)));
        const byCursor: number[] = [];
        forEachDictLeafCursor(root, bits, (value) => byCursor.push(value.uint(32)));
        expect(byCursor).toEqual(bySlice);
        expect(byCursor.length).toBe(keys.length);
        const absent = sampleKeys(bits, 50, dense).filter((key) => !keys.includes(key));
        // Neighbours of present keys share long prefixes with them: the walk must diverge at the last bits.
        for (const key of keys.slice(0, 40)) if (!keys.includes(key ^ 1n)) absent.push(key ^ 1n);
        keys.forEach((key, i) => {
          expect(dictLookupCursor(root, bits, bufferKey(bits, key))?.uint(32)).toBe(i + 1);
        });
        for (const key of absent) {
          expect(dictLookupCursor(root, bits, bufferKey(bits, key))).toBeNull();
          expect(dictLookupPath(root, bits, key).value).toBeNull();
        }
      });
    }
  }

  test('a single-entry dictionary (one label of the whole key) and an empty one', () => {
    const key = sampleKeys(256, 1, false)[0]!;
    const root = dictOf(256, [key]);
    expect(dictLookupCursor(root, 256, bufferKey(256, key))?.uint(32)).toBe(1);
    expect(dictLookupCursor(root, 256, bufferKey(256, key ^ (1n << 200n)))).toBeNull();
    expect(dictLookupCursor(null, 256, bufferKey(256, key))).toBeNull();
    let leaves = 0;
    forEachDictLeafCursor(null, 256, () => leaves++);
    expect(leaves).toBe(0);
  });

  test('a path into a pruned branch throws, as the Slice walk does', () => {
    const keys = sampleKeys(64, 50, false);
    const root = dictOf(64, keys);
    const pruned = new Cell({ bits: root.bits, refs: root.refs.map((ref, i) => (i === 0 ? prunedBranch(ref) : ref)) });
    const inLeft = keys.find((key) => dictLookupPath(root, 64, key).cells[1] === root.refs[0])!;
    expect(() => dictLookupCursor(pruned, 64, bufferKey(64, inLeft))).toThrow();
    expect(() => dictLookupPath(pruned, 64, inLeft)).toThrow();
    expect(() => forEachDictLeafCursor(pruned, 64, () => {})).toThrow();
  });

  test('skipCurrencyCollection: grams and the extra currencies ref', () => {
    const extra = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.BigVarUint(5));
    extra.set(7, 100n);
    const cell = beginCell().storeCoins(123456789n).storeDict(extra).storeCoins(0n).storeBit(false).storeUint(0xab, 8).storeRef(beginCell().storeUint(1, 1).endCell()).endCell();
    const c = new BitCursor(cell);
    skipCurrencyCollection(c);
    skipCurrencyCollection(c);
    expect(c.uint(8)).toBe(0xab);
    expect(c.ref().bits.length).toBe(1);
  });
});
