import type { IndexService } from '../../src/indexer';
import { MIN_ROWS, STATISTICS_GROUPS, VACUUM_MIN_ROWS, VACUUM_SCALE } from '../../src/indexer/statistics';
import { createTestDatabase, INDEX_BACKENDS, type TestDatabase } from '../helpers/indexDatabases';
import { startLocalStack, type LocalStack } from '../helpers/localStack';
import { until } from '../helpers/waiting';

jest.setTimeout(180_000);

/**
 * The writer keeps the planner's statistics of the index's tables itself (src/indexer/statistics.ts)
 * where nothing else does: PGlite has no autovacuum, and a real server may have it off (this
 * machine's has). A new index's tables are analyzed after its first commit; a group is analyzed
 * again once MIN_ROWS rows more were written to it. A server with autovacuum on is left to it.
 */
describe.each(INDEX_BACKENDS)("the index's planner statistics (%s)", (backend) => {
  let db: TestDatabase;
  let stack: LocalStack;
  let index: IndexService;

  beforeAll(async () => {
    db = await createTestDatabase(backend, 'index_stats');
    stack = await startLocalStack(['--shards', '2', '--block-interval', '0', '--index', 'on', ...(db.url ? ['--database-url', db.url] : [])]);
    index = stack.server.services.index!;
  });

  afterAll(async () => {
    await stack?.stop();
    await db?.drop();
  });

  const analyzedAt = async (): Promise<Map<string, string | null>> => {
    const { rows } = await index.store.pool.query<{ relname: string; at: string | null }>(
      'select relname, last_analyze::text as at from pg_stat_user_tables where relname = any($1)',
      [Object.values(STATISTICS_GROUPS).flat()],
    );
    return new Map(rows.map((r) => [r.relname, r.at]));
  };
  const reltuples = async (table: string): Promise<number> =>
    (await index.store.pool.query<{ n: number }>('select reltuples::float8 as n from pg_class where relname = $1', [table])).rows[0]!.n;

  it('analyzes every table of a new index after its first commits, then a table again as it grows', async () => {
    const chain = stack.localnet.chain;
    for (let i = 0; i < 3; i++) await chain.seal();
    await until(() => (index.health().status.committedMcSeqno ?? 0) >= chain.lastMasterchainBlock().id.seqno, 60_000, 'the index at the head');
    const autovacuum = (await index.store.pool.query<{ on: boolean }>("select current_setting('autovacuum') = 'on' as on")).rows[0]!.on;
    if (backend === 'postgres' && autovacuum) {
      // The server analyzes the tables itself: the writer leaves them to it (no manual ANALYZE).
      for (let i = 0; i < 20; i++) await chain.seal();
      await until(() => (index.health().status.committedMcSeqno ?? 0) >= chain.lastMasterchainBlock().id.seqno, 60_000, 'the index at the head');
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect([...(await analyzedAt()).values()].filter((at) => at !== null)).toEqual([]);
      return;
    }
    await until(async () => [...(await analyzedAt()).values()].every((at) => at !== null), 30_000, 'every table analyzed once');
    const first = await analyzedAt();
    expect(first.size).toBe(Object.values(STATISTICS_GROUPS).flat().length);
    const blocksBefore = Number((await index.store.pool.query<{ n: string }>('select count(*) as n from blocks')).rows[0]!.n);
    // Analyzed after the first commits: some of the rows there are now, none of those to come.
    const estimatedFirst = await reltuples('blocks');
    expect(estimatedFirst).toBeGreaterThan(0);
    expect(estimatedFirst).toBeLessThanOrEqual(blocksBefore);

    // Empty masterchain blocks with their two shard blocks: 3 `blocks` rows each. The schedule counts
    // the rows written after the first ANALYZE began, so `blocks` is due again only once it holds at
    // least MIN_ROWS rows; some rows of the first commits may be counted on both sides (committed
    // while the first ANALYZE was queued), so the bound is on the table's size, not on the growth.
    const sealUntil = async (rows: number): Promise<number> => {
      for (let i = 0; i < 1000; i++) {
        const n = Number((await index.store.pool.query<{ n: string }>('select count(*) as n from blocks')).rows[0]!.n);
        if (n >= rows) return n;
        for (let k = 0; k < Math.max(1, Math.floor((rows - n) / 3)); k++) await chain.seal();
        await until(() => (index.health().status.committedMcSeqno ?? 0) >= chain.lastMasterchainBlock().id.seqno, 120_000, 'the index at the head');
      }
      throw new Error('the index did not grow');
    };
    // Short of MIN_ROWS: not analyzed again (given time to, after the commits).
    const short = await sealUntil(MIN_ROWS - 30);
    expect(short).toBeLessThan(MIN_ROWS);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await analyzedAt()).get('blocks')).toBe(first.get('blocks'));
    // Past it: analyzed again, and the statistics now count the rows that were there.
    await sealUntil(MIN_ROWS + 30);
    await until(async () => (await analyzedAt()).get('blocks') !== first.get('blocks'), 30_000, 'blocks analyzed again');
    const blocksAfter = Number((await index.store.pool.query<{ n: string }>('select count(*) as n from blocks')).rows[0]!.n);
    const estimated = await reltuples('blocks');
    expect(estimated).toBeGreaterThanOrEqual(MIN_ROWS);
    expect(estimated).toBeGreaterThan(estimatedFirst);
    expect(estimated).toBeLessThanOrEqual(blocksAfter);
    // Groups that did not grow by MIN_ROWS were not analyzed again.
    const now = await analyzedAt();
    expect(now.get('traces')).toBe(first.get('traces'));
  });

  it("vacuums transactions and messages (their visibility maps: one account's page keys from its index alone)", async () => {
    const chain = stack.localnet.chain;
    for (let i = 0; i < 3; i++) await chain.seal();
    await until(() => (index.health().status.committedMcSeqno ?? 0) >= chain.lastMasterchainBlock().id.seqno, 60_000, 'the index at the head');
    // Migration 8: the indexes of one account's pages hold their keys' columns.
    const definitions = (
      await index.store.pool.query<{ indexname: string; indexdef: string }>(
        "select indexname, indexdef from pg_indexes where indexname in ('transactions_index_4', 'transactions_index_5', 'messages_index_2', 'messages_index_3') order by indexname",
      )
    ).rows;
    expect(definitions.map((d) => [d.indexname, d.indexdef.replace(/^.* USING btree /, '')])).toEqual([
      ['messages_index_2', '(source, created_lt, msg_hash)'],
      ['messages_index_3', '(destination, created_lt, msg_hash)'],
      ['transactions_index_4', '(account, lt) INCLUDE (hash)'],
      ['transactions_index_5', '(account, now, lt) INCLUDE (hash)'],
    ]);
    const autovacuum = (await index.store.pool.query<{ on: boolean }>("select current_setting('autovacuum') = 'on' as on")).rows[0]!.on;
    if (backend === 'postgres' && autovacuum) return; // the server's autovacuum keeps the map
    const vacuumed = async (table = 'transactions'): Promise<number> =>
      Number((await index.store.pool.query<{ n: string }>('select vacuum_count as n from pg_stat_user_tables where relname = $1', [table])).rows[0]!.n);
    // Due once at start, then on autovacuum's insert schedule (sealed past it).
    await until(async () => (await vacuumed()) >= 1 && (await vacuumed('messages')) >= 1, 30_000, 'transactions and messages vacuumed at start');
    const before = await vacuumed();
    const count = async (): Promise<number> => Number((await index.store.pool.query<{ n: string }>('select count(*) as n from transactions')).rows[0]!.n);
    const target = (await count()) * (1 + VACUUM_SCALE) + VACUUM_MIN_ROWS + 30;
    for (let n = await count(); n < target; n = await count()) {
      for (let k = 0; k < 50; k++) await chain.seal();
      await until(() => (index.health().status.committedMcSeqno ?? 0) >= chain.lastMasterchainBlock().id.seqno, 120_000, 'the index at the head');
    }
    await until(async () => (await vacuumed()) > before, 30_000, 'transactions vacuumed again');
    const { rows: pages } = await index.store.pool.query<{ all_visible: number; pages: number }>(
      "select relallvisible as all_visible, relpages as pages from pg_class where relname = 'transactions'",
    );
    // The pages filled before the VACUUM are marked all-visible (the last ones may have had rows
    // added since): index-only scans of them read no heap row. PostgreSQL's own plan choice is the
    // bench's to show (docs/benchmarks.md, "Deep pages of one account").
    expect(pages[0]!.all_visible).toBeGreaterThan(pages[0]!.pages / 2);
  });
});
