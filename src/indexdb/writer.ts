import type { ClientBase } from 'pg';
import type { BackfillMark, BlockIdRow, Checkpoint, McBlockRows } from './rows';

/**
 * Writes one masterchain block's rows and the checkpoint in one transaction (the caller's BEGIN /
 * COMMIT): the index is always at a whole masterchain block. Rows go in one statement per table,
 * `insert … select from unnest($1::type[], …)`: one parameter per column, whatever the row count.
 */

/** Column name and the SQL type its array parameter is sent as; `cast` converts an element after unnest. */
type ColumnSpec = readonly [name: string, arrayType: string, cast?: string];

const BLOCK_COLUMNS: readonly ColumnSpec[] = [
  ['workchain', 'int4'], ['shard', 'int8'], ['seqno', 'int4'], ['root_hash', 'bytea'], ['file_hash', 'bytea'],
  ['mc_block_workchain', 'int4'], ['mc_block_shard', 'int8'], ['mc_block_seqno', 'int4'], ['global_id', 'int4'], ['version', 'int4'],
  ['after_merge', 'bool'], ['before_split', 'bool'], ['after_split', 'bool'], ['want_merge', 'bool'], ['want_split', 'bool'],
  ['key_block', 'bool'], ['vert_seqno_incr', 'bool'], ['flags', 'int4'], ['gen_utime', 'int8'], ['start_lt', 'int8'], ['end_lt', 'int8'],
  ['validator_list_hash_short', 'int4'], ['gen_catchain_seqno', 'int4'], ['min_ref_mc_seqno', 'int4'], ['prev_key_block_seqno', 'int4'],
  ['vert_seqno', 'int4'], ['master_ref_seqno', 'int4'], ['rand_seed', 'bytea'], ['created_by', 'bytea'], ['tx_count', 'int4'],
  ['prev_blocks', 'text', 'blockid[]'],
];

const SHARD_STATE_COLUMNS: readonly ColumnSpec[] = [['mc_seqno', 'int4'], ['workchain', 'int4'], ['shard', 'int8'], ['seqno', 'int4']];

const TRANSACTION_COLUMNS: readonly ColumnSpec[] = [
  ['account', 'text'], ['hash', 'bytea'], ['lt', 'int8'], ['block_workchain', 'int4'], ['block_shard', 'int8'], ['block_seqno', 'int4'],
  ['mc_block_seqno', 'int4'], ['trace_id', 'bytea'], ['prev_trans_hash', 'bytea'], ['prev_trans_lt', 'int8'], ['now', 'int4'],
  ['orig_status', 'text', 'account_status_type'], ['end_status', 'text', 'account_status_type'], ['total_fees', 'int8'],
  ['total_fees_extra_currencies', 'text', 'jsonb'], ['account_state_hash_before', 'bytea'], ['account_state_hash_after', 'bytea'],
  ['descr', 'text', 'descr_type'], ['aborted', 'bool'], ['destroyed', 'bool'], ['credit_first', 'bool'], ['is_tock', 'bool'], ['installed', 'bool'],
  ['storage_fees_collected', 'int8'], ['storage_fees_due', 'int8'], ['storage_status_change', 'text', 'status_change_type'],
  ['credit_due_fees_collected', 'int8'], ['credit', 'int8'], ['credit_extra_currencies', 'text', 'jsonb'], ['compute_skipped', 'bool'],
  ['skipped_reason', 'text', 'skipped_reason_type'], ['compute_success', 'bool'], ['compute_msg_state_used', 'bool'],
  ['compute_account_activated', 'bool'], ['compute_gas_fees', 'int8'], ['compute_gas_used', 'int8'], ['compute_gas_limit', 'int8'],
  ['compute_gas_credit', 'int8'], ['compute_mode', 'int2'], ['compute_exit_code', 'int4'], ['compute_exit_arg', 'int4'], ['compute_vm_steps', 'int8'],
  ['compute_vm_init_state_hash', 'bytea'], ['compute_vm_final_state_hash', 'bytea'], ['action_success', 'bool'], ['action_valid', 'bool'],
  ['action_no_funds', 'bool'], ['action_status_change', 'text', 'status_change_type'], ['action_total_fwd_fees', 'int8'],
  ['action_total_action_fees', 'int8'], ['action_result_code', 'int4'], ['action_result_arg', 'int4'], ['action_tot_actions', 'int4'],
  ['action_spec_actions', 'int4'], ['action_skipped_actions', 'int4'], ['action_msgs_created', 'int4'], ['action_action_list_hash', 'bytea'],
  ['action_tot_msg_size_cells', 'int8'], ['action_tot_msg_size_bits', 'int8'], ['bounce', 'text', 'bounce_type'], ['bounce_msg_size_cells', 'int8'],
  ['bounce_msg_size_bits', 'int8'], ['bounce_req_fwd_fees', 'int8'], ['bounce_msg_fees', 'int8'], ['bounce_fwd_fees', 'int8'],
  ['split_info_cur_shard_pfx_len', 'int4'], ['split_info_acc_split_depth', 'int4'], ['split_info_this_addr', 'text'], ['split_info_sibling_addr', 'text'],
];

