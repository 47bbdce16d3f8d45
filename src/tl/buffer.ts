/**
 * Byte-level TL reader and writer (little-endian, 4-byte aligned). Own implementation because
 * ton-tl's buffers copy byte by byte and its readInt64 mutates the source for negative values.
 */

/** The bytes are not a valid TL serialization of the expected type. */
export class TlDecodeError extends Error {
  override name = 'TlDecodeError';
}

/** A value cannot be serialized (wrong size, out of range, missing field the flags call for). */
export class TlEncodeError extends Error {
  override name = 'TlEncodeError';
}

const BOOL_TRUE = 0x997275b5;
const BOOL_FALSE = 0xbc799737;
const INT64_MIN = -(2n ** 63n);
const UINT64_LIMIT = 2n ** 64n;
const MAX_BYTES_LENGTH = 2 ** 24 - 1;

export class TlReader {
  private offset = 0;

  constructor(private readonly source: Buffer) {}

  get remaining(): number {
    return this.source.length - this.offset;
  }

  private take(count: number): Buffer {
    if (count > this.remaining) {
      throw new TlDecodeError(`unexpected end of data: need ${count} bytes, have ${this.remaining}`);
    }
    const slice = this.source.subarray(this.offset, this.offset + count);
    this.offset += count;
    return slice;
  }

  int32(): number {
    return this.take(4).readInt32LE(0);
  }

  uint32(): number {
    return this.take(4).readUInt32LE(0);
  }

  /** TL `long` as a signed decimal string (ton-lite-client's representation). */
  int64(): string {
    return this.take(8).readBigInt64LE(0).toString();
  }

  int256(): Buffer {
    return Buffer.from(this.take(32));
  }

  bytes(): Buffer {
    const first = this.take(1)[0];
    let length: number;
    let headerSize: number;
    if (first < 254) {
      length = first;
      headerSize = 1;
    } else if (first === 254) {
      length = this.take(3).readUIntLE(0, 3);
      headerSize = 4;
    } else {
      throw new TlDecodeError('TL bytes longer than 2^24 are not supported');
    }
    const data = this.take(length);
    this.take((4 - ((headerSize + length) % 4)) % 4);
    return data;
  }

  string(): string {
    return this.bytes().toString('utf8');
  }

  bool(): boolean {
    const value = this.uint32();
    if (value === BOOL_TRUE) return true;
    if (value === BOOL_FALSE) return false;
    throw new TlDecodeError(`invalid Bool constructor 0x${value.toString(16).padStart(8, '0')}`);
  }

  /** Reads the element count of a vector, rejecting counts the remaining bytes cannot hold. */
  vectorLength(): number {
    const count = this.uint32();
    // Every TL value takes at least 4 bytes, so a larger count is garbage and must not drive a loop.
    if (count > this.remaining / 4) {
      throw new TlDecodeError(`vector length ${count} exceeds the remaining ${this.remaining} bytes`);
    }
    return count;
  }

  /** Peeks the next constructor id without consuming it. */
  peekUint32(): number {
    if (this.remaining < 4) throw new TlDecodeError('unexpected end of data: need a constructor id');
    return this.source.readUInt32LE(this.offset);
  }

  /** Everything not read yet (used where a TL `Object` is carried opaquely). */
  rest(): Buffer {
    return this.take(this.remaining);
  }

  /** Fails when bytes are left over, as a real lite server does ("Too much data to fetch"). */
  expectEnd(): void {
    if (this.remaining !== 0) {
      throw new TlDecodeError(`${this.remaining} unexpected trailing bytes`);
    }
  }
}

export class TlWriter {
  private readonly chunks: Buffer[] = [];
  private length = 0;

  private push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  int32(value: number): void {
    // Unsigned 32-bit values (hashes such as validator_set_hash) are accepted and wrap like in C++.
    if (!Number.isInteger(value) || value < -0x80000000 || value > 0xffffffff) {
      throw new TlEncodeError(`int ${value} is out of range`);
    }
    const chunk = Buffer.allocUnsafe(4);
    chunk.writeInt32LE(value | 0, 0);
    this.push(chunk);
  }

  uint32(value: number): void {
    if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) {
      throw new TlEncodeError(`# ${value} is out of range`);
    }
    const chunk = Buffer.allocUnsafe(4);
    chunk.writeUInt32LE(value, 0);
    this.push(chunk);
  }

  /** Accepts a signed decimal string; unsigned values up to 2^64-1 (e.g. shard ids) are reinterpreted. */
  int64(value: string): void {
    let parsed: bigint;
    try {
      parsed = BigInt(value);
    } catch {
      throw new TlEncodeError(`long ${JSON.stringify(value)} is not a decimal integer`);
    }
    if (parsed < INT64_MIN || parsed >= UINT64_LIMIT) {
      throw new TlEncodeError(`long ${value} is out of range`);
    }
    const chunk = Buffer.allocUnsafe(8);
    chunk.writeBigUInt64LE(BigInt.asUintN(64, parsed), 0);
    this.push(chunk);
  }

  int256(value: Buffer): void {
    if (!Buffer.isBuffer(value) || value.length !== 32) {
      throw new TlEncodeError(`int256 must be a 32-byte Buffer`);
    }
    this.push(Buffer.from(value));
  }

  bytes(value: Buffer): void {
    if (!Buffer.isBuffer(value)) throw new TlEncodeError('bytes must be a Buffer');
    if (value.length > MAX_BYTES_LENGTH) {
      throw new TlEncodeError(`bytes of ${value.length} bytes exceed the 2^24-1 limit`);
    }
    let header: Buffer;
    if (value.length < 254) {
      header = Buffer.from([value.length]);
    } else {
      header = Buffer.allocUnsafe(4);
      header[0] = 254;
      header.writeUIntLE(value.length, 1, 3);
    }
    this.push(header);
    this.push(value);
    const padding = (4 - ((header.length + value.length) % 4)) % 4;
    if (padding > 0) this.push(Buffer.alloc(padding));
  }

  string(value: string): void {
    this.bytes(Buffer.from(value, 'utf8'));
  }

  bool(value: boolean): void {
    this.uint32(value ? BOOL_TRUE : BOOL_FALSE);
  }

  /** Appends already serialized TL (must be 4-byte aligned to keep the stream valid). */
  raw(value: Buffer): void {
    this.push(value);
  }

  build(): Buffer {
    return this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.length);
  }
}
