import { randomBytes, randomInt } from 'node:crypto';
import { Address, beginCell, BitBuilder, BitReader, BitString, internal, loadMessage, storeMessage, toNano } from '@ton/core';
import { useFastBits, useSlowBits } from '../../src/cells/fastBits';

/**
 * The byte-level readers behind @ton/core's BitReader and the number writer behind its BitBuilder
 * (src/cells/fastBits.ts) read and write the same bits as @ton/core's own, throw the same errors
 * out of range, and are the functions @ton/core calls once switched on (a release that renames
 * them fails here).
 */

interface Readers {
  _preloadUint(bits: number, offset: number): bigint;
  _preloadBuffer(bytes: number, offset: number): Buffer;
}

const proto = BitReader.prototype as unknown as Readers;

/** Both readers' answers (or error messages) for one read. */
function both<T>(read: () => T): { slow: T | string; fast: T | string } {
  const attempt = (): T | string => {
    try {
      return read();
    } catch (err) {
      return `error: ${(err as Error).message}`;
    }
  };
  useSlowBits();
  const slow = attempt();
  useFastBits();
  const fast = attempt();
  useSlowBits();
  return { slow, fast };
}

afterAll(() => useSlowBits());

describe('fast BitReader reads and BitBuilder writes', () => {
  test('unsigned fields of every width at every offset equal @ton/core own', () => {
    for (let round = 0; round < 3000; round++) {
      const data = randomBytes(randomInt(1, 140));
      const offset = randomInt(0, 8);
      const length = randomInt(0, data.length * 8 - offset + 1);
      const reader = new BitReader(new BitString(data, offset, length)) as unknown as Readers;
      // Mostly in range, sometimes past the end (the error must be @ton/core's).
      const at = randomInt(0, length + 2);
      const bits = randomInt(0, Math.min(300, length - at + 3) + 1);
      const { slow, fast } = both(() => reader._preloadUint(bits, at));
      expect(fast).toEqual(slow);
    }
  });

  test('byte fields off a byte boundary equal @ton/core own', () => {
    for (let round = 0; round < 3000; round++) {
      const data = randomBytes(randomInt(1, 80));
      const offset = randomInt(0, 8);
      const length = randomInt(0, data.length * 8 - offset + 1);
      const reader = new BitReader(new BitString(data, offset, length)) as unknown as Readers;
      const at = randomInt(0, length + 2);
      const bytes = randomInt(0, Math.floor(Math.max(0, length - at) / 8) + 2);
      const { slow, fast } = both(() => reader._preloadBuffer(bytes, at).toString('hex'));
      expect(fast).toEqual(slow);
    }
  });

  test('unsigned writes of numbers at every offset write the bits @ton/core writes', () => {
    for (let round = 0; round < 3000; round++) {
      const size = randomInt(8, 200);
      const before = randomInt(0, size + 1);
      const bits = randomInt(-1, 60);
      // Mostly in range; sometimes too large, fractional, negative or a bigint (all @ton/core's).
      const pick = randomInt(0, 20);
      const top = bits > 0 ? 2 ** Math.min(bits, 52) : 1;
      const value: number | bigint =
        pick === 0 ? top : pick === 1 ? 1.5 : pick === 2 ? -1 : pick === 3 ? BigInt(randomInt(0, 1000)) : Math.floor(Math.random() * top);
      const { slow, fast } = both(() => {
        const builder = new BitBuilder(size);
        for (let i = 0; i < before; i++) builder.writeBit(i % 3 === 0);
        builder.writeUint(value, bits);
        return builder.build().toString();
      });
      expect(fast).toEqual(slow);
    }
  });

  test('a message read through them is the same message', () => {
    const message = internal({ to: new Address(0, randomBytes(32)), value: toNano('1.5'), bounce: true, body: beginCell().storeUint(7, 32).endCell() });
    const cell = beginCell()
      .store(storeMessage({ ...message, info: { ...message.info, src: new Address(-1, randomBytes(32)), createdLt: 123456789n, createdAt: 1_800_000_000 } } as Parameters<typeof storeMessage>[0]))
      .endCell();
    const { slow, fast } = both(() => {
      const parsed = loadMessage(cell.beginParse());
      return beginCell().store(storeMessage(parsed)).endCell().hash().toString('hex');
    });
    expect(fast).toEqual(slow);
    expect(fast).toBe(cell.hash().toString('hex'));
  });

  test('switched on, they are what BitReader calls', () => {
    const writer = BitBuilder.prototype as unknown as { writeUint: unknown };
    useSlowBits();
    const slow = { uint: proto._preloadUint, buffer: proto._preloadBuffer, write: writer.writeUint };
    useFastBits();
    expect(proto._preloadUint).not.toBe(slow.uint);
    expect(proto._preloadBuffer).not.toBe(slow.buffer);
    expect(writer.writeUint).not.toBe(slow.write);
    useSlowBits();
    expect(proto._preloadUint).toBe(slow.uint);
    expect(writer.writeUint).toBe(slow.write);
  });
});