const MESSAGE_COLUMNS: readonly ColumnSpec[] = [
  ['tx_hash', 'bytea'], ['tx_lt', 'int8'], ['mc_seqno', 'int4'], ['msg_hash', 'bytea'], ['msg_hash_norm', 'bytea'], ['direction', 'text', 'msg_direction'],
  ['trace_id', 'bytea'], ['source', 'text'], ['destination', 'text'], ['value', 'int8'], ['value_extra_currencies', 'text', 'jsonb'], ['fwd_fee', 'int8'],
  ['ihr_fee', 'int8'], ['extra_flags', 'numeric'], ['created_lt', 'int8'], ['created_at', 'int8'], ['opcode', 'int4'], ['ihr_disabled', 'bool'],
  ['bounce', 'bool'], ['bounced', 'bool'], ['import_fee', 'int8'], ['body_hash', 'bytea'], ['init_state_hash', 'bytea'],
];

const MESSAGE_CONTENT_COLUMNS: readonly ColumnSpec[] = [['hash', 'bytea'], ['body', 'bytea']];

const ACCOUNT_STATE_COLUMNS: readonly ColumnSpec[] = [
  ['hash', 'bytea'], ['account', 'text'], ['balance', 'int8'], ['balance_extra_currencies', 'text', 'jsonb'], ['account_status', 'text', 'account_status_type'],
  ['frozen_hash', 'bytea'], ['data_hash', 'bytea'], ['code_hash', 'bytea'],
];

const LATEST_ACCOUNT_STATE_COLUMNS: readonly ColumnSpec[] = [
  ...ACCOUNT_STATE_COLUMNS, ['account_friendly', 'text'], ['timestamp', 'int4'], ['last_trans_hash', 'bytea'], ['last_trans_lt', 'int8'],
  ['data_boc', 'bytea'], ['code_boc', 'bytea'],
];

const TRACE_COLUMNS: readonly ColumnSpec[] = [
  ['trace_id', 'bytea'], ['external_hash', 'bytea'], ['external_hash_norm', 'bytea'], ['mc_seqno_start', 'int4'], ['mc_seqno_end', 'int4'],
  ['start_lt', 'int8'], ['start_utime', 'int4'], ['end_lt', 'int8'], ['end_utime', 'int4'], ['state', 'text', 'trace_state'],
  ['pending_edges_', 'int8'], ['edges_', 'int8'], ['nodes_', 'int8'],
];

const TRACE_EDGE_COLUMNS: readonly ColumnSpec[] = [
  ['trace_id', 'bytea'], ['msg_hash', 'bytea'], ['left_tx', 'bytea'], ['right_tx', 'bytea'], ['incomplete', 'bool'], ['broken', 'bool'],
];

/** `{"(0,-9223372036854775808,5)"}`: a blockid[] literal. */
export function blockIdArrayLiteral(ids: readonly BlockIdRow[]): string {
  return `{${ids.map((id) => `"(${id.workchain},${id.shard},${id.seqno})"`).join(',')}}`;
}

