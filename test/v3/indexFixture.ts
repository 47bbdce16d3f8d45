import { createHash, randomBytes } from 'node:crypto';
import { beginCell } from '@ton/core';
import { Client } from 'pg';
import pino from 'pino';
import { IndexStore } from '../../src/indexdb';

/**
 * A fresh PostgreSQL database with the index's schema (migrated by the index's own store) and a small chain's rows written the way the index writes them:
 * two masterchain blocks, two basechain shards, a wallet that sends to a contract in the other
 * shard, the contract's bounce back. The tests know every value.
 */

export const PG_ADMIN_URL = process.env['TEST_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

export function hashOf(label: string): Buffer {
  return createHash('sha256').update(label).digest();
}

export const MC_SHARD = '-9223372036854775808';
export const SHARD_LEFT = '4611686018427387904'; // 0x4000000000000000
export const SHARD_RIGHT = '-4611686018427387904'; // 0xC000000000000000

export const WALLET = `0:${'AA'.repeat(32)}`;
export const CONTRACT = `0:${'BB'.repeat(32)}`;
export const RICH = `-1:${'CC'.repeat(32)}`;
/** wallet v4 r2's code hash (a wallet: non-bounceable in the address book). */
export const WALLET_CODE_HASH = Buffer.from('feb5ff6820e2ff0d9483e7e0d62c817d846789fb4ae580c878866d959dabd5c0', 'hex');
export const CONTRACT_CODE_HASH = hashOf('contract code');
export const WALLET_DATA = beginCell().storeUint(7, 32).storeUint(698983191, 32).storeBuffer(Buffer.alloc(32, 1)).storeBit(0).endCell();

export const TX1 = { hash: hashOf('tx1'), lt: '1000001', now: 999 };
export const TX2 = { hash: hashOf('tx2'), lt: '2000001', now: 1004 };
export const TX3 = { hash: hashOf('tx3'), lt: '2000003', now: 1004 };
// The body's BoC is longer than 57 bytes: PostgreSQL's base64 of it breaks lines (every 76 characters), which the answer must not show.
export const EXT = {
  hash: hashOf('ext'),
  norm: hashOf('ext-norm'),
  body: beginCell().storeUint(0xdeadbeef, 32).storeBuffer(Buffer.alloc(100, 0x5a)).storeRef(beginCell().storeBuffer(Buffer.alloc(60, 0xa5))).endCell(),
};
export const M1 = { hash: hashOf('m1'), body: beginCell().storeUint(0, 32).storeStringTail('hello').endCell() };
export const M2 = { hash: hashOf('m2') };
export const BIG_TRACE = hashOf('big trace');

export interface IndexDatabase {
  url: string;
  /** Runs SQL as the test's own client (to read or count rows). */
  client: Client;
  drop(): Promise<void>;
}

export async function createIndexDatabase(): Promise<IndexDatabase> {
  const name = `wt_v3_test_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = PG_ADMIN_URL.replace(/\/[^/]*$/, `/${name}`);
  // The index's own store opens it: its migration runner builds the schema.
  const store = await IndexStore.open({ databaseUrl: url, logger: pino({ level: 'silent' }) });
  await store.close();
  const client = new Client({ connectionString: url });
  await client.connect();
  return {
    url,
    client,
    async drop() {
      await client.end();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

async function insert(client: Client, table: string, row: Record<string, unknown>): Promise<void> {
  const columns = Object.keys(row);
  const placeholders = columns.map((_, i) => `$${i + 1}`);
  await client.query(`insert into ${table} (${columns.join(', ')}) values (${placeholders.join(', ')})`, Object.values(row));
}

function block(workchain: number, shard: string, seqno: number, mcSeqno: number, genUtime: number, startLt: number, prev: string) {
  return {
    workchain,
    shard,
    seqno,
    root_hash: hashOf(`root ${workchain}:${shard}:${seqno}`),
    file_hash: hashOf(`file ${workchain}:${shard}:${seqno}`),
    mc_block_workchain: -1,
    mc_block_shard: MC_SHARD,
    mc_block_seqno: mcSeqno,
    global_id: -217,
    version: 0,
    after_merge: false,
    before_split: false,
    after_split: workchain === 0,
    want_merge: false,
    want_split: false,
    key_block: workchain === -1 && seqno === 1,
    vert_seqno_incr: false,
    flags: 1,
    gen_utime: genUtime,
    start_lt: startLt,
    end_lt: startLt + 10,
    validator_list_hash_short: 12345,
    gen_catchain_seqno: 0,
    min_ref_mc_seqno: 1,
    prev_key_block_seqno: 1,
    vert_seqno: 0,
    master_ref_seqno: mcSeqno,
    rand_seed: hashOf(`seed ${seqno}`),
    created_by: hashOf('validator'),
    tx_count: 0,
    prev_blocks: prev,
  };
}

function transaction(
  tx: { hash: Buffer; lt: string; now: number },
  account: string,
  shard: string,
  seqno: number,
  mcSeqno: number,
  extra: Record<string, unknown> = {},
) {
  return {
    account,
    hash: tx.hash,
    lt: tx.lt,
    block_workchain: 0,
    block_shard: shard,
    block_seqno: seqno,
    mc_block_seqno: mcSeqno,
    trace_id: TX1.hash,
    prev_trans_hash: Buffer.alloc(32),
    prev_trans_lt: 0,
    now: tx.now,
    orig_status: 'active',
    end_status: 'active',
    total_fees: 1234567,
    total_fees_extra_currencies: {},
    account_state_hash_before: hashOf(`${tx.lt} before`),
    account_state_hash_after: hashOf(`${tx.lt} after`),
    descr: 'ord',
    aborted: false,
    destroyed: false,
    credit_first: tx !== TX1,
    storage_fees_collected: 10,
    storage_status_change: 'unchanged',
    compute_skipped: false,
    compute_success: true,
    compute_msg_state_used: false,
    compute_account_activated: false,
    compute_gas_fees: 1000000,
    compute_gas_used: 2000,
    compute_gas_limit: 1000000,
    compute_mode: 0,
    compute_exit_code: 0,
    compute_vm_steps: 50,
    compute_vm_init_state_hash: Buffer.alloc(32),
    compute_vm_final_state_hash: Buffer.alloc(32),
    action_success: true,
    action_valid: true,
    action_no_funds: false,
    action_status_change: 'unchanged',
    action_result_code: 0,
    action_tot_actions: 1,
    action_spec_actions: 0,
    action_skipped_actions: 0,
    action_msgs_created: 1,
    action_action_list_hash: hashOf(`actions ${tx.lt}`),
    action_tot_msg_size_cells: 1,
    action_tot_msg_size_bits: 700,
    ...extra,
  };
}

function message(m: { hash: Buffer }, txHash: Buffer, txLt: string, direction: 'in' | 'out', extra: Record<string, unknown>) {
  return { tx_hash: txHash, tx_lt: txLt, msg_hash: m.hash, direction, trace_id: TX1.hash, ...extra };
}

/** Writes the small chain's rows. */
export async function seedChain(client: Client): Promise<void> {
  await insert(client, 'blocks', block(-1, MC_SHARD, 1, 1, 1000, 1000000, `{"(-1,${MC_SHARD},0)"}`));
  await insert(client, 'blocks', block(-1, MC_SHARD, 2, 2, 1005, 2000000, `{"(-1,${MC_SHARD},1)"}`));
  await insert(client, 'blocks', block(0, SHARD_LEFT, 1, 1, 999, 1000000, `{"(0,${MC_SHARD},0)"}`));
  await insert(client, 'blocks', block(0, SHARD_RIGHT, 1, 1, 999, 1000000, `{"(0,${MC_SHARD},0)"}`));
  await insert(client, 'blocks', block(0, SHARD_LEFT, 2, 2, 1004, 2000000, `{"(0,${SHARD_LEFT},1)"}`));
  await insert(client, 'blocks', block(0, SHARD_RIGHT, 2, 2, 1004, 2000000, `{"(0,${SHARD_RIGHT},1)"}`));
  for (const [mc, seqno] of [[1, 1], [2, 2]] as const) {
    for (const shard of [SHARD_LEFT, SHARD_RIGHT]) await insert(client, 'shard_state', { mc_seqno: mc, workchain: 0, shard, seqno });
  }

  await insert(client, 'transactions', transaction(TX1, WALLET, SHARD_LEFT, 1, 1));
  await insert(client, 'transactions', transaction(TX2, CONTRACT, SHARD_RIGHT, 2, 2, { compute_success: false, compute_exit_code: 35, bounce: 'ok', bounce_msg_size_cells: 1, bounce_msg_size_bits: 100, bounce_fwd_fees: 400 }));
  await insert(client, 'transactions', transaction(TX3, WALLET, SHARD_LEFT, 2, 2, { action_success: null, action_tot_msg_size_cells: null }));

  await insert(client, 'messages', message(EXT, TX1.hash, TX1.lt, 'in', { mc_seqno: 1, msg_hash_norm: EXT.norm, destination: WALLET, import_fee: 0, opcode: 0xdeadbeef | 0, body_hash: EXT.body.hash() }));
  const m1 = { source: WALLET, destination: CONTRACT, value: 1000, fwd_fee: 266669, ihr_fee: 0, created_lt: 1000002, created_at: 999, opcode: 0, ihr_disabled: true, bounce: true, bounced: false, body_hash: M1.body.hash(), value_extra_currencies: {} };
  await insert(client, 'messages', message(M1, TX1.hash, TX1.lt, 'out', { mc_seqno: 1, ...m1 }));
  await insert(client, 'messages', message(M1, TX2.hash, TX2.lt, 'in', { mc_seqno: 2, ...m1 }));
  const m2 = { source: CONTRACT, destination: WALLET, value: 500, fwd_fee: 1000, ihr_fee: 0, created_lt: 2000002, created_at: 1004, opcode: -1, ihr_disabled: true, bounce: false, bounced: true, value_extra_currencies: {} };
  await insert(client, 'messages', message(M2, TX2.hash, TX2.lt, 'out', { mc_seqno: 2, ...m2 }));
  await insert(client, 'messages', message(M2, TX3.hash, TX3.lt, 'in', { mc_seqno: 2, ...m2 }));
  await insert(client, 'message_contents', { hash: EXT.body.hash(), body: EXT.body.toBoc() });
  await insert(client, 'message_contents', { hash: M1.body.hash(), body: M1.body.toBoc() });

  for (const tx of [TX1, TX2, TX3]) {
    const account = tx === TX2 ? CONTRACT : WALLET;
    for (const side of ['before', 'after']) {
      await insert(client, 'account_states', {
        hash: hashOf(`${tx.lt} ${side}`),
        account,
        balance: side === 'before' ? 5000000000 : 4990000000,
        account_status: 'active',
        data_hash: hashOf('data'),
        code_hash: account === WALLET ? WALLET_CODE_HASH : CONTRACT_CODE_HASH,
      });
    }
  }
  const latest = (account: string, balance: string, code: Buffer, last: { hash: Buffer; lt: string }, data: Buffer | null) => ({
    account,
    hash: hashOf(`state ${account}`),
    balance,
    account_status: 'active',
    timestamp: 1004,
    last_trans_hash: last.hash,
    last_trans_lt: last.lt,
    data_hash: hashOf(`data ${account}`),
    code_hash: code,
    data_boc: data,
    code_boc: beginCell().storeUint(1, 8).endCell().toBoc(),
  });
  await insert(client, 'traces', {
    trace_id: TX1.hash,
    external_hash: EXT.hash,
    external_hash_norm: EXT.norm,
    mc_seqno_start: 1,
    mc_seqno_end: 2,
    start_lt: TX1.lt,
    start_utime: TX1.now,
    end_lt: TX3.lt,
    end_utime: TX3.now,
    state: 'complete',
    pending_edges_: 0,
    edges_: 3,
    nodes_: 3,
  });
  // A trace above the 4 000-transaction cut (its transactions are not written here).
  await insert(client, 'traces', {
    trace_id: BIG_TRACE,
    external_hash: hashOf('big ext'),
    mc_seqno_start: 1,
    mc_seqno_end: 1,
    start_lt: 1000005,
    start_utime: 1000,
    end_lt: 1000009,
    end_utime: 1000,
    state: 'complete',
    pending_edges_: 0,
    edges_: 5000,
    nodes_: 5000,
  });
  await insert(client, 'latest_account_states', latest(WALLET, '4990000000', WALLET_CODE_HASH, TX3, WALLET_DATA.toBoc()));
  // '999' sorts above '4990000000' as text: the order must be numeric.
  await insert(client, 'latest_account_states', latest(CONTRACT, '999', CONTRACT_CODE_HASH, TX2, null));
  await insert(client, 'latest_account_states', latest(RICH, '9000000000000', CONTRACT_CODE_HASH, TX2, null));
}
