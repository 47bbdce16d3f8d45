import path from 'node:path';
import pino from 'pino';
import { IndexStore } from '../../src/indexdb';
import { callV2 } from '../helpers/v2Calls';
import { chainWithTraffic, expectBlocksAsV2, spawnIndexer, type ChainWithTraffic, type IndexerProcess } from '../helpers/indexerProcess';
import { createTestDatabase, INDEX_BACKENDS, type TestDatabase } from '../helpers/indexDatabases';
import type { LocalStack } from '../helpers/localStack';

jest.setTimeout(1_500_000);

const KILLS = 20;

/**
 * SIGKILL the indexer (`ton-http-bridge index`, a child process) at random points while transfers
 * flow, 20 times; after a last clean run catches up, the index holds every masterchain block from
 * the first to the checkpoint once (no gap, no duplicate, nothing beyond the checkpoint) and every
 * block's transactions equal v2's.
 */
describe.each(INDEX_BACKENDS)('index crash safety (%s)', (backend) => {
  let db: TestDatabase;
  let chain: ChainWithTraffic;
  let stack: LocalStack;
  let dir: string;
  let configFile: string;

  beforeAll(async () => {
    db = await createTestDatabase(backend);
    chain = await chainWithTraffic('index-crash', 500, 150, 0x21);
    ({ stack, dir, configFile } = chain);
  });

  afterAll(async () => {
    await chain?.stop();
    await db?.drop();
  });

  function startIndexer(): IndexerProcess {
    return spawnIndexer([
      '--network',
      'local',
      '--liteservers',
      configFile,
      '--metrics-port',
      '0',
      '--log-level',
      'warn',
      '--health-interval',
      '200',
      ...(db.url ? ['--database-url', db.url] : ['--index-dir', path.join(dir, 'index')]),
    ]);
  }

  async function openStore(): Promise<IndexStore> {
    return IndexStore.open({ databaseUrl: db.url, indexDir: db.url ? null : path.join(dir, 'index'), logger: pino({ level: 'silent' }) });
  }

  it(`continues with no gap and no duplicate after ${KILLS} SIGKILLs`, async () => {
    for (let kill = 0; kill < KILLS; kill++) {
      const run = startIndexer();
      await run.indexing;
      // A random point: at once, mid catch-up or mid commit.
      await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 2500)));
      run.child.kill('SIGKILL');
      await run.exited;
    }
    // A last run catches up with the head, then stops cleanly.
    const last = startIndexer();
    await last.indexing;
    const head = (await callV2<{ last: { seqno: number } }>(stack, 'GET', 'getMasterchainInfo', {})).body.result!.last.seqno;
    let store: IndexStore | undefined;
    if (db.url) {
      store = await openStore();
      for (let i = 0; i < 600; i++) {
        const { rows } = await store.pool.query<{ mc_seqno: number }>('select mc_seqno from index_checkpoint');
        if ((rows[0]?.mc_seqno ?? 0) >= head) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    } else {
      await new Promise((resolve) => setTimeout(resolve, 20_000));
    }
    last.child.kill('SIGTERM');
    expect(await last.exited).toBe(0);
    store ??= await openStore();
    try {
      const pool = store.pool;
      const { rows: cp } = await pool.query<{ first_mc_seqno: number; mc_seqno: number; root_hash: Buffer }>('select * from index_checkpoint');
      const checkpoint = cp[0]!;
      expect(checkpoint.first_mc_seqno).toBe(1);
      if (db.url) expect(checkpoint.mc_seqno).toBeGreaterThanOrEqual(head);
      const { rows: mc } = await pool.query<{ n: string; lo: number; hi: number }>('select count(*) as n, min(seqno) as lo, max(seqno) as hi from blocks where workchain = -1');
      expect(Number(mc[0]!.n)).toBe(checkpoint.mc_seqno);
      expect(mc[0]!.lo).toBe(1);
      expect(mc[0]!.hi).toBe(checkpoint.mc_seqno);
      const { rows: top } = await pool.query<{ root_hash: Buffer }>('select root_hash from blocks where workchain = -1 and seqno = $1', [checkpoint.mc_seqno]);
      expect(top[0]!.root_hash.equals(checkpoint.root_hash)).toBe(true);
      // Nothing beyond the checkpoint in any table.
      for (const [table, column] of [['transactions', 'mc_block_seqno'], ['messages', 'mc_seqno'], ['blocks', 'mc_block_seqno'], ['shard_state', 'mc_seqno']]) {
        const { rows } = await pool.query<{ n: string }>(`select count(*) as n from ${table} where ${column} > $1`, [checkpoint.mc_seqno]);
        expect(`${table}: ${rows[0]!.n}`).toBe(`${table}: 0`);
      }
      // Each shard's blocks are contiguous (two fixed shards: no split or merge).
      const { rows: shards } = await pool.query<{ shard: string; n: string; lo: number; hi: number }>(
        'select shard::text, count(*) as n, min(seqno) as lo, max(seqno) as hi from blocks where workchain = 0 group by shard',
      );
      expect(shards.length).toBe(2);
      for (const shard of shards) expect(Number(shard.n)).toBe(shard.hi - shard.lo + 1);
      // Every block's transactions: as many as the block says, and as v2 lists.
      const blocks = await expectBlocksAsV2(pool, stack);
      const total = blocks.reduce((sum, block) => sum + block.tx_count, 0);
      expect(total).toBeGreaterThan(20);
      const { rows: dup } = await pool.query<{ n: string }>('select count(*) as n from (select hash from transactions group by hash having count(*) > 1) d');
      expect(dup[0]!.n).toBe('0');
    } finally {
      await store.close();
    }
  });
});