/** One element of an array literal, from a value that is not null. */
type ArrayElement = (value: unknown) => string;

/** int2/int4/int8/numeric/bool: the value's own text (digits, `true`, `false`), unquoted. */
const plainElement: ArrayElement = (value) => String(value);

/** bytea: `\\x<hex>` (the array parser turns `\\` into the `\` of bytea's hex form). */
const byteaElement: ArrayElement = (value) => {
  const bytes = value instanceof Buffer ? value : Buffer.from(value as Uint8Array);
  return `\\\\x${bytes.toString('hex')}`;
};

const NEEDS_ESCAPE = /["\\]/;

/** text (and what is cast from it: enums, jsonb): quoted, `"` and `\` escaped when present. */
const textElement: ArrayElement = (value) => {
  const text = String(value);
  return NEEDS_ESCAPE.test(text) ? `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"` : `"${text}"`;
};

const blockIdsElement: ArrayElement = (value) => textElement(blockIdArrayLiteral(value as BlockIdRow[]));

/** The column types whose values' own text is an array element as it is (no quoting needed). */
const PLAIN_TYPES: ReadonlySet<string> = new Set(['int2', 'int4', 'int8', 'numeric', 'bool']);

function elementOf([name, type]: ColumnSpec): ArrayElement {
  if (name === 'prev_blocks') return blockIdsElement;
  if (type === 'bytea') return byteaElement;
  if (type === 'text') return textElement;
  if (PLAIN_TYPES.has(type)) return plainElement;
  // A new column type must say how its elements are written: unquoted text of another type could
  // carry a comma or a brace into the literal.
  throw new Error(`index writer: no array element form for column ${name} of type ${type}`);
}

/**
 * Column `name` of `rows` as the text of a PostgreSQL array, built here instead of by the driver:
 * node-postgres (and PGlite) quote every element and run two regex replaces on it, whatever its
 * type; a block's statement has ~100 000 elements, and the pipeline's one thread built them
 * (the ingest is bound by that thread's CPU, docs/benchmarks.md "The index").
 */
function arrayLiteral(rows: readonly object[], name: string, element: ArrayElement): string {
  let out = '{';
  for (let i = 0; i < rows.length; i++) {
    const value = (rows[i] as Record<string, unknown>)[name];
    if (i > 0) out += ',';
    out += value === null || value === undefined ? 'NULL' : element(value);
  }
  return `${out}}`;
}

/** One table's `insert … select from unnest(…)`, its parameters numbered from `offset` + 1. */
function insertStatement(table: string, columns: readonly ColumnSpec[], rows: readonly object[], conflict: string, offset: number): { sql: string; params: unknown[] } {
  const names = columns.map(([name]) => name);
  const params = columns.map((column) => arrayLiteral(rows, column[0], elementOf(column)));
  const unnest = columns.map(([, type], i) => `$${offset + i + 1}::${type}[]`).join(', ');
  const select = columns.map(([name, , cast]) => (cast ? `u.${name}::${cast}` : `u.${name}`)).join(', ');
  return { sql: `insert into ${table} (${names.join(', ')}) select ${select} from unnest(${unnest}) as u(${names.join(', ')}) ${conflict}`, params };
}

const LATEST_UPDATE = LATEST_ACCOUNT_STATE_COLUMNS.filter(([name]) => name !== 'account')
  .map(([name]) => `${name} = excluded.${name}`)
  .join(', ');
const TRACE_UPDATE = TRACE_COLUMNS.filter(([name]) => name !== 'trace_id')
  .map(([name]) => `${name} = excluded.${name}`)
  .join(', ');

/** Rows written, by table (metrics). */
export type WrittenRows = Record<'blocks' | 'transactions' | 'messages' | 'account_states' | 'traces', number>;

/** The checkpoint's move with a block's rows: from `previous` (null: the first block) to `next`. */
export interface CheckpointMove {
  readonly previous: Checkpoint | null;
  readonly next: Omit<Checkpoint, 'firstMcSeqno'>;
}

/**
 * Inserts every row of one masterchain block (inside the caller's transaction) and, with `move`,
 * advances the checkpoint (CheckpointMovedError when the stored one is not `move.previous`: the
 * transaction must then be rolled back). One statement: each table's insert is a data-modifying
 * CTE, so the block costs one round trip to the database whatever the number of tables (each
 * round trip waits its turn on a busy event loop: measured ~3-8 ms each while catching up).
 * The tables are independent, so the CTEs not seeing each other's rows changes nothing.
 */
export async function insertMcBlockRows(client: ClientBase, rows: McBlockRows, move?: CheckpointMove): Promise<WrittenRows> {
  const parts: { name: string; sql: string }[] = [];
  const params: unknown[] = [];
  const add = (name: string, table: string, columns: readonly ColumnSpec[], tableRows: readonly object[], conflict = '') => {
    if (tableRows.length === 0) return;
    const statement = insertStatement(table, columns, tableRows, conflict, params.length);
    params.push(...statement.params);
    parts.push({ name, sql: `${statement.sql} returning 1` });
  };
  add('blocks', 'blocks', BLOCK_COLUMNS, rows.blocks);
  add('shard_state', 'shard_state', SHARD_STATE_COLUMNS, rows.shardState);
  add('transactions', 'transactions', TRANSACTION_COLUMNS, rows.transactions);
  add('messages', 'messages', MESSAGE_COLUMNS, rows.messages);
  add('message_contents', 'message_contents', MESSAGE_CONTENT_COLUMNS, dedupe(rows.messageContents), 'on conflict (hash) do nothing');
  add('account_states', 'account_states', ACCOUNT_STATE_COLUMNS, dedupe(rows.accountStates), 'on conflict (hash) do nothing');
  // A newer state only: a replayed older block must never move an account back.
  add(
    'latest_account_states',
    'latest_account_states',
    LATEST_ACCOUNT_STATE_COLUMNS,
    rows.latestAccountStates,
    `on conflict (account) do update set ${LATEST_UPDATE} where latest_account_states.last_trans_lt is null or excluded.last_trans_lt >= latest_account_states.last_trans_lt`,
  );
  add('traces', 'traces', TRACE_COLUMNS, rows.traces, `on conflict (trace_id) do update set ${TRACE_UPDATE}`);
  add(
    'trace_edges',
    'trace_edges',
    TRACE_EDGE_COLUMNS,
    rows.traceEdges,
    'on conflict (trace_id, msg_hash) do update set left_tx = coalesce(excluded.left_tx, trace_edges.left_tx), right_tx = coalesce(excluded.right_tx, trace_edges.right_tx), incomplete = excluded.incomplete, broken = excluded.broken',
  );
  if (move) {
    const { previous, next } = move;
    const at = params.length;
    if (previous) {
      params.push(next.mcSeqno, next.rootHash, next.fileHash, next.genUtime, previous.mcSeqno, previous.rootHash);
      parts.push({
        name: 'checkpoint',
        sql: `update index_checkpoint set mc_seqno = $${at + 1}, root_hash = $${at + 2}, file_hash = $${at + 3}, gen_utime = $${at + 4}, committed_at = now() where id = 1 and mc_seqno = $${at + 5} and root_hash = $${at + 6} returning 1`,
      });
    } else {
      params.push(next.mcSeqno, next.rootHash, next.fileHash, next.genUtime);
      parts.push({
        name: 'checkpoint',
        sql: `insert into index_checkpoint (id, first_mc_seqno, mc_seqno, root_hash, file_hash, gen_utime) values (1, $${at + 1}::int4, $${at + 1}::int4, $${at + 2}, $${at + 3}, $${at + 4}) on conflict (id) do nothing returning 1`,
      });
    }
  }
  const counts = new Map<string, number>();
  if (parts.length > 0) {
    const sql = `with ${parts.map((part) => `${part.name}_ as (${part.sql})`).join(', ')} select ${parts.map((part) => `(select count(*) from ${part.name}_)::int4 as ${part.name}`).join(', ')}`;
    const result = await client.query<Record<string, number>>(sql, params);
    for (const part of parts) counts.set(part.name, Number(result.rows[0]![part.name]));
  }
  if (move && counts.get('checkpoint') !== 1) throw new CheckpointMovedError(move.previous?.mcSeqno ?? null);
  return {
    blocks: counts.get('blocks') ?? 0,
    transactions: counts.get('transactions') ?? 0,
    messages: counts.get('messages') ?? 0,
    account_states: counts.get('account_states') ?? 0,
    traces: counts.get('traces') ?? 0,
  };
}

/** One row per hash (two messages may carry the same body; two accounts never share a state, but a replay could). */
function dedupe<T extends { hash: Buffer }>(rows: readonly T[]): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const row of rows) {
    const key = row.hash.toString('hex');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(row);
  }
  return out;
}

