import type { V3Database } from '../db';
import type { MessageRow } from '../models/message';
import type { AccountStateRow, TransactionRow } from '../models/transaction';
import type { Bytes } from '../models/format';
import { MESSAGE_COLUMNS, MESSAGE_CONTENT_JOINS } from './messages';
import { bookDomainOf } from './dns';
import { TRANSACTION_COLUMNS } from './columns';
import { oneLineBase64 } from './builder';

/**
 * A page of transactions with everything its answer shows, in ONE statement: the page, its
 * messages (with bodies), the account states before and after, and the code hash of every account
 * the answer names (for `address_book`). Each PostgreSQL round trip costs the API ~0.3 ms of CPU
 * (the socket write and read, measured with --cpu-prof), more than the rows themselves: four
 * statements per request were most of a request's cost.
 *
 * The statement returns one row of JSON arrays (json_agg), which V8's JSON.parse reads faster than
 * the driver reads the same rows field by field. JSON has no int64 and no bytes: bigint and
 * numeric columns are cast to text (the driver gives them as strings too), and bytea columns come
 * as their base64 text, the answer's own encoding (encode(..., 'base64')), kept as strings
 * (format.ts's Bytes): no Buffer is made for a hash or a body only to be written back as base64.
 * Readers that want Buffers (the streaming API's) get them with bufferedBundle.
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

/** bytea columns of each row kind (base64 text in the JSON, Buffers after bufferedBundle). */
export const TRANSACTION_BYTEA = [
  'hash', 'trace_id', 'prev_trans_hash', 'account_state_hash_before', 'account_state_hash_after',
  'compute_vm_init_state_hash', 'compute_vm_final_state_hash', 'action_action_list_hash',
] as const;
const MESSAGE_BYTEA = [
  'tx_hash', 'msg_hash', 'trace_id', 'body_hash', 'init_state_hash', 'msg_hash_norm', 'body_content_hash', 'body',
  'init_content_hash', 'init_body',
] as const;
const STATE_BYTEA = ['hash', 'frozen_hash', 'data_hash', 'code_hash'] as const;
/** Columns longer than 57 bytes (BoCs), whose base64 PostgreSQL breaks into lines of 76: the breaks are dropped. */
const LONG_BYTEA = new Set(['body', 'init_body']);

/** PostgreSQL's base64 of a bytea column, on one line, as Node's Buffer#toString('base64') writes it. */
export function base64Of(column: string, name: string): string {
  const encoded = `encode(${column}, 'base64')`;
  return LONG_BYTEA.has(name) ? oneLineBase64(column) : encoded;
}

/**
 * A column list (`X.name` or `X.name as alias`) for the JSON: bigint columns `::text`, bytea
 * columns (by their output name) as base64 text; the others as they are.
 */
function jsonColumns(columns: string, int8: ReadonlySet<string>, bytea: ReadonlySet<string> = new Set()): string {
  return columns
    .split(',')
    .map((column) => column.trim())
    .map((column) => {
      const match = /^(\w+\.(\w+))(?: as (\w+))?$/.exec(column);
      if (!match) return column;
      const name = match[3] ?? match[2]!;
      if (int8.has(name)) return `${match[1]}::text as ${name}`;
      if (bytea.has(name)) return `${base64Of(match[1]!, name)} as ${name}`;
      return column;
    })
    .join(', ');
}

/** The transaction columns for a page that feeds transactionBundle (bigints as text, bytea as it is). */
export function transactionJsonColumns(columns: string): string {
  return jsonColumns(columns, TRANSACTION_INT8);
}

/** The page's columns (P, with transactionJsonColumns) as the answer's JSON reads them: bytea as base64. */
function encodedPageColumns(columns: string): string {
  const names = columns.split(',').map((column) => /(\w+)\s*$/.exec(column.trim())![1]!);
  const bytea: ReadonlySet<string> = new Set(TRANSACTION_BYTEA);
  return names.map((name) => (bytea.has(name) ? `${base64Of(`P.${name}`, name)} as ${name}` : `P.${name}`)).join(', ');
}

const PAGE_COLUMNS = encodedPageColumns(TRANSACTION_COLUMNS);
const MESSAGE_JSON_COLUMNS = jsonColumns(MESSAGE_COLUMNS, MESSAGE_INT8, new Set(MESSAGE_BYTEA));
const STATE_JSON_COLUMNS = jsonColumns(
  'S.hash, S.account, S.balance, S.balance_extra_currencies, S.account_status, S.frozen_hash, S.data_hash, S.code_hash',
  new Set(['balance']),
  new Set(STATE_BYTEA),
);

