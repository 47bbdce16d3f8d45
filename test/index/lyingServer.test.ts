import type { IndexThreadService } from '../../src/indexer';
import { indexMetricSum } from '../helpers/indexMetrics';
import { createTestDatabase, INDEX_BACKENDS, type TestDatabase } from '../helpers/indexDatabases';
import { startTamperedStack, type TamperedStack } from '../helpers/tamperingLiteServer';
import { until } from '../helpers/waiting';

jest.setTimeout(240_000);

/**
 * A lite server that answers getBlock with altered bytes, beside an honest one: its blocks are
 * refused (never indexed), it is reported (out of rotation, the refusal counted) and every block
 * comes from the honest server, so the index is complete and equals the chain.
 */
describe.each(INDEX_BACKENDS)('index with a lying lite server (%s)', (backend) => {
  let db: TestDatabase;
  let stack: TamperedStack;

  beforeAll(async () => {
    db = await createTestDatabase(backend);
    stack = await startTamperedStack({ honest: true, flags: ['--index', 'on', ...(db.url ? ['--database-url', db.url] : [])] });
  });

  afterAll(async () => {
    await stack?.stop();
    await db?.drop();
  });

  it('refuses altered blocks, reports the server and indexes the honest blocks', async () => {
    const index = stack.server.services.index! as IndexThreadService;
    const refusedBefore = await indexMetricSum(index, 'ton_bridge_index_refused_blocks_total');
    stack.liar.tamper('liteServer.getBlock', (answer) => {
      const data = Buffer.from(answer.data);
      data[data.length - 40] ^= 0x01;
      return { ...answer, data };
    });
    await stack.seal(12);
    const head = stack.localnet.chain.lastMasterchainBlock().id.seqno;
    await until(() => (index.health().status.committedMcSeqno ?? 0) >= head, 180_000, `index reaches ${head}`);
    expect(stack.liar.tampered).toBeGreaterThan(0);
    const refused = (await indexMetricSum(index, 'ton_bridge_index_refused_blocks_total')) - refusedBefore;
    expect(refused).toBeGreaterThan(0);
    // The liar was taken out of rotation for the failed check (by the index thread's pool, which fetched the blocks).
    const liar = (await index.liteServers())[0]!;
    expect(`${liar.state} ${liar.reason ?? ''}`).toMatch(/proof|distrust|LITE_SERVER_PROOF|file hash|root hash/i);
    // Every indexed block is the chain's own (its hashes equal the chain's block of that id).
    const { rows } = await index.store.pool.query<{ workchain: number; shard: string; seqno: number; root_hash: Buffer; file_hash: Buffer }>(
      'select workchain, shard::text, seqno, root_hash, file_hash from blocks where workchain = -1 order by seqno',
    );
    expect(rows.map((r) => r.seqno)).toEqual(Array.from({ length: head }, (_, i) => i + 1));
    for (const row of rows) {
      const res = await fetch(`${stack.api}/lookupBlock?workchain=-1&shard=-9223372036854775808&seqno=${row.seqno}`);
      const id = ((await res.json()) as { result: { root_hash: string; file_hash: string } }).result;
      expect(row.root_hash.toString('base64')).toBe(id.root_hash);
      expect(row.file_hash.toString('base64')).toBe(id.file_hash);
    }
  });
});
