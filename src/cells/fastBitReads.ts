import { BitReader, type BitString } from '@ton/core';

/**
 * @ton/core's BitReader reads every unsigned field bit by bit into a BigInt (`res += 1n << ...`
 * per bit: a BigInt allocation per bit), and any byte field off a byte boundary (every address in
 * a message header: 267 bits after a 4-bit tag) byte by byte through that. In the local chain's
 * thread this was the largest single source of garbage (~1 MB of 3.5 MB allocated per wallet
 * transfer at 50 a second: sandbox and the chain reading transactions, messages and accounts) and
 * ~5 % of its CPU. `useFastBitReads()` replaces the two private readers with ones that read the
 * same bits through whole bytes and plain numbers, one BigInt per 40 bits; anything out of range
 * goes to @ton/core's own reader, so its errors are unchanged. test/unit/fastBitReads.test.ts
 * compares both on random bit strings and offsets.
 */

/** The fields of @ton/core's BitString (its bits are `length` bits of `data` from bit `offset`). */
interface BitStringFields {
  readonly _data: Buffer;
  readonly _offset: number;
  readonly _length: number;
}

interface BitReaderInternals {
  readonly _bits: BitString;
  _preloadUint(bits: number, offset: number): bigint;
  _preloadBuffer(bytes: number, offset: number): Buffer;
}

const proto = BitReader.prototype as unknown as BitReaderInternals;
const slowUint = proto._preloadUint;
const slowBuffer = proto._preloadBuffer;

/** The unsigned value of `bits` bits of `data` from absolute bit `pos` (big endian). */
export function readUintBits(data: Buffer, pos: number, bits: number): bigint {
  let big = 0n;
  let small = 0;
  let pending = 0;
  for (let i = 0; i < bits; ) {
    const p = pos + i;
    const inByte = p & 7;
    const take = Math.min(8 - inByte, bits - i);
    small = small * (1 << take) + ((data[p >> 3]! >> (8 - inByte - take)) & ((1 << take) - 1));
    pending += take;
    i += take;
    // Below 2^53 at most 47 bits are pending: exact in a double.
    if (pending >= 40) {
      big = (big << BigInt(pending)) | BigInt(small);
      small = 0;
      pending = 0;
    }
  }
  return pending === bits ? BigInt(small) : (big << BigInt(pending)) | BigInt(small);
}

function fastPreloadUint(this: BitReaderInternals, bits: number, offset: number): bigint {
  const { _data: data, _offset: base, _length: length } = this._bits as unknown as BitStringFields;
  if (bits <= 0 || offset < 0 || offset + bits > length || !Buffer.isBuffer(data)) return slowUint.call(this, bits, offset);
  return readUintBits(data, base + offset, bits);
}

function fastPreloadBuffer(this: BitReaderInternals, bytes: number, offset: number): Buffer {
  const { _data: data, _offset: base, _length: length } = this._bits as unknown as BitStringFields;
  const start = base + offset;
  // Byte-aligned fields are views already (@ton/core's own path); out of range: its errors.
  if (start % 8 === 0 || bytes <= 0 || offset < 0 || offset + bytes * 8 > length || !Buffer.isBuffer(data)) return slowBuffer.call(this, bytes, offset);
  const out = Buffer.alloc(bytes);
  const shift = start & 7;
  let at = start >> 3;
  for (let i = 0; i < bytes; i++, at++) out[i] = ((data[at]! << shift) | (data[at + 1]! >> (8 - shift))) & 0xff;
  return out;
}

/** Makes @ton/core's BitReader read through bytes in this thread (idempotent; the values are the same). */
export function useFastBitReads(): void {
  proto._preloadUint = fastPreloadUint;
  proto._preloadBuffer = fastPreloadBuffer;
}

/** Puts @ton/core's own readers back (tests compare the two). */
export function useSlowBitReads(): void {
  proto._preloadUint = slowUint;
  proto._preloadBuffer = slowBuffer;
}
