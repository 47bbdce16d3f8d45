import pino from 'pino';
import { PendingTraces, type EmulatedTrace } from '../../src/emulate';
import type { V3TransactionJson } from '../../src/converters';

/**
 * The pending store's bookkeeping on hand-made traces (no emulation: `add` is what an emulation
 * ends with): lookups by plain and normalized hash and by account, the bounds on count and bytes,
 * expiry with trace_invalidated, and removal when the index commits the trace.
 */

const hash = (n: number) => Buffer.alloc(32, n).toString('base64');
const WALLET = `0:${'AA'.repeat(32)}`;
const OTHER = `0:${'BB'.repeat(32)}`;

function trace(n: number, bodyBytes = 10): EmulatedTrace {
  const json = (account: string, lt: number): V3TransactionJson =>
    ({
      account,
      hash: hash(n * 10 + lt),
      lt: String(lt),
      now: 1,
      mc_block_seqno: 5,
      orig_status: 'active',
      end_status: 'active',
      description: { type: 'ord', aborted: false },
      in_msg: null,
      out_msgs: [],
      account_state_before: null,
      account_state_after: null,
      emulated: true,
      finality: 'pending',
    }) as unknown as V3TransactionJson;
  return {
    mcBlockSeqno: 4,
    externalHash: hash(n),
    externalHashNorm: hash(100 + n),
    randSeed: Buffer.alloc(32),
    transactions: [
      { hash: hash(n * 10 + 1), account: WALLET.toLowerCase(), inMsgHash: hash(n), parentHash: null, depth: 1, boc: new Uint8Array(bodyBytes), json: json(WALLET, 1) },
      { hash: hash(n * 10 + 2), account: OTHER.toLowerCase(), inMsgHash: hash(200 + n), parentHash: hash(n * 10 + 1), depth: 2, boc: new Uint8Array(bodyBytes), json: json(OTHER, 2) },
    ],
    isIncomplete: false,
    codeCells: new Map(),
    dataCells: new Map(),
  };
}

function store(
  options: Partial<{ maxTraces: number; maxBytes: number; ttlMs: number; landedInIndex: (hashes: readonly Buffer[]) => Promise<ReadonlySet<string>> }>,
  clock: { now: number },
) {
  return new PendingTraces({
    openSession: () => {
      throw new Error('no chain in this test');
    },
    emulationTimeoutMs: 1000,
    ttlMs: options.ttlMs ?? 60_000,
    maxTraces: options.maxTraces ?? 100,
    maxBytes: options.maxBytes ?? 1 << 20,
    concurrency: 1,
    queueLimit: 4,
    logger: pino({ level: 'silent' }),
    now: () => clock.now,
    ...(options.landedInIndex ? { landedInIndex: options.landedInIndex } : {}),
  });
}

describe('PendingTraces', () => {
  test('found by plain and normalized hash and by each account; the newest first', () => {
    const clock = { now: 1000 };
    const pending = store({}, clock);
    pending.add(trace(1));
    clock.now += 1;
    pending.add(trace(2));
    expect(pending.findByExternalHash([Buffer.from(hash(1), 'base64')]).map((e) => e.trace.externalHash)).toEqual([hash(1)]);
    expect(pending.findByExternalHash([Buffer.from(hash(102), 'base64')]).map((e) => e.trace.externalHash)).toEqual([hash(2)]);
    expect(pending.findByAccount([OTHER]).map((e) => e.trace.externalHash)).toEqual([hash(2), hash(1)]);
    expect(pending.findByAccount([`0:${'CC'.repeat(32)}`])).toEqual([]);
    pending.close();
  });

  test('bounds: past the count or the bytes the oldest leave, invalidated', () => {
    const clock = { now: 1000 };
    const invalidated: string[] = [];
    const byCount = store({ maxTraces: 2 }, clock);
    byCount.listen({ added: () => undefined, invalidated: (h) => invalidated.push(h) });
    for (let n = 1; n <= 3; n++) byCount.add(trace(n));
    expect(byCount.stats().traces).toBe(2);
    expect(invalidated).toEqual([hash(101)]);
    const one = byCount.stats().bytes / 2;
    const byBytes = store({ maxBytes: Math.floor(one * 2.5) }, clock);
    for (let n = 1; n <= 4; n++) byBytes.add(trace(n));
    expect(byBytes.stats().traces).toBe(2);
    expect(byBytes.stats().bytes).toBeLessThanOrEqual(Math.floor(one * 2.5));
    expect(byBytes.findByExternalHash([Buffer.from(hash(1), 'base64'), Buffer.from(hash(4), 'base64')]).map((e) => e.trace.externalHash)).toEqual([hash(4)]);
    byCount.close();
    byBytes.close();
  });

  test('expiry: trace_invalidated unless the message landed; the index committing it complete removes it quietly', async () => {
    const clock = { now: 1000 };
    const invalidated: string[] = [];
    const pending = store({ ttlMs: 5000 }, clock);
    pending.listen({ added: () => undefined, invalidated: (h) => invalidated.push(h) });
    pending.add(trace(1));
    pending.add(trace(2));
    pending.add(trace(3));
    // Trace 2's external message is in a committed block (its trace not complete yet); trace 3 completes.
    pending.committed({ messages: [{ msg_hash: Buffer.from(hash(2), 'base64'), direction: 'in' }], traces: [] });
    expect(pending.findByAccount([OTHER])[0]!.landed.size).toBe(0);
    expect(pending.findByExternalHash([Buffer.from(hash(2), 'base64')])[0]!.landed.has(hash(21))).toBe(true);
    pending.committed({ messages: [], traces: [{ external_hash: Buffer.from(hash(3), 'base64'), external_hash_norm: Buffer.from(hash(103), 'base64'), state: 'complete' }] });
    expect(pending.stats().traces).toBe(2);
    clock.now += 4999;
    await pending.sweep();
    expect(pending.stats().traces).toBe(2);
    clock.now += 1;
    await pending.sweep();
    expect(pending.stats().traces).toBe(0);
    expect(invalidated).toEqual([hash(101)]);
    // An emulation that ends after the index committed its message is not kept.
    pending.add(trace(3));
    expect(pending.stats().traces).toBe(0);
    pending.close();
  });

  test('expiry on an instance that did not hear the commit: the index is asked first, a landed message is not invalidated', async () => {
    const clock = { now: 1000 };
    const invalidated: string[] = [];
    const asked: string[] = [];
    const pending = store(
      {
        ttlMs: 1000,
        landedInIndex: async (hashes) => {
          asked.push(...hashes.map((h) => h.toString('base64')));
          return new Set([Buffer.from(hash(1), 'base64').toString('hex')]);
        },
      },
      clock,
    );
    pending.listen({ added: () => undefined, invalidated: (h) => invalidated.push(h) });
    pending.add(trace(1));
    pending.add(trace(2));
    clock.now += 1000;
    await pending.sweep();
    expect(asked.sort()).toEqual([hash(1), hash(2)].sort());
    expect(invalidated).toEqual([hash(102)]);
    expect(pending.stats().traces).toBe(0);
    pending.close();
  });
});
