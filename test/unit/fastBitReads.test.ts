import { randomBytes, randomInt } from 'node:crypto';
import { Address, beginCell, BitReader, BitString, internal, loadMessage, storeMessage, toNano } from '@ton/core';
import { useFastBitReads, useSlowBitReads } from '../../src/cells/fastBitReads';

/**
 * The byte-level readers behind @ton/core's BitReader (src/cells/fastBitReads.ts) read the same
 * values as @ton/core's own bit-by-bit ones, throw the same errors out of range, and are the
 * functions @ton/core calls once switched on (a release that renames them fails here).
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
  useSlowBitReads();
  const slow = attempt();
  useFastBitReads();
  const fast = attempt();
  useSlowBitReads();
  return { slow, fast };
}

afterAll(() => useSlowBitReads());

describe('fast BitReader reads', () => {
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
    useSlowBitReads();
    const slow = { uint: proto._preloadUint, buffer: proto._preloadBuffer };
    useFastBitReads();
    expect(proto._preloadUint).not.toBe(slow.uint);
    expect(proto._preloadBuffer).not.toBe(slow.buffer);
    useSlowBitReads();
    expect(proto._preloadUint).toBe(slow.uint);
  });
});
