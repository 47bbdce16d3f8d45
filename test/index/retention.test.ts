import { Address } from '@ton/core';
import { createTestDatabase, INDEX_BACKENDS, type TestDatabase } from '../helpers/indexDatabases';
import { localnetControl, startLocalStack, type LocalStack } from '../helpers/localStack';
import { until } from '../helpers/waiting';

jest.setTimeout(240_000);

/**
 * `--index-retention 1`: once the chain's clock is two days past its first blocks, those whole
 * masterchain blocks leave the index (their blocks, transactions and messages; no message is left
 * without its transaction), the first indexed block moves up (v3 masterchainInfo says so) and the
 * newer blocks and the latest account states stay.
 */
describe.each(INDEX_BACKENDS)('index retention (%s)', (backend) => {
  let db: TestDatabase;
  let stack: LocalStack;

  beforeAll(async () => {
    db = await createTestDatabase(backend);
    stack = await startLocalStack(['--block-interval', '0', '--index', 'on', '--index-retention', '1', ...(db.url ? ['--database-url', db.url] : [])]);
  });

  afterAll(async () => {
    await stack?.stop();
    await db?.drop();
  });

  const post = <T>(path: string, body: Record<string, unknown>): Promise<T> => localnetControl<T>(stack, path, body);

  const index = () => stack.server.services.index!;
  const committed = () => index().health().status.committedMcSeqno ?? 0;
  const head = () => stack.localnet.chain.lastMasterchainBlock().id.seqno;

  it('deletes whole masterchain blocks older than the retention, on the chain clock', async () => {
    const pool = index().store.pool;
    const alice = new Address(0, Buffer.alloc(32, 0xa7)).toRawString();
    const bob = new Address(0, Buffer.alloc(32, 0xb7)).toRawString();
    const early = await post<{ transaction_id: { hash: string } }>('fund', { address: alice, amount: '1000000000' });
    await post('mine', {});
    await until(() => committed() >= head(), 120_000, 'index at the head');
    const oldHead = head();
    const earlyHash = Buffer.from(early.transaction_id.hash, 'base64');
    const before = await pool.query<{ n: number }>('select count(*)::int as n from messages m join transactions t on t.hash = m.tx_hash and t.lt = m.tx_lt where t.hash = $1', [earlyHash]);
    expect(before.rows[0]!.n).toBeGreaterThan(0);

    await post('time', { increase: 2 * 86_400 });
    const late = await post<{ transaction_id: { hash: string } }>('fund', { address: bob, amount: '2000000000' });
    await post('mine', {});
    await until(async () => {
      const { rows } = await pool.query<{ first_mc_seqno: number }>('select first_mc_seqno from index_checkpoint');
      return committed() >= head() && (rows[0]?.first_mc_seqno ?? 0) > oldHead;
    }, 120_000, 'the old blocks pruned');

    const { rows: mcBlocks } = await pool.query<{ seqno: number }>('select seqno from blocks where workchain = -1 order by seqno');
    expect(mcBlocks[0]!.seqno).toBe(oldHead + 1);
    expect(mcBlocks.map((b) => b.seqno)).toEqual(Array.from({ length: head() - oldHead }, (_, i) => oldHead + 1 + i));
    const gone = await pool.query<{ blocks: number; transactions: number }>(
      'select (select count(*)::int from blocks where mc_block_seqno <= $1) as blocks, (select count(*)::int from transactions where mc_block_seqno <= $1) as transactions',
      [oldHead],
    );
    expect(gone.rows[0]).toEqual({ blocks: 0, transactions: 0 });
    const earlyMessages = await pool.query('select 1 from messages where tx_hash = $1', [earlyHash]);
    expect(earlyMessages.rowCount).toBe(0);
    const orphans = await pool.query<{ n: number }>('select count(*)::int as n from messages m where not exists (select 1 from transactions t where t.hash = m.tx_hash and t.lt = m.tx_lt)');
    expect(orphans.rows[0]!.n).toBe(0);
    const lateMessages = await pool.query<{ n: number }>('select count(*)::int as n from messages where tx_hash = $1', [Buffer.from(late.transaction_id.hash, 'base64')]);
    expect(lateMessages.rows[0]!.n).toBeGreaterThan(0);

    const info = (await (await fetch(`${stack.url}/api/v3/masterchainInfo`)).json()) as { first: { seqno: number }; last: { seqno: number } };
    expect(info.first.seqno).toBe(oldHead + 1);
    expect(info.last.seqno).toBe(head());
    // Latest states are kept: alice's funding is older than the retention, her state is not.
    const aliceState = await pool.query<{ balance: string }>('select balance::text from latest_account_states where account = $1', [alice.toUpperCase()]);
    expect(BigInt(aliceState.rows[0]!.balance)).toBeGreaterThan(0n);
  });
});
