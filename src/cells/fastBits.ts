import { BitBuilder, BitReader, type BitString } from '@ton/core';
import { bitStringFields, readBytes, readUintBig } from './bitRead';

/**
 * @ton/core's BitReader reads every unsigned field bit by bit into a BigInt (`res += 1n << ...`
 * per bit: a BigInt allocation per bit), and any byte field off a byte boundary (every address in
 * a message header: 267 bits after a 4-bit tag) byte by byte through that. In the local chain's
 * thread this was the largest single source of garbage (~1 MB of 3.5 MB allocated per wallet
 * transfer at 50 a second: sandbox and the chain reading transactions, messages and accounts) and
 * ~5 % of its CPU. `useFastBits()` replaces the two private readers with ones that read the
 * same bits through whole bytes and plain numbers, one BigInt per 40 bits; anything out of range
 * goes to @ton/core's own reader, so its errors are unchanged. Its BitBuilder writes every
 * unsigned field (each `storeUint`, and every byte of a buffer stored off a byte boundary) through
 * a BigInt and several BigInt shifts a byte: a number that fits 48 bits is written with numbers
 * here (~0.2 MB of the 2.5 MB left per transfer, most of it the pruned branches and dictionary
 * cells a seal builds). test/unit/fastBits.test.ts compares both ways on random bit strings,
 * offsets and values.
 */

interface BitReaderInternals {
  readonly _bits: BitString;
  _preloadUint(bits: number, offset: number): bigint;
  _preloadBuffer(bytes: number, offset: number): Buffer;
}

const proto = BitReader.prototype as unknown as BitReaderInternals;
const slowUint = proto._preloadUint;
const slowBuffer = proto._preloadBuffer;

function fastPreloadUint(this: BitReaderInternals, bits: number, offset: number): bigint {
  const { _data: data, _offset: base, _length: length } = bitStringFields(this._bits);
  if (bits <= 0 || offset < 0 || offset + bits > length || !Buffer.isBuffer(data)) return slowUint.call(this, bits, offset);
  return readUintBig(data, base + offset, bits);
}

function fastPreloadBuffer(this: BitReaderInternals, bytes: number, offset: number): Buffer {
  const { _data: data, _offset: base, _length: length } = bitStringFields(this._bits);
  const start = base + offset;
  // Byte-aligned fields are views already (@ton/core's own path); out of range: its errors.
  if (start % 8 === 0 || bytes <= 0 || offset < 0 || offset + bytes * 8 > length || !Buffer.isBuffer(data)) return slowBuffer.call(this, bytes, offset);
  return readBytes(data, start, bytes);
}

interface BitBuilderInternals {
  _buffer: Buffer;
  _length: number;
  writeUint(value: bigint | number, bits: number): void;
}

const builderProto = BitBuilder.prototype as unknown as BitBuilderInternals;
const slowWriteUint = builderProto.writeUint;

/** Largest width written with numbers: values below 2^48 divide exactly by powers of two. */
const NUMBER_BITS = 48;

function fastWriteUint(this: BitBuilderInternals, value: bigint | number, bits: number): void {
  // Anything else (a bigint, a value out of range, an overflow, a bad width) is @ton/core's, errors included.
  if (typeof value !== 'number' || !Number.isInteger(bits) || bits <= 0 || bits > NUMBER_BITS || !Number.isInteger(value) || value < 0 || value >= 2 ** bits || this._length + bits > this._buffer.length * 8) {
    slowWriteUint.call(this, value, bits);
    return;
  }
  const buffer = this._buffer;
  let length = this._length;
  let left = bits;
  while (left > 0) {
    const room = 8 - (length & 7);
    const take = Math.min(room, left);
    // The next `take` bits of the value, from its top: the bytes past `length` are still zero.
    const chunk = Math.floor(value / 2 ** (left - take)) % (1 << take);
    buffer[length >> 3]! |= chunk << (room - take);
    length += take;
    left -= take;
  }
  this._length = length;
}

/**
 * The private members replaced are @ton/core 0.63's (package.json pins the version); another
 * version without them keeps its own readers, as does a BitString whose fields are not the ones
 * read here (each fast reader checks for a Buffer and falls back).
 */
function internalsPresent(): boolean {
  return typeof slowUint === 'function' && typeof slowBuffer === 'function' && typeof slowWriteUint === 'function' && slowWriteUint.length === 2;
}

/** Makes @ton/core's BitReader and BitBuilder work through bytes and numbers in this thread (idempotent; the bits are the same). */
export function useFastBits(): void {
  if (!internalsPresent()) return;
  proto._preloadUint = fastPreloadUint;
  proto._preloadBuffer = fastPreloadBuffer;
  builderProto.writeUint = fastWriteUint;
}

/** Puts @ton/core's own readers and writer back (tests compare the two). */
export function useSlowBits(): void {
  proto._preloadUint = slowUint;
  proto._preloadBuffer = slowBuffer;
  builderProto.writeUint = slowWriteUint;
}
