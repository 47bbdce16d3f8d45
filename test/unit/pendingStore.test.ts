import pino from 'pino';
import { PendingTraces, RedisPendingTraces, type CommittedRows, type EmulatedTrace, type PendingTraceStore } from '../../src/emulate';
import type { V3TransactionJson } from '../../src/converters';
import { deleteKeysWithPrefix, describeWithRedis, REDIS_URL, redisReachableSync, uniquePrefix } from '../auth/helpers';

/**
 * The pending stores' bookkeeping on hand-made traces (no emulation: `add` is what an emulation
 * ends with), the same cases on both implementations (this process's memory; a real Redis with a
 * key prefix of its own): lookups by plain and normalized hash and by account, the count bound,
 * expiry with trace_invalidated, removal when the index commits the trace, and trace_invalidated
 * when it lands otherwise than emulated. Then what only Redis does: two instances on one prefix.
 */

const hash = (n: number) => Buffer.alloc(32, n).toString('base64');
const buf = (n: number) => Buffer.alloc(32, n);
const WALLET = `0:${'AA'.repeat(32)}`;
const OTHER = `0:${'BB'.repeat(32)}`;

function trace(n: number, options: { bodyBytes?: number; exitCodes?: [number, number]; incomplete?: boolean } = {}): EmulatedTrace {
  const bodyBytes = options.bodyBytes ?? 10;
  const [rootExit, childExit] = options.exitCodes ?? [0, 0];
  const json = (account: string, lt: number, exitCode: number): V3TransactionJson =>
    ({
      account,
      hash: hash(n * 10 + lt),
      lt: String(lt),
      now: 1,
      mc_block_seqno: 5,
      orig_status: 'active',
      end_status: 'active',
      description: { type: 'ord', aborted: exitCode !== 0, compute_ph: { skipped: false, success: exitCode === 0, exit_code: exitCode } },
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
      { hash: hash(n * 10 + 1), account: WALLET.toLowerCase(), inMsgHash: hash(n), parentHash: null, depth: 1, boc: new Uint8Array(bodyBytes), json: json(WALLET, 1, rootExit) },
      { hash: hash(n * 10 + 2), account: OTHER.toLowerCase(), inMsgHash: hash(200 + n), parentHash: hash(n * 10 + 1), depth: 2, boc: new Uint8Array(bodyBytes), json: json(OTHER, 2, childExit) },
    ],
    isIncomplete: options.incomplete ?? false,
    codeCells: new Map(),
    dataCells: new Map(),
  };
}

/** A committed transaction of the landed trace `traceId` (not the emulated hashes: the real ones). */
function landedTx(traceId: number, account: string, exitCode: number | null) {
  return { trace_id: buf(traceId), account, aborted: exitCode !== 0, compute_skipped: exitCode === null, compute_exit_code: exitCode };
}

/** The trace row of external message `n` landing as trace `traceId`, with `nodes` transactions so far. */
function landedTrace(n: number, traceId: number, state: 'complete' | 'pending', nodes: number) {
  return { trace_id: buf(traceId), external_hash: buf(n), external_hash_norm: buf(100 + n), state, nodes_: BigInt(nodes) };
}

function rows(part: Partial<CommittedRows>): CommittedRows {
  return { transactions: [], messages: [], traces: [], ...part };
}

interface Options {
  maxTraces: number;
  maxBytes: number;
  ttlMs: number;
  landedInIndex: (hashes: readonly Buffer[]) => Promise<ReadonlySet<string>>;
}

type Make = (options: Partial<Options>, clock: { now: number }, prefix?: string) => Promise<PendingTraceStore>;

function baseOptions(options: Partial<Options>, clock: { now: number }) {
  return {
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
  };
}

const makeMemory: Make = (options, clock) => Promise.resolve(new PendingTraces(baseOptions(options, clock)));

const prefixes: string[] = [];
const makeRedis: Make = async (options, clock, prefix) => {
  const keyPrefix = prefix ?? uniquePrefix();
  prefixes.push(keyPrefix);
  const store = new RedisPendingTraces({ ...baseOptions(options, clock), url: REDIS_URL, keyPrefix, timeoutMs: 2000 });
  await store.connect();
  return store;
};

/** Listener calls come through Redis pub/sub there: wait for them (in memory they are already there). */
async function eventually(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!check()) throw new Error(`not seen: ${what}`);
}

/** Lets messages in flight arrive, for the cases that check nothing more came. */
const quiet = () => new Promise((resolve) => setTimeout(resolve, 100));

function recorder(store: PendingTraceStore) {
  const added: string[] = [];
  const invalidated: string[] = [];
  store.listen({ added: (e) => added.push(e.trace.externalHashNorm), invalidated: (h) => invalidated.push(h) });
  return { added, invalidated };
}

const hashesOf = (entries: readonly { trace: EmulatedTrace }[]) => entries.map((e) => e.trace.externalHash);

