import { TlDecodeError, TlEncodeError, TlReader, TlWriter } from '../../src/tl';

function written(fill: (writer: TlWriter) => void): Buffer {
  const writer = new TlWriter();
  fill(writer);
  return writer.build();
}

describe('TL reader and writer', () => {
  it('round-trips long at both ends of the signed range, and reinterprets unsigned input', () => {
    for (const value of ['-9223372036854775808', '9223372036854775807', '0', '-1', '47000000000001']) {
      expect(new TlReader(written((w) => w.int64(value))).int64()).toBe(value);
    }
    // Shard ids are often written unsigned: 0x8000000000000000 is the signed minimum.
    expect(new TlReader(written((w) => w.int64('9223372036854775808'))).int64()).toBe('-9223372036854775808');
    expect(new TlReader(written((w) => w.int64('18446744073709551615'))).int64()).toBe('-1');
    expect(() => written((w) => w.int64('18446744073709551616'))).toThrow(TlEncodeError);
    expect(() => written((w) => w.int64('12abc'))).toThrow(/not a decimal integer/);
  });

  it('does not modify the source buffer when reading a negative long', () => {
    const source = written((w) => w.int64('-2'));
    const copy = Buffer.from(source);
    new TlReader(source).int64();
    expect(source.equals(copy)).toBe(true);
  });

  it('uses the short bytes form up to 253 bytes and the 0xFE form above, padded to 4', () => {
    const short = written((w) => w.bytes(Buffer.alloc(253, 7)));
    expect(short.length).toBe(256);
    expect(short[0]).toBe(253);
    const long = written((w) => w.bytes(Buffer.alloc(254, 7)));
    expect(long.subarray(0, 4).toString('hex')).toBe('fefe0000');
    expect(long.length).toBe(260);
    const empty = written((w) => w.bytes(Buffer.alloc(0)));
    expect(empty.toString('hex')).toBe('00000000');
    for (const size of [0, 1, 2, 3, 4, 253, 254, 255, 70000]) {
      const data = Buffer.alloc(size, size & 0xff);
      const reader = new TlReader(written((w) => w.bytes(data)));
      expect(reader.bytes().equals(data)).toBe(true);
      expect(reader.remaining).toBe(0);
    }
  });

  it('rejects malformed values', () => {
    expect(() => new TlReader(Buffer.from([255, 0, 0, 0])).bytes()).toThrow(TlDecodeError);
    expect(() => new TlReader(Buffer.from([10, 1, 2])).bytes()).toThrow(/unexpected end/);
    expect(() => written((w) => w.int256(Buffer.alloc(31)))).toThrow(/32-byte/);
    expect(() => written((w) => w.int32(2 ** 32))).toThrow(TlEncodeError);
    expect(() => written((w) => w.uint32(-1))).toThrow(TlEncodeError);
  });

  it('writes unsigned 32-bit hashes into int fields as their signed equivalent', () => {
    expect(new TlReader(written((w) => w.int32(0xffffffff))).int32()).toBe(-1);
  });

  it('round-trips strings as UTF-8', () => {
    expect(new TlReader(written((w) => w.string('блок не найден'))).string()).toBe('блок не найден');
  });
});
