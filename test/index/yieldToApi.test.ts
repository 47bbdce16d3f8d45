import pino from 'pino';
import { IndexStore } from '../../src/indexdb';
import { Indexer, type ApiActivity, type CommittedMcBlock } from '../../src/indexer';
import { type LitePool } from '../../src/liteclient';
import { startLocalnet, type Localnet } from '../../src/localnet';
import { createTestDatabase, type TestDatabase } from '../helpers/indexDatabases';
import { startLocalnetPool } from '../helpers/localnetPool';

jest.setTimeout(180_000);

/** What one catch-up did, seen from its lite pool and its commits. */
interface CatchUpTrace {
  /** Per masterchain block: how many masterchain blocks' getBlock were in flight when its own began (itself included). */
  inFlightAtFetch: Map<number, number>;
  /** Per committed block: the highest masterchain block fetched by then, minus it. */
  fetchedAhead: Map<number, number>;
  committed: number;
}

/** The largest value of `values` at the keys in [from, to]. */
function maxIn(values: Map<number, number>, from: number, to: number): number {
  return Math.max(0, ...[...values].filter(([seqno]) => seqno >= from && seqno <= to).map(([, value]) => value));
}

/**
 * A catch-up yields to a busy API (indexer.ts, yieldsToApi): its stages run one at a time, so it
 * never prepares two masterchain blocks at once nor fetches beyond the batch it commits. Shown on
 * the real local chain and PostgreSQL, against the same catch-up with no API (the control: blocks
 * fetched in parallel, ahead of the commit), from the lite queries the pipeline sends.
 */
describe('a catch-up yielding to the API (postgres)', () => {
  let net: Localnet;
  let pool: LitePool;
  const logger = pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });
  const databases: TestDatabase[] = [];

  beforeAll(async () => {
    net = await startLocalnet({ accounts: 2, blockIntervalMs: 3_600_000, shards: 2 });
    // 60 masterchain blocks (the empty ones seal in ms) before any index starts: a catch-up.
    for (let i = 0; i < 60; i++) await net.chain.seal();
    pool = await startLocalnetPool(net, logger);
  });

  afterAll(async () => {
    pool?.close();
    await net?.stop();
    for (const db of databases) await db.drop();
  });

  /** Indexes the chain from genesis to its head into a fresh database, the pool's queries watched. */
  async function catchUp(apiActivity: ApiActivity | undefined): Promise<CatchUpTrace> {
    const db = await createTestDatabase('postgres');
    databases.push(db);
    const inFlight = new Map<number, number>();
    const inFlightAtFetch = new Map<number, number>();
    const fetchedAhead = new Map<number, number>();
    let maxFetched = 0;
    // The real pool, its sessions' getBlock of masterchain blocks counted while in flight.
    const watched = new Proxy(pool, {
      get(target, prop) {
        if (prop === 'openSession') {
          return (...args: Parameters<LitePool['openSession']>) => {
            const session = target.openSession(...args);
            return new Proxy(session, {
              get(s, key) {
                const value: unknown = Reflect.get(s, key, s);
                if (key !== 'liteQuery' || typeof value !== 'function') return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(s) : value;
                return (query: { kind: string; id?: { workchain: number; seqno: number } }, ...rest: unknown[]) => {
                  const mc = query.kind === 'liteServer.getBlock' && query.id?.workchain === -1 ? query.id.seqno : null;
                  if (mc !== null) {
                    inFlight.set(mc, (inFlight.get(mc) ?? 0) + 1);
                    inFlightAtFetch.set(mc, Math.max(inFlightAtFetch.get(mc) ?? 0, inFlight.size));
                    maxFetched = Math.max(maxFetched, mc);
                  }
                  const answer = (value as (...a: unknown[]) => Promise<unknown>).call(s, query, ...rest);
                  return mc === null
                    ? answer
                    : answer.finally(() => {
                        const left = inFlight.get(mc)! - 1;
                        if (left === 0) inFlight.delete(mc);
                        else inFlight.set(mc, left);
                      });
                };
              },
            });
          };
        }
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    }) as LitePool;
    const store = await IndexStore.open({ databaseUrl: db.url, indexDir: null, logger });
    const indexer = new Indexer(store, watched, logger, { embeddedChain: true, ...(apiActivity ? { apiActivity } : {}) });
    const head = net.chain.lastMasterchainBlock().id.seqno;
    let committed = 0;
    const done = new Promise<void>((resolve) => {
      indexer.on('block', (block: CommittedMcBlock) => {
        committed = block.mcSeqno;
        fetchedAhead.set(block.mcSeqno, maxFetched - block.mcSeqno);
        if (block.mcSeqno >= head) resolve();
      });
    });
    try {
      indexer.start();
      await done;
    } finally {
      await indexer.stop();
      await store.close();
    }
    return { inFlightAtFetch, fetchedAhead, committed };
  }

  it('prepares one masterchain block at a time and fetches nothing ahead of its commit while the API is busy; live, it does not yield', async () => {
    const head = net.chain.lastMasterchainBlock().id.seqno;
    expect(head).toBeGreaterThanOrEqual(60);
    const control = await catchUp(undefined);
    let asked = 0;
    const yielding = await catchUp({
      busy: () => {
        asked++;
        return true;
      },
    });
    expect(control.committed).toBe(head);
    expect(yielding.committed).toBe(head);
    expect(asked).toBeGreaterThan(0);
    // The catch-up proper: the blocks 10 or more below the head (indexer.ts's YIELD_BEHIND_BLOCKS).
    const catchUpEnd = head - 10;
    // The control overlaps: several blocks fetched at once, and blocks beyond a batch (8) fetched before it committed.
    expect(maxIn(control.inFlightAtFetch, 1, catchUpEnd)).toBeGreaterThan(1);
    expect(maxIn(control.fetchedAhead, 1, catchUpEnd)).toBeGreaterThanOrEqual(8);
    // Yielding: one block's getBlock at a time, and never a block past the batch being committed.
    expect(maxIn(yielding.inFlightAtFetch, 1, catchUpEnd)).toBe(1);
    expect(maxIn(yielding.fetchedAhead, 1, catchUpEnd)).toBeLessThan(8);
    // Within 10 blocks of the head it is live: fetched ahead in parallel again, the API busy or not.
    expect(maxIn(yielding.inFlightAtFetch, catchUpEnd + 1, head)).toBeGreaterThan(1);
  });
});