function storeCases(make: Make): void {
  const open: PendingTraceStore[] = [];
  const create: Make = async (...args) => {
    const store = await make(...args);
    open.push(store);
    return store;
  };
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });

  test('found by plain and normalized hash and by each account; the newest first', async () => {
    const clock = { now: 1000 };
    const pending = await create({}, clock);
    const heard = recorder(pending);
    await pending.add(trace(1));
    clock.now += 1;
    await pending.add(trace(2));
    expect(hashesOf(await pending.findByExternalHash([buf(1)]))).toEqual([hash(1)]);
    expect(hashesOf(await pending.findByExternalHash([buf(102)]))).toEqual([hash(2)]);
    expect(hashesOf(await pending.findByAccount([OTHER]))).toEqual([hash(2), hash(1)]);
    expect(await pending.findByAccount([`0:${'CC'.repeat(32)}`])).toEqual([]);
    const [found] = await pending.findByExternalHash([buf(1)]);
    expect(found!.trace.transactions.map((t) => [t.hash, t.json.account, Buffer.from(t.boc).length])).toEqual([
      [hash(11), WALLET, 10],
      [hash(12), OTHER, 10],
    ]);
    await eventually(() => heard.added.length === 2, 'two added');
    expect(heard.added).toEqual([hash(101), hash(102)]);
  });

  test('bounds: past the count the oldest leave, invalidated', async () => {
    const clock = { now: 1000 };
    const byCount = await create({ maxTraces: 2 }, clock);
    const heard = recorder(byCount);
    for (let n = 1; n <= 3; n++) {
      await byCount.add(trace(n));
      clock.now += 1;
    }
    await eventually(() => heard.invalidated.length === 1, 'the eviction');
    expect(heard.invalidated).toEqual([hash(101)]);
    expect(hashesOf(await byCount.findByAccount([WALLET]))).toEqual([hash(3), hash(2)]);
  });

  test('expiry: trace_invalidated unless the message landed; the index committing it complete removes it quietly', async () => {
    const clock = { now: 1000 };
    const pending = await create({ ttlMs: 5000 }, clock);
    const heard = recorder(pending);
    await pending.add(trace(1));
    await pending.add(trace(2));
    await pending.add(trace(3));
    // Trace 2's external message is in a committed block (its trace not complete yet); trace 3 completes as emulated.
    await pending.committed(
      rows({ messages: [{ msg_hash: buf(2), direction: 'in', source: null }], traces: [landedTrace(2, 52, 'pending', 1)], transactions: [landedTx(52, WALLET, 0)] }),
    );
    expect((await pending.findByAccount([OTHER])).find((e) => e.trace.externalHash === hash(1))!.landed.size).toBe(0);
    expect((await pending.findByExternalHash([buf(2)]))[0]!.landed.has(hash(21))).toBe(true);
    await pending.committed(rows({ traces: [landedTrace(3, 53, 'complete', 2)], transactions: [landedTx(53, WALLET, 0), landedTx(53, OTHER, 0)] }));
    expect(hashesOf(await pending.findByAccount([WALLET])).sort()).toEqual([hash(1), hash(2)].sort());
    clock.now += 4999;
    await pending.sweep();
    expect(await pending.findByAccount([WALLET])).toHaveLength(2);
    clock.now += 1;
    await pending.sweep();
    expect(await pending.findByAccount([WALLET])).toEqual([]);
    await eventually(() => heard.invalidated.length > 0, 'the expiry');
    await quiet();
    expect(heard.invalidated).toEqual([hash(101)]);
    // An emulation that ends after the index committed its message is not kept.
    await pending.add(trace(3));
    expect(await pending.findByExternalHash([buf(3)])).toEqual([]);
  });

  test('expiry on an instance that did not hear the commit: the index is asked first, a landed message is not invalidated', async () => {
    const clock = { now: 1000 };
    const asked: string[] = [];
    // Message 1 lands once both are pending (Redis asks the index before it keeps a trace, too).
    let landed = false;
    const pending = await create(
      {
        ttlMs: 1000,
        landedInIndex: async (hashes) => {
          asked.push(...hashes.map((h) => h.toString('base64')));
          return new Set(landed ? [buf(1).toString('hex')] : []);
        },
      },
      clock,
    );
    const heard = recorder(pending);
    await pending.add(trace(1));
    await pending.add(trace(2));
    asked.length = 0;
    landed = true;
    clock.now += 1000;
    await pending.sweep();
    expect(asked.sort()).toEqual([hash(1), hash(2)].sort());
    await eventually(() => heard.invalidated.length > 0, 'the expiry');
    await quiet();
    expect(heard.invalidated).toEqual([hash(102)]);
    expect(await pending.findByAccount([WALLET])).toEqual([]);
  });

  test('a trace that lands otherwise than emulated: trace_invalidated, then removal; as emulated (across two blocks): removed quietly', async () => {
    const clock = { now: 1000 };
    const pending = await create({}, clock);
    const heard = recorder(pending);
    for (const n of [1, 2, 3, 4]) await pending.add(trace(n));
    await pending.add(trace(5, { incomplete: true }));
    await pending.committed(
      rows({
        // 1: one transaction instead of two (the recipient's message never ran). 2: the recipient ran
        // and failed (exit 40) where the emulation succeeded. 3: its first transaction only, the rest next block.
        traces: [landedTrace(1, 51, 'complete', 1), landedTrace(2, 52, 'complete', 2), landedTrace(3, 53, 'pending', 1), landedTrace(5, 55, 'complete', 3)],
        transactions: [landedTx(51, WALLET, 0), landedTx(52, WALLET, 0), landedTx(52, OTHER, 40), landedTx(53, WALLET, 0), landedTx(55, WALLET, 0)],
      }),
    );
    await pending.committed(rows({ traces: [landedTrace(3, 53, 'complete', 2)], transactions: [landedTx(53, OTHER, 0)] }));
    // 4 lands as emulated, in one block.
    await pending.committed(rows({ traces: [landedTrace(4, 54, 'complete', 2)], transactions: [landedTx(54, OTHER, 0), landedTx(54, WALLET, 0)] }));
    expect(await pending.findByAccount([WALLET])).toEqual([]);
    await eventually(() => heard.invalidated.length >= 2, 'two invalidations');
    await quiet();
    // The emulation cut short (5) is known to be partial: not compared.
    expect(heard.invalidated.sort()).toEqual([hash(101), hash(102)].sort());
  });
}

