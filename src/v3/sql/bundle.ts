import type { V3Database } from '../db';
import type { MessageRow } from '../models/message';
import type { AccountStateRow, TransactionRow } from '../models/transaction';
import { MESSAGE_COLUMNS, MESSAGE_CONTENT_JOINS } from './messages';
import { bookDomainOf } from './dns';

/**
 * A page of transactions with everything its answer shows, in ONE statement: the page, its
 * messages (with bodies), the account states before and after, and the code hash of every account
 * the answer names (for `address_book`). Each PostgreSQL round trip costs the API ~0.3 ms of CPU
 * (the socket write and read, measured with --cpu-prof), more than the rows themselves: four
 * statements per request were most of a request's cost.
 *
 * The statement returns one row of JSON arrays (json_agg), which V8's JSON.parse reads faster than
 * the driver reads the same rows field by field. JSON has no int64 and no bytes: bigint and
 * numeric columns are cast to text (the driver gives them as strings too), and bytea comes as
 * PostgreSQL's hex text (`\x...`), turned back into Buffers here, so the rows are exactly the rows
 * the separate statements gave.
 */

/** bigint (and numeric) columns of each table: text in the JSON, as the driver reads them. */
const TRANSACTION_INT8 = new Set([
  'lt', 'block_shard', 'prev_trans_lt', 'total_fees', 'storage_fees_collected', 'storage_fees_due',
  'credit_due_fees_collected', 'credit', 'compute_gas_fees', 'compute_gas_used', 'compute_gas_limit',
  'compute_gas_credit', 'compute_vm_steps', 'action_total_fwd_fees', 'action_total_action_fees',
  'action_tot_msg_size_cells', 'action_tot_msg_size_bits', 'bounce_msg_size_cells', 'bounce_msg_size_bits',
  'bounce_req_fwd_fees', 'bounce_msg_fees', 'bounce_fwd_fees',
]);
const MESSAGE_INT8 = new Set(['tx_lt', 'value', 'fwd_fee', 'ihr_fee', 'extra_flags', 'created_lt', 'created_at', 'import_fee']);

/** bytea columns of each row kind (Buffers in the rows). */
export const TRANSACTION_BYTEA = [
  'hash', 'trace_id', 'prev_trans_hash', 'account_state_hash_before', 'account_state_hash_after',
  'compute_vm_init_state_hash', 'compute_vm_final_state_hash', 'action_action_list_hash',
] as const;
const MESSAGE_BYTEA = [
  'tx_hash', 'msg_hash', 'trace_id', 'body_hash', 'init_state_hash', 'msg_hash_norm', 'body_content_hash', 'body',
  'init_content_hash', 'init_body',
] as const;
const STATE_BYTEA = ['hash', 'frozen_hash', 'data_hash', 'code_hash'] as const;

/** `T.lt` -> `T.lt::text as lt` for the bigint columns of a column list (`X.name` or `X.name as alias`). */
function jsonColumns(columns: string, int8: ReadonlySet<string>): string {
  return columns
    .split(',')
    .map((column) => column.trim())
    .map((column) => {
      const match = /^(\w+)\.(\w+)$/.exec(column);
      return match && int8.has(match[2]!) ? `${column}::text as ${match[2]}` : column;
    })
    .join(', ');
}

/** The transaction columns for a page that feeds transactionBundle (bigints as text). */
export function transactionJsonColumns(columns: string): string {
  return jsonColumns(columns, TRANSACTION_INT8);
}

const MESSAGE_JSON_COLUMNS = jsonColumns(MESSAGE_COLUMNS, MESSAGE_INT8);
const STATE_JSON_COLUMNS = `S.hash, S.account, S.balance::text as balance, S.balance_extra_currencies, S.account_status,
  S.frozen_hash, S.data_hash, S.code_hash`;

/** PostgreSQL's JSON text of a bytea (`\x0a1b`) back to its bytes; null stays null. */
export function bytesOf(value: unknown): Buffer | null {
  return typeof value === 'string' ? Buffer.from(value.slice(2), 'hex') : null;
}

function withBuffers<Row>(rows: Record<string, unknown>[] | null, columns: readonly string[]): Row[] {
  if (!rows) return [];
  for (const row of rows) for (const column of columns) row[column] = bytesOf(row[column]);
  return rows as Row[];
}

export interface TransactionBundle {
  rows: TransactionRow[];
  messages: MessageRow[];
  states: AccountStateRow[];
  /** Code hash (null: none) of each account the answer names that the index holds; undefined when not asked. */
  codes?: Map<string, Buffer | null>;
  /** The address book's domain of those accounts that have one (sql/dns.ts's rule), with `codes`. */
  domains?: Map<string, string>;
  /** The extra JSON column the caller added (e.g. the traces of a traces page). */
  extra?: unknown;
}

export interface BundleOptions {
  /** Look up the code hashes for `address_book` in the same statement. */
  addressBook: boolean;
  /** Common table expressions the page reads (`name as (...)`), placed before it. */
  ctes?: string;
  /** One more output column, JSON (e.g. `(select json_agg(E) from E) as extra`). */
  extraColumn?: string;
}

/**
 * `page` selects transaction rows with transactionJsonColumns (any filter and order; its bind
 * parameters in `values`); the answer's rows in one statement. The page's order is kept (its row
 * number), messages in the order of their transactions.
 */
export async function transactionBundle(db: V3Database, page: string, values: readonly unknown[], options: BundleOptions): Promise<TransactionBundle> {
  const codes = options.addressBook
    ? `, (select json_agg(A) from (select L.account, L.code_hash, (${bookDomainOf('L.account')}) as domain from latest_account_states as L where L.account in
         (select P.account from P union select M.source from M where M.direction = 'in'
          union select M.destination from M where M.direction = 'out')) as A) as codes`
    : '';
  const extra = options.extraColumn ? `, ${options.extraColumn}` : '';
  const text = `with ${options.ctes ? `${options.ctes}, ` : ''}P as materialized (select row_number() over () as ord_, Q.* from (${page}) as Q),
    M as materialized (select P.ord_, ${MESSAGE_JSON_COLUMNS} from P join messages as M on M.tx_hash = P.hash and M.tx_lt = P.lt::bigint
      ${MESSAGE_CONTENT_JOINS})
    select (select json_agg(P order by P.ord_) from P) as txs,
      (select json_agg(M order by M.ord_) from M) as messages,
      (select json_agg(S) from (select ${STATE_JSON_COLUMNS} from account_states as S where S.hash in
         (select P.account_state_hash_before from P union select P.account_state_hash_after from P)) as S) as states${codes}${extra}`;
  const [row] = await db.query<{ txs: Record<string, unknown>[] | null; messages: Record<string, unknown>[] | null; states: Record<string, unknown>[] | null; codes?: Record<string, unknown>[] | null; extra?: unknown }>(text, values);
  const bundle: TransactionBundle = {
    rows: withBuffers<TransactionRow>(row?.txs ?? null, TRANSACTION_BYTEA),
    messages: withBuffers<MessageRow>(row?.messages ?? null, MESSAGE_BYTEA),
    states: withBuffers<AccountStateRow>(row?.states ?? null, STATE_BYTEA),
    extra: row?.extra,
  };
  if (options.addressBook) {
    bundle.codes = new Map((row?.codes ?? []).map((r) => [r['account'] as string, bytesOf(r['code_hash'])]));
    bundle.domains = new Map((row?.codes ?? []).filter((r) => typeof r['domain'] === 'string').map((r) => [r['account'] as string, r['domain'] as string]));
  }
  return bundle;
}
