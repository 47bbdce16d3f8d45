import path from 'node:path';
import pino from 'pino';
import { IndexStore } from '../../src/indexdb';
import { chainWithTraffic, expectBlocksAsV2, spawnIndexer, type ChainWithTraffic, type IndexerProcess } from '../helpers/indexerProcess';
import { createTestDatabase, INDEX_BACKENDS, type TestDatabase } from '../helpers/indexDatabases';
import type { LocalStack } from '../helpers/localStack';
import { parsePrometheus, valueOf, type Sample } from '../helpers/prometheus';
import { freePort } from '../helpers/waiting';

jest.setTimeout(900_000);

/** Where the backfill begins: blocks below it are never indexed. */
const FROM = 7;
/** Masterchain blocks the chain makes before the indexer starts: the backfill's work. */
const HISTORY = 140;

interface Run extends IndexerProcess {
  readonly metricsPort: number;
}

/**
 * `--index-from` on a remote network, over the real lite-server protocol: the local chain is served
 * over ADNL and `ton-http-bridge index --network testnet --liteservers <its config>` treats it as a
 * remote network (it starts at the head). With `--index-from 7` a backfill fills 7 .. head - 1 in
 * the background while the live lane follows the head; the indexer is SIGKILLed mid-backfill
 * and restarted: it resumes from its mark, and in the end the index holds every masterchain block
 * from 7 to the checkpoint once (no gap, no duplicate, nothing below 7), every shard's blocks
 * contiguous, every block's transactions as v2 lists them, and first_mc_seqno = 7 (metric too).
 */
describe.each(INDEX_BACKENDS)('index --index-from backfill on a remote network (%s)', (backend) => {
  let db: TestDatabase;
  let chain: ChainWithTraffic;
  let stack: LocalStack;
  let dir: string;
  let configFile: string;

  beforeAll(async () => {
    db = await createTestDatabase(backend);
    chain = await chainWithTraffic('index-backfill', 150, 200, 0x31);
    ({ stack, dir, configFile } = chain);
    await stack.localnet.chain.waitForMasterchainSeqno(HISTORY, 300_000);
  });

  afterAll(async () => {
    await chain?.stop();
    await db?.drop();
  });

  async function startIndexer(): Promise<Run> {
    const metricsPort = await freePort();
    const run = spawnIndexer([
      '--network',
      'testnet',
      '--liteservers',
      configFile,
      '--config-cache-dir',
      path.join(dir, 'cache'),
      '--index-from',
      String(FROM),
      '--metrics-port',
      String(metricsPort),
      '--log-level',
      'warn',
      '--health-interval',
      '200',
      ...(db.url ? ['--database-url', db.url] : ['--index-dir', path.join(dir, 'index')]),
    ]);
    return { ...run, metricsPort };
  }

  async function metrics(run: Run): Promise<Sample[]> {
    const response = await fetch(`http://127.0.0.1:${run.metricsPort}/metrics`);
    return parsePrometheus(await response.text());
  }

  async function waitFor(run: Run, what: string, condition: (samples: Sample[]) => boolean): Promise<Sample[]> {
    for (let i = 0; i < 6000; i++) {
      const samples = await metrics(run).catch(() => null);
      if (samples && condition(samples)) return samples;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`${what}: not in time`);
  }

  it('fills the blocks from --index-from below the live start, resumes after a SIGKILL, no gap, no duplicate', async () => {
    const first = await startIndexer();
    await first.indexing;
    // Mid-backfill: some blocks from FROM committed (the first block is FROM), some still missing.
    const mid = await waitFor(
      first,
      'backfill under way',
      (s) => valueOf(s, 'ton_bridge_index_first_mc_seqno') === FROM && valueOf(s, 'ton_bridge_index_backfill_remaining_blocks') > 0,
    );
    first.child.kill('SIGKILL');
    await first.exited;
    const remainingAtKill = valueOf(mid, 'ton_bridge_index_backfill_remaining_blocks');
    // The live lane started at the head at start, far above FROM: most of the history was left to do.
    expect(valueOf(mid, 'ton_bridge_index_committed_mc_seqno')).toBeGreaterThanOrEqual(HISTORY);
    expect(remainingAtKill).toBeGreaterThan(0);

    const second = await startIndexer();
    await second.indexing;
    const done = await waitFor(
      second,
      'backfill complete',
      (s) => valueOf(s, 'ton_bridge_index_first_mc_seqno') === FROM && valueOf(s, 'ton_bridge_index_backfill_remaining_blocks') === 0 && valueOf(s, 'ton_bridge_index_lag_blocks') < 10,
    );
    expect(valueOf(done, 'ton_bridge_index_committed_mc_seqno')).toBeGreaterThan(HISTORY);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);

    const store = await IndexStore.open({ databaseUrl: db.url, indexDir: db.url ? null : path.join(dir, 'index'), logger: pino({ level: 'silent' }) });
    try {
      const pool = store.pool;
      const { rows: cp } = await pool.query<{ first_mc_seqno: number; mc_seqno: number; backfill_from: number | null; backfill_next: number | null }>(
        'select first_mc_seqno, mc_seqno, backfill_from, backfill_next from index_checkpoint',
      );
      const checkpoint = cp[0]!;
      expect(checkpoint.first_mc_seqno).toBe(FROM);
      expect(checkpoint.backfill_from).toBeNull();
      expect(checkpoint.backfill_next).toBeNull();
      // Every masterchain block from FROM to the checkpoint, once.
      const { rows: mc } = await pool.query<{ n: string; distinct_n: string; lo: number; hi: number }>(
        'select count(*) as n, count(distinct seqno) as distinct_n, min(seqno) as lo, max(seqno) as hi from blocks where workchain = -1',
      );
      expect(mc[0]!.lo).toBe(FROM);
      expect(mc[0]!.hi).toBe(checkpoint.mc_seqno);
      expect(Number(mc[0]!.n)).toBe(checkpoint.mc_seqno - FROM + 1);
      expect(Number(mc[0]!.distinct_n)).toBe(checkpoint.mc_seqno - FROM + 1);
      // Each shard's blocks contiguous across the join of the two lanes (two fixed shards).
      const { rows: shards } = await pool.query<{ shard: string; n: string; distinct_n: string; lo: number; hi: number }>(
        'select shard::text, count(*) as n, count(distinct seqno) as distinct_n, min(seqno) as lo, max(seqno) as hi from blocks where workchain = 0 group by shard',
      );
      expect(shards.length).toBe(2);
      for (const shard of shards) {
        expect(Number(shard.n)).toBe(shard.hi - shard.lo + 1);
        expect(shard.distinct_n).toBe(shard.n);
      }
      // Nothing of the blocks below FROM: their transactions are not in.
      const { rows: below } = await pool.query<{ n: string }>('select count(*) as n from transactions where mc_block_seqno < $1', [FROM]);
      expect(below[0]!.n).toBe('0');
      // Every block's transactions: as many as the block says, as v2 lists them, none twice.
      const blocks = await expectBlocksAsV2(pool, stack);
      const backfilled = blocks.filter((block) => block.mc < HISTORY).reduce((sum, block) => sum + block.tx_count, 0);
      expect(backfilled).toBeGreaterThan(20);
      const { rows: dup } = await pool.query<{ n: string }>('select count(*) as n from (select hash from transactions group by hash having count(*) > 1) d');
      expect(dup[0]!.n).toBe('0');
    } finally {
      await store.close();
    }
  });
});