describe('PendingTraces (memory)', () => {
  storeCases(makeMemory);

  test('bounds: past the bytes the oldest leave', async () => {
    const clock = { now: 1000 };
    const one = (await makeMemory({}, clock)) as PendingTraces;
    await one.add(trace(1));
    const size = one.stats().bytes;
    await one.close();
    const byBytes = (await makeMemory({ maxBytes: Math.floor(size * 2.5) }, clock)) as PendingTraces;
    for (let n = 1; n <= 4; n++) await byBytes.add(trace(n));
    expect(byBytes.stats().traces).toBe(2);
    expect(byBytes.stats().bytes).toBeLessThanOrEqual(Math.floor(size * 2.5));
    expect(hashesOf(await byBytes.findByExternalHash([buf(1), buf(4)]))).toEqual([hash(4)]);
    await byBytes.close();
  });

  test('the invalidation of a trace that landed otherwise reaches listeners during the commit (before the index events are built)', async () => {
    const pending = await makeMemory({}, { now: 1000 });
    const heard = recorder(pending);
    await pending.add(trace(1));
    void pending.committed(rows({ traces: [landedTrace(1, 51, 'complete', 1)], transactions: [landedTx(51, WALLET, 0)] }));
    expect(heard.invalidated).toEqual([hash(101)]);
    await pending.close();
  });
});

describeWithRedis('RedisPendingTraces (a real Redis, a prefix per run)', redisReachableSync(REDIS_URL), () => {
  afterAll(async () => {
    for (const prefix of prefixes) await deleteKeysWithPrefix(REDIS_URL, prefix);
  });

  storeCases(makeRedis);

  test('two instances on one prefix: added on A is found and heard on B; the commit B sees removes it for A; an expiry is announced once to each', async () => {
    const clock = { now: 1000 };
    const prefix = uniquePrefix();
    const a = await makeRedis({ ttlMs: 5000 }, clock, prefix);
    const b = await makeRedis({ ttlMs: 5000 }, clock, prefix);
    try {
      const heardA = recorder(a);
      const heardB = recorder(b);
      await a.add(trace(1));
      await a.add(trace(2));
      expect(hashesOf(await b.findByExternalHash([buf(1)]))).toEqual([hash(1)]);
      expect(hashesOf(await b.findByAccount([OTHER])).sort()).toEqual([hash(1), hash(2)].sort());
      await eventually(() => heardB.added.length === 2, 'B hears both');
      expect(heardB.added).toEqual([hash(101), hash(102)]);
      await b.committed(rows({ traces: [landedTrace(1, 51, 'complete', 2)], transactions: [landedTx(51, WALLET, 0), landedTx(51, OTHER, 0)] }));
      expect(await a.findByExternalHash([buf(1)])).toEqual([]);
      clock.now += 5000;
      await Promise.all([a.sweep(), b.sweep()]);
      expect(await a.findByAccount([WALLET])).toEqual([]);
      await eventually(() => heardA.invalidated.length === 1 && heardB.invalidated.length === 1, 'both hear the expiry');
      await quiet();
      expect([heardA.invalidated, heardB.invalidated]).toEqual([[hash(102)], [hash(102)]]);
      expect(a.stats().traces + b.stats().traces).toBeLessThanOrEqual(2);
    } finally {
      await a.close();
      await b.close();
    }
  });

  test('a trace above the per-entry bytes is not kept in Redis', async () => {
    const clock = { now: 1000 };
    const store = await makeRedis({ maxBytes: 4096 }, clock);
    try {
      await store.add(trace(1, { bodyBytes: 8192 }));
      await store.add(trace(2));
      expect(hashesOf(await store.findByAccount([WALLET]))).toEqual([hash(2)]);
      expect(store.stats().dropped).toBe(1);
    } finally {
      await store.close();
    }
  });
});
