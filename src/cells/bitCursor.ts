import type { Cell } from '@ton/core';

/** The fields of @ton/core's BitString (its bits are `length` bits of `data` from bit `offset`). */
interface BitStringFields {
  readonly _data: Buffer;
  readonly _offset: number;
  readonly _length: number;
}

/** A read past a cell's bits or refs, or a layout the reader does not take (the caller falls back). */
export class CursorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CursorError';
  }
}

/**
 * Reads a cell's bits and refs with byte arithmetic on the BitString's own buffer. @ton/core's
 * Slice reads every field through its BitReader, which assembles even a 256-bit hash bit by bit
 * into a bigint (an account address: ~1 µs); parsing a block's transactions that way was the
 * largest cost of the index's thread after the garbage collector (measured with --cpu-prof).
 * Every read checks the cell's bounds and throws CursorError past them.
 */
export class BitCursor {
  private readonly data: Buffer;
  private pos: number;
  private readonly end: number;
  private readonly start: number;
  private refIndex = 0;

  constructor(private readonly cell: Cell) {
    const bits = cell.bits as unknown as BitStringFields;
    this.data = bits._data;
    this.start = bits._offset;
    this.pos = bits._offset;
    this.end = bits._offset + bits._length;
  }

  /** Bits read so far. */
  get offset(): number {
    return this.pos - this.start;
  }

  /** Refs read so far. */
  get refsRead(): number {
    return this.refIndex;
  }

  get remainingBits(): number {
    return this.end - this.pos;
  }

  get remainingRefs(): number {
    return this.cell.refs.length - this.refIndex;
  }

  private need(bits: number): void {
    if (this.pos + bits > this.end) throw new CursorError(`read of ${bits} bits past the cell's end`);
  }

  bit(): boolean {
    this.need(1);
    const p = this.pos++;
    return ((this.data[p >> 3]! >> (7 - (p & 7))) & 1) === 1;
  }

  /** An unsigned integer of `bits` <= 48 bits. */
  uint(bits: number): number {
    if (bits > 48) throw new CursorError(`uint of ${bits} bits does not fit a number`);
    this.need(bits);
    let value = 0;
    let left = bits;
    let p = this.pos;
    while (left > 0) {
      const inByte = p & 7;
      const take = Math.min(8 - inByte, left);
      const chunk = (this.data[p >> 3]! >> (8 - inByte - take)) & ((1 << take) - 1);
      value = value * (1 << take) + chunk;
      p += take;
      left -= take;
    }
    this.pos = p;
    return value;
  }

  /** A signed integer of `bits` <= 48 bits. */
  int(bits: number): number {
    const value = this.uint(bits);
    const half = 2 ** (bits - 1);
    return value >= half ? value - 2 * half : value;
  }

  /** An unsigned integer of any width as a bigint. */
  uintBig(bits: number): bigint {
    let value = 0n;
    let left = bits;
    while (left > 0) {
      const take = Math.min(32, left);
      value = (value << BigInt(take)) | BigInt(this.uint(take));
      left -= take;
    }
    return value;
  }

  /** `VarUInteger n` with a length field of `lengthBits` bits (Grams: 4). */
  varUint(lengthBits: number): bigint {
    const bytes = this.uint(lengthBits);
    return bytes === 0 ? 0n : this.uintBig(bytes * 8);
  }

  coins(): bigint {
    return this.varUint(4);
  }

  /** `bytes` whole bytes, copied (the caller may keep them). */
  bytes(bytes: number): Buffer {
    this.need(bytes * 8);
    const out = Buffer.allocUnsafe(bytes);
    const p = this.pos;
    const shift = p & 7;
    const first = p >> 3;
    if (shift === 0) {
      this.data.copy(out, 0, first, first + bytes);
    } else {
      for (let i = 0; i < bytes; i++) {
        const hi = this.data[first + i]!;
        // The byte after may lie past the buffer only when its bits are not needed.
        const lo = this.data[first + i + 1] ?? 0;
        out[i] = ((hi << shift) | (lo >> (8 - shift))) & 0xff;
      }
    }
    this.pos = p + bytes * 8;
    return out;
  }

  skip(bits: number): void {
    this.need(bits);
    this.pos += bits;
  }

  ref(): Cell {
    const ref = this.cell.refs[this.refIndex];
    if (!ref) throw new CursorError('read of a ref past the cell\'s refs');
    this.refIndex++;
    return ref;
  }

  /** `Maybe ^X`: the ref when the bit is set. */
  maybeRef(): Cell | null {
    return this.bit() ? this.ref() : null;
  }
}
