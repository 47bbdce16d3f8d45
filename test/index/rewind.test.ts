import { Address } from '@ton/core';
import { indexMetricSum } from '../helpers/indexMetrics';
import { createTestDatabase, INDEX_BACKENDS, type TestDatabase } from '../helpers/indexDatabases';
import { localnetControl, startLocalStack, type LocalStack } from '../helpers/localStack';
import { until } from '../helpers/waiting';

jest.setTimeout(240_000);

/**
 * A snapshot restore rewinds the embedded chain: the index rolls back to the last common
 * masterchain block and follows the new history (its blocks equal the chain's, the abandoned
 * history's transactions are gone, latest states are the new ones).
 */
describe.each(INDEX_BACKENDS)('index follows a rewound local chain (%s)', (backend) => {
  let db: TestDatabase;
  let stack: LocalStack;

  beforeAll(async () => {
    db = await createTestDatabase(backend);
    stack = await startLocalStack(['--block-interval', '0', '--index', 'on', ...(db.url ? ['--database-url', db.url] : [])]);
  });

  afterAll(async () => {
    await stack?.stop();
    await db?.drop();
  });

  const post = <T>(path: string, body: Record<string, unknown>): Promise<T> => localnetControl<T>(stack, path, body);

  const index = () => stack.server.services.index!;
  const committed = () => index().health().status.committedMcSeqno ?? 0;
  const head = () => stack.localnet.chain.lastMasterchainBlock().id.seqno;

  it('rolls back to the last common block and indexes the new history', async () => {
    const alice = new Address(0, Buffer.alloc(32, 0xa1)).toRawString();
    const bob = new Address(0, Buffer.alloc(32, 0xb2)).toRawString();
    await post('fund', { address: alice, amount: '1000000000' });
    await until(() => committed() >= head(), 120_000, 'index at the head');
    const snapshot = await post<{ id: string; seqno: number }>('snapshot', {});
    const old = await post<{ transaction_id: { hash: string } }>('fund', { address: bob, amount: '2000000000' });
    await post('mine', {});
    await post('mine', {});
    await until(() => committed() >= head(), 120_000, 'index past the snapshot');
    const abandoned = Buffer.from(old.transaction_id.hash, 'base64');
    const rollbacksBefore = await indexMetricSum(index(), 'ton_bridge_index_rollbacks_total');

    await post('restore', { id: snapshot.id });
    // A different history above the snapshot, longer than the abandoned one.
    await post('fund', { address: alice, amount: '3000000000' });
    for (let i = 0; i < 4; i++) await post('mine', {});
    const newHead = head();
    await until(async () => {
      const { rows } = await index().store.pool.query<{ root_hash: Buffer }>('select root_hash from blocks where workchain = -1 and seqno = $1', [newHead]);
      return committed() === newHead && rows.length === 1;
    }, 120_000, 'index on the new history');

    expect((await indexMetricSum(index(), 'ton_bridge_index_rollbacks_total')) - rollbacksBefore).toBeGreaterThanOrEqual(1);
    const pool = index().store.pool;
    const { rows } = await pool.query<{ seqno: number; root_hash: Buffer }>('select seqno, root_hash from blocks where workchain = -1 order by seqno');
    expect(rows.map((r) => r.seqno)).toEqual(Array.from({ length: newHead }, (_, i) => i + 1));
    for (const row of rows) {
      const res = await fetch(`${stack.api}/lookupBlock?workchain=-1&shard=-9223372036854775808&seqno=${row.seqno}`);
      const id = ((await res.json()) as { result: { root_hash: string } }).result;
      expect(`${row.seqno} ${row.root_hash.toString('base64')}`).toBe(`${row.seqno} ${id.root_hash}`);
    }
    const gone = await pool.query('select 1 from transactions where hash = $1', [abandoned]);
    expect(gone.rowCount).toBe(0);
    // Its messages went with it, and no message is left without its transaction.
    const goneMessages = await pool.query('select 1 from messages where tx_hash = $1', [abandoned]);
    expect(goneMessages.rowCount).toBe(0);
    const orphans = await pool.query<{ n: number }>('select count(*)::int as n from messages m where not exists (select 1 from transactions t where t.hash = m.tx_hash and t.lt = m.tx_lt)');
    expect(orphans.rows[0]!.n).toBe(0);
    // Bob's funding was abandoned: he is unknown again (or not active) in the latest states.
    const bobState = await pool.query<{ balance: string }>('select balance::text from latest_account_states where account = $1', [bob.toUpperCase()]);
    expect(bobState.rows.length).toBe(0);
    const aliceState = await pool.query<{ balance: string }>('select balance::text from latest_account_states where account = $1', [alice.toUpperCase()]);
    expect(BigInt(aliceState.rows[0]!.balance)).toBeGreaterThan(3_000_000_000n);
  });
});
