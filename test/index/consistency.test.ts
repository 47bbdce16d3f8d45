import { Address, Cell, toNano } from '@ton/core';
import { indexMetricSum } from '../helpers/indexMetrics';
import { callV2 } from '../helpers/v2Calls';
import { createTestDatabase, INDEX_BACKENDS, type TestDatabase } from '../helpers/indexDatabases';
import { startLocalStack, type LocalStack } from '../helpers/localStack';
import { sendTransfer } from '../helpers/v2Calls';
import { until } from '../helpers/waiting';
import type { IndexService } from '../../src/indexer';

jest.setTimeout(240_000);

interface V2ShortTx {
  account: string;
  lt: string;
  hash: string;
}

/**
 * The index against v2 on the embedded chain: for every indexed masterchain block, the
 * transactions of all its shard blocks (and of itself) equal what v2 getBlockTransactions lists,
 * hash by hash, and every indexed account state equals v2's getAddressInformation at that block.
 */
describe.each(INDEX_BACKENDS)('index consistency with v2 (%s)', (backend) => {
  let db: TestDatabase;
  let stack: LocalStack;
  let index: IndexService;

  beforeAll(async () => {
    db = await createTestDatabase(backend);
    stack = await startLocalStack(['--shards', '2', '--block-interval', '300', '--index', 'on', ...(db.url ? ['--database-url', db.url] : [])]);
    index = stack.server.services.index!;
    expect(index).toBeDefined();
  });

  afterAll(async () => {
    await stack?.stop();
    await db?.drop();
  });

  it('indexes every shard block and transaction v2 lists, and the account states v2 reads', async () => {
    const recipients = Array.from({ length: 4 }, (_, i) => new Address(i % 2 === 0 ? 0 : 0, Buffer.alloc(32, 0x10 + i * 0x40)));
    for (let round = 0; round < 3; round++) await sendTransfer(stack, recipients, toNano('0.05'));
    const head = (await callV2<{ last: { seqno: number } }>(stack, 'GET', 'getMasterchainInfo', {})).body.result!.last.seqno;
    await until(() => (index.health().status.committedMcSeqno ?? 0) >= head, 120_000, `index reaches ${head}`);
    expect(index.health()).toMatchObject({ available: true });

    const pool = index.store.pool;
    const first = index.health().status.firstMcSeqno!;
    expect(first).toBe(1);
    let checkedTransactions = 0;
    for (let seqno = first; seqno <= head; seqno++) {
      const shards = (await callV2<{ shards: { workchain: number; shard: string; seqno: number }[] }>(stack, 'GET', 'shards', { seqno })).body.result!.shards;
      const { rows: blocks } = await pool.query<{ workchain: number; shard: string; seqno: number }>(
        'select workchain, shard::text, seqno from blocks where mc_block_seqno = $1 order by workchain, shard, seqno',
        [seqno],
      );
      // The shard tops the masterchain block lists are among its indexed blocks.
      for (const top of shards) {
        const covered = blocks.some((b) => b.workchain === top.workchain && b.shard === top.shard && b.seqno === top.seqno);
        const earlier = await pool.query('select 1 from blocks where workchain = $1 and shard = $2 and seqno = $3 and mc_block_seqno < $4', [top.workchain, top.shard, top.seqno, seqno]);
        expect(covered || earlier.rowCount === 1).toBe(true);
      }
      for (const block of blocks) {
        const listed = await callV2<{ transactions: V2ShortTx[]; incomplete: boolean }>(stack, 'GET', 'getBlockTransactions', {
          workchain: block.workchain,
          shard: block.shard,
          seqno: block.seqno,
          count: 256,
        });
        const v2 = listed.body.result!.transactions.map((t) => Buffer.from(t.hash, 'base64').toString('hex')).sort();
        const { rows } = await pool.query<{ hash: Buffer }>('select hash from transactions where block_workchain = $1 and block_shard = $2 and block_seqno = $3', [
          block.workchain,
          block.shard,
          block.seqno,
        ]);
        expect(rows.map((r) => r.hash.toString('hex')).sort()).toEqual(v2);
        checkedTransactions += v2.length;
      }
    }
    expect(checkedTransactions).toBeGreaterThanOrEqual(6);

    // Latest account states: each equals v2 at the index's committed block. The chain keeps
    // ticking and the index keeps committing: the states and the block they stand at are read in
    // one statement (one snapshot), never as two reads a commit can fall between.
    const { rows: accounts } = await pool.query<{
      account: string;
      balance: string;
      account_status: string;
      last_trans_lt: string;
      last_trans_hash: Buffer;
      code_hash: Buffer | null;
      data_hash: Buffer | null;
      code_boc: Buffer | null;
      data_boc: Buffer | null;
      at_seqno: number;
    }>(
      'select account, balance::text, account_status, last_trans_lt::text, last_trans_hash, code_hash, data_hash, code_boc, data_boc, ' +
        '(select mc_seqno from index_checkpoint) as at_seqno from latest_account_states',
    );
    expect(accounts.length).toBeGreaterThan(4);
    for (const account of accounts) {
      const info = await callV2<{ balance: string; state: string; last_transaction_id: { lt: string; hash: string }; code: string; data: string }>(
        stack,
        'GET',
        'getAddressInformation',
        { address: account.account, seqno: account.at_seqno },
      );
      const result = info.body.result!;
      expect(account.balance).toBe(result.balance);
      expect(account.last_trans_lt).toBe(result.last_transaction_id.lt);
      expect(account.last_trans_hash.toString('base64')).toBe(result.last_transaction_id.hash);
      expect(account.account_status).toBe(result.state === 'uninitialized' ? 'uninit' : result.state);
      // Code and data (from the block's state update, or remembered when the update prunes them unchanged).
      const code = result.code ? Cell.fromBase64(result.code) : null;
      const data = result.data ? Cell.fromBase64(result.data) : null;
      expect(account.code_hash?.toString('hex') ?? null).toBe(code?.hash().toString('hex') ?? null);
      expect(account.data_hash?.toString('hex') ?? null).toBe(data?.hash().toString('hex') ?? null);
      expect(account.code_boc ? Cell.fromBoc(account.code_boc)[0]!.hash().toString('hex') : null).toBe(code?.hash().toString('hex') ?? null);
      expect(account.data_boc ? Cell.fromBoc(account.data_boc)[0]!.hash().toString('hex') : null).toBe(data?.hash().toString('hex') ?? null);
    }
    // The states came from the blocks' own state updates (the local chain's blocks carry real ones),
    // not from a lite read per account.
    const fromBlocks = await indexMetricSum(index, 'ton_bridge_index_account_states_total', { source: 'block' });
    const fromReads = await indexMetricSum(index, 'ton_bridge_index_account_states_total', { source: 'lite_server' });
    expect(fromBlocks).toBeGreaterThan(accounts.length);
    expect(fromReads).toBeLessThan(fromBlocks);

    // Each transfer's transactions share one trace rooted at the wallet's external message.
    const { rows: traces } = await pool.query<{ n: string }>("select count(*) as n from traces where external_hash is not null and state = 'complete' and nodes_ >= 5");
    expect(Number(traces[0]!.n)).toBeGreaterThanOrEqual(3);
  });
});