const CHECKPOINT_SELECT = 'select first_mc_seqno, mc_seqno, root_hash, file_hash, gen_utime, backfill_from, backfill_next from index_checkpoint where id = 1';

interface CheckpointRow {
  first_mc_seqno: number;
  mc_seqno: number;
  root_hash: Buffer;
  file_hash: Buffer;
  gen_utime: string;
  backfill_from: number | null;
  backfill_next: number | null;
}

function checkpointOf(row: CheckpointRow | undefined): Checkpoint | null {
  if (!row) return null;
  const backfill = row.backfill_from !== null && row.backfill_next !== null ? { from: row.backfill_from, next: row.backfill_next } : null;
  return { firstMcSeqno: row.first_mc_seqno, mcSeqno: row.mc_seqno, rootHash: row.root_hash, fileHash: row.file_hash, genUtime: Number(row.gen_utime), backfill };
}

/**
 * Records backfilled block `mark.next` (inside the transaction that wrote its rows): the mark moves
 * to the block after it, only from the value the backfill read (CheckpointMovedError otherwise);
 * the block just below first_mc_seqno completes the backfill: first_mc_seqno becomes `mark.from`
 * and the mark is cleared. Returns the new mark, null once complete.
 */
export async function advanceBackfill(client: Pick<ClientBase, 'query'>, mark: BackfillMark): Promise<BackfillMark | null> {
  const { rows } = await client.query<{ backfill_next: number | null }>(
    `update index_checkpoint set
       first_mc_seqno = case when $2 + 1 >= first_mc_seqno then $1 else first_mc_seqno end,
       backfill_from = case when $2 + 1 >= first_mc_seqno then null else $1 end,
       backfill_next = case when $2 + 1 >= first_mc_seqno then null else $2 + 1 end
     where id = 1 and $2 < first_mc_seqno and coalesce(backfill_from, $1) = $1 and coalesce(backfill_next, $1) = $2
     returning backfill_next`,
    [mark.from, mark.next],
  );
  if (rows.length !== 1) throw new CheckpointMovedError(mark.next - 1);
  return rows[0]!.backfill_next === null ? null : { from: mark.from, next: rows[0]!.backfill_next };
}

/** BEGIN and the checkpoint locked for the transaction, in one round trip (one simple query, two statements). */
export async function beginAtCheckpoint(client: Pick<ClientBase, 'query'>): Promise<Checkpoint | null> {
  const results = (await client.query(`begin; ${CHECKPOINT_SELECT} for update`)) as unknown as { rows: CheckpointRow[] }[];
  return checkpointOf(results[1]?.rows[0]);
}

/** The checkpoint, or null before the first block. `forUpdate`: lock it for this transaction. */
export async function readCheckpoint(client: Pick<ClientBase, 'query'>, forUpdate = false): Promise<Checkpoint | null> {
  const { rows } = await client.query<CheckpointRow>(`${CHECKPOINT_SELECT}${forUpdate ? ' for update' : ''}`);
  return checkpointOf(rows[0]);
}

export class CheckpointMovedError extends Error {
  constructor(expected: number | null) {
    super(`the index checkpoint is no longer at ${expected ?? 'the start'}: another writer or a rollback moved it`);
    this.name = 'CheckpointMovedError';
  }
}
