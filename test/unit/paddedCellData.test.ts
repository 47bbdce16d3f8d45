import { randomBytes } from 'node:crypto';
import { BitBuilder, BitString } from '@ton/core';
import { paddedCellData } from '../../src/cells';

/** The reference: @ton/core's BitBuilder, bit by bit (what paddedCellData did for every partial byte). */
function reference(bits: BitString, completionTag: boolean): Buffer {
  const builder = new BitBuilder(Math.ceil(bits.length / 8) * 8);
  builder.writeBits(bits);
  if (bits.length % 8 !== 0) {
    builder.writeBit(completionTag);
    while (builder.length % 8 !== 0) builder.writeBit(false);
  }
  return builder.buffer();
}

describe('paddedCellData (a cell data as BoC bytes)', () => {
  it('equals the bit-by-bit reference for every length, offset and tail, with and without the completion tag', () => {
    for (let length = 0; length <= 64; length++) {
      for (const offset of [0, 8, 3, 13]) {
        const data = randomBytes(16);
        const bits = new BitString(data, offset, length);
        for (const tag of [true, false]) {
          expect(paddedCellData(bits, tag).toString('hex')).toBe(reference(bits, tag).toString('hex'));
        }
      }
    }
  });

  it('returns a view of bits whose source already holds the completed byte, and never changes the source', () => {
    // 13 bits then the completion tag (bit 13 set, bits 14-15 clear), as a decoded BoC holds them.
    const source = Buffer.from([0xab, 0b1010_0100, 0xff]);
    const copy = Buffer.from(source);
    const bits = new BitString(source, 0, 13);
    const tagged = paddedCellData(bits, true);
    const sameBytes = (a: Buffer, b: Buffer) => a.buffer === b.buffer && a.byteOffset === b.byteOffset;
    expect(sameBytes(tagged, source)).toBe(true);
    expect(tagged.toString('hex')).toBe('aba4');
    // Without the tag the last byte differs from the source's: a copy.
    const plain = paddedCellData(bits, false);
    expect(sameBytes(plain, source)).toBe(false);
    expect(plain.toString('hex')).toBe('aba0');
    expect(source.equals(copy)).toBe(true);
  });
});
