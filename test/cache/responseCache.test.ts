import pino from 'pino';
import { ResponseCache, type CachedAnswer } from '../../src/cache/responseCache';
import { canonicalParams, responseKey } from '../../src/cache/key';
import { Address } from '@ton/core';

const logger = pino({ level: 'silent' });

function answer(bytes: number, fill = 1): CachedAnswer {
  return { status: 200, bytes: Buffer.alloc(bytes, fill) };
}

describe('ResponseCache in memory', () => {
  test('the byte bound holds: entries are evicted oldest first once the bytes exceed --cache-size', async () => {
    const cache = new ResponseCache({ maxBytes: 20_000, logger });
    for (let i = 0; i < 100; i++) {
      const found = await cache.lookup(`k${i}`, async () => answer(1000, i));
      expect(found.hit).toBe(false);
      expect(cache.size).toBeLessThanOrEqual(20_000);
    }
    // 1000 bytes + key + bookkeeping each: fewer than 20 entries fit, and they are the newest.
    expect(cache.entries).toBeGreaterThan(10);
    expect(cache.entries).toBeLessThan(20);
    expect(cache.peek('k0')).toBeUndefined();
    expect(cache.peek('k99')?.bytes[0]).toBe(99);
    // An answer larger than the whole cache is served but not kept.
    const huge = await cache.lookup('huge', async () => answer(50_000));
    expect(huge.answer.bytes.length).toBe(50_000);
    expect(cache.peek('huge')).toBeUndefined();
    expect(cache.size).toBeLessThanOrEqual(20_000);
  });

  test('single flight: concurrent lookups of one key run one computation; a failure is not kept', async () => {
    const cache = new ResponseCache({ maxBytes: 1 << 20, logger });
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const compute = async () => {
      runs += 1;
      await gate;
      return answer(10);
    };
    const lookups = Array.from({ length: 25 }, () => cache.lookup('same', compute));
    release();
    const results = await Promise.all(lookups);
    expect(runs).toBe(1);
    expect(new Set(results.map((r) => r.answer)).size).toBe(1);
    expect((await cache.lookup('same', compute)).hit).toBe(true);

    let failures = 0;
    const failing = async (): Promise<CachedAnswer> => {
      failures += 1;
      throw new Error('lite server down');
    };
    await expect(Promise.all([cache.lookup('bad', failing), cache.lookup('bad', failing)])).rejects.toThrow('lite server down');
    expect(failures).toBe(1);
    await expect(cache.lookup('bad', failing)).rejects.toThrow('lite server down');
    expect(failures).toBe(2);
  });

  test('keys: the same request in any spelling is one key; another block or parameter is another', () => {
    const address = Address.parse('EQDXZ2c5LnA12Eum-DlguTmfYkMOvNeFCh4rBD0tgmwjcFI-');
    const block = Buffer.alloc(32, 1);
    const a = responseKey('getAddressInformation', { address: { address }, seqno: undefined }, block);
    const b = responseKey('getAddressInformation', { address: { address: Address.parse(address.toRawString()) } }, block);
    expect(a).toBe(b);
    expect(responseKey('getAddressInformation', { address: { address } }, Buffer.alloc(32, 2))).not.toBe(a);
    expect(responseKey('getAddressInformation', { address: { address }, seqno: 5 }, block)).not.toBe(a);
    expect(canonicalParams({ b: 1n, a: Buffer.from('ff', 'hex') })).toBe(canonicalParams({ a: Buffer.from('ff', 'hex'), b: 1n }));
    expect(canonicalParams({ stack: [['num', '1']] })).not.toBe(canonicalParams({ stack: [['num', '2']] }));
  });
});
