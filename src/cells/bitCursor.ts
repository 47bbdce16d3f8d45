import type { Cell } from '@ton/core';
import { bitStringFields, readBytes, readUintBig, readUintNumber } from './bitRead';

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
  /** The cell's refs, asked once (a lean cell makes its refs array when asked). */
  private readonly refs: readonly Cell[];

  constructor(cell: Cell) {
    this.refs = cell.refs;
    const bits = bitStringFields(cell.bits);
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
    return this.refs.length - this.refIndex;
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
    const value = readUintNumber(this.data, this.pos, bits);
    this.pos += bits;
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
    this.need(bits);
    const value = readUintBig(this.data, this.pos, bits);
    this.pos += bits;
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
    const out = readBytes(this.data, this.pos, bytes);
    this.pos += bytes * 8;
    return out;
  }

  skip(bits: number): void {
    this.need(bits);
    this.pos += bits;
  }

  ref(): Cell {
    const ref = this.refs[this.refIndex];
    if (!ref) throw new CursorError('read of a ref past the cell\'s refs');
    this.refIndex++;
    return ref;
  }

  /** `Maybe ^X`: the ref when the bit is set. */
  maybeRef(): Cell | null {
    return this.bit() ? this.ref() : null;
  }
}