/** PostgreSQL's JSON text of a bytea (`\x0a1b`) back to its bytes; null stays null. */
export function bytesOf(value: unknown): Buffer | null {
  return typeof value === 'string' ? Buffer.from(value.slice(2), 'hex') : null;
}

/** The base64 text of the bytea columns of JSON rows, turned into Buffers in place. */
function base64ToBuffers<Row>(rows: readonly object[], columns: readonly string[]): Row[] {
  for (const row of rows as Record<string, unknown>[]) {
    for (const column of columns) {
      const value = row[column];
      row[column] = typeof value === 'string' ? Buffer.from(value, 'base64') : null;
    }
  }
  return rows as Row[];
}

export interface TransactionBundle<B extends Bytes = string> {
  rows: TransactionRow<B>[];
  messages: MessageRow<B>[];
  states: AccountStateRow<B>[];
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
 * The bundle's statement: one row of JSON arrays (txs, messages, states, and codes when asked).
 * `asText`: those columns cast to text, so the driver hands over PostgreSQL's JSON text as it came
 * (its json type parser is JSON.parse, on the event loop); `extraColumn` is never cast.
 */
function bundleStatement(page: string, options: BundleOptions, asText: boolean): string {
  const cast = asText ? '::text' : '';
  const codes = options.addressBook
    ? `, (select json_agg(A) from (select L.account, L.code_hash, (${bookDomainOf('L.account')}) as domain from latest_account_states as L where L.account in
         (select P.account from P union select M.source from M where M.direction = 'in'
          union select M.destination from M where M.direction = 'out')) as A)${cast} as codes`
    : '';
  const extra = options.extraColumn ? `, ${options.extraColumn}` : '';
  return `with ${options.ctes ? `${options.ctes}, ` : ''}P as materialized (select row_number() over () as ord_, Q.* from (${page}) as Q),
    M as materialized (select P.ord_, ${MESSAGE_JSON_COLUMNS} from P join messages as M on M.tx_hash = P.hash and M.tx_lt = P.lt::bigint
      ${MESSAGE_CONTENT_JOINS})
    select (select json_agg(X order by X.ord_) from (select P.ord_, ${PAGE_COLUMNS} from P) as X)${cast} as txs,
      (select json_agg(M order by M.ord_) from M)${cast} as messages,
      (select json_agg(S) from (select ${STATE_JSON_COLUMNS} from account_states as S where S.hash in
         (select P.account_state_hash_before from P union select P.account_state_hash_after from P)) as S)${cast} as states${codes}${extra}`;
}

export type JsonRows = Record<string, unknown>[] | null;

/** The bundle of the statement's one row, its JSON arrays parsed (by the driver or by bundleOfText). */
function bundleOfRow(row: { txs: JsonRows; messages: JsonRows; states: JsonRows; codes?: JsonRows; extra?: unknown } | undefined, addressBook: boolean): TransactionBundle<string> {
  const bundle: TransactionBundle<string> = {
    rows: (row?.txs ?? []) as unknown as TransactionRow<string>[],
    messages: (row?.messages ?? []) as unknown as MessageRow<string>[],
    states: (row?.states ?? []) as unknown as AccountStateRow<string>[],
    extra: row?.extra,
  };
  if (addressBook) Object.assign(bundle, bookInputsOf(row?.codes ?? null));
  return bundle;
}

/**
 * The address book's inputs of a statement's JSON rows (`account`, `code_hash` as PostgreSQL's
 * JSON text of a bytea, `domain`): each account's code hash and its domain (addressBookOf's maps).
 */
export function bookInputsOf(rows: JsonRows): { codes: Map<string, Buffer | null>; domains: Map<string, string> } {
  return {
    codes: new Map((rows ?? []).map((r) => [r['account'] as string, bytesOf(r['code_hash'])])),
    domains: new Map((rows ?? []).filter((r) => typeof r['domain'] === 'string').map((r) => [r['account'] as string, r['domain'] as string])),
  };
}

/**
 * `page` selects transaction rows with transactionJsonColumns (any filter and order; its bind
 * parameters in `values`); the answer's rows in one statement. The page's order is kept (its row
 * number), messages in the order of their transactions.
 */
export async function transactionBundle(db: V3Database, page: string, values: readonly unknown[], options: BundleOptions): Promise<TransactionBundle<string>> {
  const [row] = await db.query<{ txs: JsonRows; messages: JsonRows; states: JsonRows; codes?: JsonRows; extra?: unknown }>(bundleStatement(page, options, false), values);
  return bundleOfRow(row, options.addressBook);
}

/**
 * The bundle's JSON text as PostgreSQL wrote it (null: no rows), not parsed: what crosses to an
 * answer thread (src/v3/answers), which parses and converts it off the event loop.
 */
export interface BundleText {
  readonly txs: JsonText;
  readonly messages: JsonText;
  readonly states: JsonText;
  /** Present when the address book's code hashes were asked for. */
  readonly codes?: JsonText;
}

/**
 * JSON text as PostgreSQL sent it: its UTF-8 bytes (V3Database.queryTextBytes: never a string on
 * the event loop), or a string (the embedded store); null for SQL NULL.
 */
export type JsonText = string | Uint8Array | null;

/** A JsonText's characters or bytes (what parsing it costs grows with). */
export function jsonTextLength(text: JsonText | undefined): number {
  return text == null ? 0 : typeof text === 'string' ? text.length : text.byteLength;
}

const utf8 = new TextDecoder();

/** A JsonText parsed (JSON.parse, as the driver's json parser does). */
export function parseJsonText<T>(text: JsonText | undefined): T | null {
  return text == null ? null : (JSON.parse(typeof text === 'string' ? text : utf8.decode(text)) as T);
}

/** transactionBundleText's statement over `page` (its one row: BundleTextRow). */
export function transactionBundleTextStatement(page: string, options: Omit<BundleOptions, 'extraColumn'>): string {
  return bundleStatement(page, options, true);
}

/** The one row of transactionBundleTextStatement. */
export type BundleTextRow = { txs: JsonText; messages: JsonText; states: JsonText; codes?: JsonText };

/** The bundle's text of the statement's row (none: no rows). */
export function bundleTextOfRow(row: BundleTextRow | undefined, addressBook: boolean): BundleText {
  const base = { txs: row?.txs ?? null, messages: row?.messages ?? null, states: row?.states ?? null };
  return addressBook ? { ...base, codes: row?.codes ?? null } : base;
}

/** transactionBundle's statement with its JSON columns as text (no extra column). */
export async function transactionBundleText(db: V3Database, page: string, values: readonly unknown[], options: Omit<BundleOptions, 'extraColumn'>): Promise<BundleText> {
  const [row] = (await (db.queryTextBytes ?? db.query).call(db, transactionBundleTextStatement(page, options), values)) as BundleTextRow[];
  return bundleTextOfRow(row, options.addressBook);
}

/**
 * transactionBundleText with more JSON columns, as text too: `columns` names each one's JSON
 * expression (over the bundle's P and M and the caller's CTEs: e.g. the traces of a traces page).
 */
export async function transactionBundleTextWith<K extends string>(
  db: V3Database,
  page: string,
  values: readonly unknown[],
  options: Omit<BundleOptions, 'extraColumn'>,
  columns: Readonly<Record<K, string>>,
): Promise<{ text: BundleText; columns: Record<K, JsonText> }> {
  const names = Object.keys(columns) as K[];
  const extraColumn = names.map((name) => `(${columns[name]})::text as ${name}`).join(', ');
  const [row] = (await (db.queryTextBytes ?? db.query).call(db, bundleStatement(page, { ...options, extraColumn }, true), values)) as Record<string, JsonText>[];
  const base = { txs: row?.['txs'] ?? null, messages: row?.['messages'] ?? null, states: row?.['states'] ?? null };
  const text = options.addressBook ? { ...base, codes: row?.['codes'] ?? null } : base;
  return { text, columns: Object.fromEntries(names.map((name) => [name, row?.[name] ?? null])) as Record<K, JsonText> };
}

/** JSON characters of a bundle's text (what parsing and converting it costs grows with). */
export function bundleTextLength(text: BundleText): number {
  return jsonTextLength(text.txs) + jsonTextLength(text.messages) + jsonTextLength(text.states) + jsonTextLength(text.codes);
}

/** The bundle of its text: the same values the driver's JSON.parse gives transactionBundle. */
export function bundleOfText(text: BundleText): TransactionBundle<string> {
  const parse = (json: JsonText | undefined): JsonRows => parseJsonText<Record<string, unknown>[]>(json);
  return bundleOfRow({ txs: parse(text.txs), messages: parse(text.messages), states: parse(text.states), codes: parse(text.codes) }, text.codes !== undefined);
}

/** The bundle with Buffers for its bytea columns (in place), for readers that want the bytes. */
export function bufferedBundle(bundle: TransactionBundle<string>): TransactionBundle<Buffer> {
  return {
    ...bundle,
    rows: base64ToBuffers<TransactionRow<Buffer>>(bundle.rows, TRANSACTION_BYTEA),
    messages: base64ToBuffers<MessageRow<Buffer>>(bundle.messages, MESSAGE_BYTEA),
    states: base64ToBuffers<AccountStateRow<Buffer>>(bundle.states, STATE_BYTEA),
  };
}
