import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { createTestDatabase, INDEX_BACKENDS, type TestDatabase } from '../helpers/indexDatabases';
import { insertMcBlockRows, IndexStore, type BlockRow, type LatestAccountStateRow, type McBlockRows, type MessageRow } from '../../src/indexdb';

jest.setTimeout(120_000);

/**
 * The writer builds each column's array parameter as PostgreSQL array text itself (by column
 * type, not through the driver): the values that text must carry exactly come back as written.
 * Text with `"`, `\`, `,`, braces, spaces and the word NULL; JSON (jsonb) with quotes; empty
 * text; nulls beside values; int8 at its limits; negative shards; booleans; bytea of every byte
 * value and empty; block id lists (blockid[] built from text).
 */
describe.each(INDEX_BACKENDS)('the writer’s array parameters (%s)', (backend) => {
  let db: TestDatabase;
  let dir: string;
  let store: IndexStore;

  beforeAll(async () => {
    db = await createTestDatabase(backend);
    dir = mkdtempSync(path.join(tmpdir(), 'writer-arrays-'));
    store = await IndexStore.open({ databaseUrl: db.url, indexDir: db.url ? null : path.join(dir, 'index'), logger: pino({ level: 'silent' }) });
  });

  afterAll(async () => {
    await store?.close();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes text, JSON, bytea, int8, booleans, nulls and block ids exactly', async () => {
    const allBytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const block: BlockRow = {
      workchain: 0,
      shard: -0x8000000000000000n,
      seqno: 7,
      root_hash: randomBytes(32),
      file_hash: randomBytes(32),
      mc_block_workchain: -1,
      mc_block_shard: -0x8000000000000000n,
      mc_block_seqno: 3,
      global_id: -239,
      version: 0,
      after_merge: false,
      before_split: true,
      after_split: false,
      want_merge: true,
      want_split: false,
      key_block: false,
      vert_seqno_incr: true,
      flags: 1,
      gen_utime: 1_700_000_000,
      start_lt: 9_223_372_036_854_775_807n,
      end_lt: 0n,
      validator_list_hash_short: -1,
      gen_catchain_seqno: 0,
      min_ref_mc_seqno: 2,
      prev_key_block_seqno: 0,
      vert_seqno: 0,
      master_ref_seqno: null,
      rand_seed: allBytes.subarray(0, 32),
      created_by: allBytes.subarray(224),
      tx_count: 2,
      prev_blocks: [
        { workchain: 0, shard: 0x4000000000000000n, seqno: 6 },
        { workchain: 0, shard: -0x4000000000000000n, seqno: 5 },
      ],
    };
    const texts = ['a "quoted" \\ back,slash {braces} and spaces', 'NULL', '', '\\', '"', 'plain'];
    const messages: MessageRow[] = texts.map((text, i) => ({
      tx_hash: randomBytes(32),
      tx_lt: BigInt(i) - 9_223_372_036_854_775_808n + 1n,
      mc_seqno: 3,
      msg_hash: randomBytes(32),
      msg_hash_norm: i % 2 === 0 ? null : allBytes.subarray(i, i + 32),
      direction: i % 2 === 0 ? 'in' : 'out',
      trace_id: null,
      source: text,
      destination: i === 1 ? null : `0:${text}`,
      value: i === 0 ? 9_223_372_036_854_775_807n : null,
      value_extra_currencies: i === 0 ? '{"7": "5", "key \\"q\\"": "a\\\\b"}' : null,
      fwd_fee: 0n,
      ihr_fee: null,
      extra_flags: i === 2 ? 3n : null,
      created_lt: null,
      created_at: i,
      opcode: i === 3 ? -2_147_483_648 : i,
      ihr_disabled: i % 2 === 0,
      bounce: null,
      bounced: false,
      import_fee: null,
      body_hash: i === 4 ? Buffer.alloc(0) : allBytes,
      init_state_hash: null,
    }));
    const state: LatestAccountStateRow = {
      hash: randomBytes(32),
      account: '0:"odd\\account"',
      balance: 0n,
      balance_extra_currencies: '{"1": "2"}',
      account_status: 'active',
      frozen_hash: null,
      data_hash: allBytes.subarray(100, 132),
      code_hash: null,
      account_friendly: null,
      timestamp: 5,
      last_trans_hash: null,
      last_trans_lt: -1n,
      data_boc: allBytes,
      code_boc: null,
    };
    const rows: McBlockRows = {
      blocks: [block],
      shardState: [],
      transactions: [],
      messages,
      messageContents: [],
      accountStates: [state],
      latestAccountStates: [state],
      traces: [],
      traceEdges: [],
    };
    const client = await store.pool.connect();
    try {
      await client.query('begin');
      const counts = await insertMcBlockRows(client, rows);
      await client.query('commit');
      expect(counts.messages).toBe(texts.length);
    } finally {
      client.release();
    }

    const { rows: blocks } = await store.pool.query<{ shard: string; start_lt: string; rand_seed: Buffer; created_by: Buffer; before_split: boolean; master_ref_seqno: number | null; prev: string }>(
      'select shard::text, start_lt::text, rand_seed, created_by, before_split, master_ref_seqno, prev_blocks::text as prev from blocks',
    );
    expect(blocks).toEqual([
      {
        shard: '-9223372036854775808',
        start_lt: '9223372036854775807',
        rand_seed: block.rand_seed,
        created_by: block.created_by,
        before_split: true,
        master_ref_seqno: null,
        prev: '{"(0,4611686018427387904,6)","(0,-4611686018427387904,5)"}',
      },
    ]);
    const { rows: read } = await store.pool.query<Record<string, unknown>>(
      "select msg_hash, msg_hash_norm, source, destination, value::text, value_extra_currencies, extra_flags::text, tx_lt::text, opcode, ihr_disabled, bounce, body_hash, direction::text from messages order by created_at",
    );
    expect(read).toEqual(
      messages.map((m) => ({
        msg_hash: m.msg_hash,
        msg_hash_norm: m.msg_hash_norm,
        source: m.source,
        destination: m.destination,
        value: m.value === null ? null : m.value.toString(),
        value_extra_currencies: m.value_extra_currencies === null ? null : JSON.parse(m.value_extra_currencies),
        extra_flags: m.extra_flags === null ? null : m.extra_flags.toString(),
        tx_lt: m.tx_lt.toString(),
        opcode: m.opcode,
        ihr_disabled: m.ihr_disabled,
        bounce: m.bounce,
        body_hash: m.body_hash,
        direction: m.direction,
      })),
    );
    const { rows: states } = await store.pool.query<Record<string, unknown>>(
      'select account, balance_extra_currencies, data_boc, code_boc, last_trans_lt::text, account_status::text from latest_account_states',
    );
    expect(states).toEqual([{ account: state.account, balance_extra_currencies: { '1': '2' }, data_boc: allBytes, code_boc: null, last_trans_lt: '-1', account_status: 'active' }]);
  });
});
