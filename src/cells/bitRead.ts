import type { BitString } from '@ton/core';

/**
 * The bit-level reads every fast reader of this folder shares (BitCursor, the BitReader patch of
 * fastBits.ts, native hashing): fields read straight from a BitString's own buffer with byte
 * arithmetic and plain numbers, where @ton/core assembles each field bit by bit into a BigInt.
 * Positions are absolute bit positions in `data`; callers check their bounds first.
 */

/** The fields of @ton/core 0.63's BitString (its bits are `length` bits of `data` from bit `offset`). */
export interface BitStringFields {
  readonly _data: Buffer;
  readonly _offset: number;
  readonly _length: number;
}

/** A BitString's buffer, first bit and length (private fields of the pinned @ton/core). */
export function bitStringFields(bits: BitString): BitStringFields {
  return bits as unknown as BitStringFields;
}

/** `bits` <= 48 bits of `data` from bit `pos`, big endian, as a number (exact below 2^53). */
export function readUintNumber(data: Buffer, pos: number, bits: number): number {
  let value = 0;
  let left = bits;
  let p = pos;
  while (left > 0) {
    const inByte = p & 7;
    const take = Math.min(8 - inByte, left);
    value = value * (1 << take) + ((data[p >> 3]! >> (8 - inByte - take)) & ((1 << take) - 1));
    p += take;
    left -= take;
  }
  return value;
}

/** Widest piece read as a number before it joins the BigInt: one BigInt per 40 bits, not per bit. */
const PIECE_BITS = 40;

/** `bits` bits of `data` from bit `pos`, big endian, of any width, as a bigint. */
export function readUintBig(data: Buffer, pos: number, bits: number): bigint {
  if (bits <= PIECE_BITS) return BigInt(readUintNumber(data, pos, bits));
  let value = 0n;
  for (let done = 0; done < bits; ) {
    const take = Math.min(PIECE_BITS, bits - done);
    value = (value << BigInt(take)) | BigInt(readUintNumber(data, pos + done, take));
    done += take;
  }
  return value;
}

/** `bytes` whole bytes of `data` from bit `pos` (any alignment), copied into a new buffer. */
export function readBytes(data: Buffer, pos: number, bytes: number): Buffer {
  const first = pos >> 3;
  const shift = pos & 7;
  if (shift === 0) return Buffer.from(data.subarray(first, first + bytes));
  const out = Buffer.allocUnsafe(bytes);
  for (let i = 0; i < bytes; i++) {
    // The byte after may lie past the buffer only when none of its bits are needed.
    const lo = data[first + i + 1] ?? 0;
    out[i] = ((data[first + i]! << shift) | (lo >> (8 - shift))) & 0xff;
  }
  return out;
}
