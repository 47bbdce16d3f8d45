import { randomBytes, randomInt } from 'node:crypto';
import { BitString, beginCell } from '@ton/core';
import { BitCursor, CursorError } from '../../src/cells/bitCursor';
import { useSlowBits } from '../../src/cells/fastBits';

/**
 * BitCursor reads a cell's fields with the shared byte-level readers of src/cells/bitRead.ts; every
 * field at every alignment must equal what @ton/core's own Slice reads (its bit-by-bit reader, with
 * the fast patch off), and a read past the cell's bits must throw CursorError.
 */

beforeAll(() => useSlowBits());

/** A cell of `bits` random bits, built from a sub-range of a random buffer so that its BitString has an offset. */
function randomCell(bits: number) {
  const lead = randomInt(0, 8);
  const source = new BitString(randomBytes(Math.ceil((bits + lead) / 8) + 1), lead, bits);
  return beginCell().storeBits(source).endCell();
}

describe('BitCursor', () => {
  test('uint, int, uintBig and bytes equal @ton/core at random alignments', () => {
    for (let round = 0; round < 400; round++) {
      const cell = randomCell(randomInt(300, 1024));
      const cursor = new BitCursor(cell);
      const slice = cell.beginParse();
      while (cursor.remainingBits > 0) {
        const left = cursor.remainingBits;
        const kind = randomInt(0, 4);
        if (kind === 0) {
          const bits = randomInt(1, Math.min(48, left) + 1);
          expect(cursor.uint(bits)).toBe(Number(slice.loadUintBig(bits)));
        } else if (kind === 1) {
          const bits = randomInt(1, Math.min(48, left) + 1);
          expect(cursor.int(bits)).toBe(Number(slice.loadIntBig(bits)));
        } else if (kind === 2) {
          const bits = randomInt(1, Math.min(300, left) + 1);
          expect(cursor.uintBig(bits)).toBe(slice.loadUintBig(bits));
        } else {
          const bytes = randomInt(0, Math.floor(left / 8) + 1);
          expect(cursor.bytes(bytes).equals(slice.loadBuffer(bytes))).toBe(true);
        }
        expect(cursor.offset).toBe(slice.offsetBits);
      }
    }
  });

  test('a read past the cell throws CursorError and leaves the position', () => {
    const cell = randomCell(100);
    const cursor = new BitCursor(cell);
    cursor.skip(90);
    expect(() => cursor.uint(11)).toThrow(CursorError);
    expect(() => cursor.uintBig(64)).toThrow(CursorError);
    expect(() => cursor.bytes(2)).toThrow(CursorError);
    expect(cursor.offset).toBe(90);
    expect(cursor.uint(10)).toBe(Number(cell.beginParse().skip(90).loadUint(10)));
  });
});
