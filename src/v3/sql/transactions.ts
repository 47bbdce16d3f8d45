import type { V3Database } from '../db';
import type { MessageRow } from '../models/message';
import type { AccountStateRow, TransactionRow } from '../models/transaction';
import type { Paging, SortOrder, V3Account } from '../params/rules';
import { bytesKey, type Bytes } from '../models/format';
import { matchAny, SqlParams, whereClause } from './builder';
import { TRANSACTION_COLUMNS } from './columns';
import { bufferedBundle, transactionBundle, transactionBundleText, transactionJsonColumns, type BundleText, type TransactionBundle } from './bundle';

export { TRANSACTION_COLUMNS } from './columns';

/** TRANSACTION_COLUMNS for a page that transactionBundle loads (bigints as text). */
export const TRANSACTION_JSON_COLUMNS = transactionJsonColumns(TRANSACTION_COLUMNS);

export interface TransactionFilter {
  workchain?: number;
  shard?: bigint;
  seqno?: number;
  mcSeqno?: number;
  accounts?: readonly V3Account[];
  excludeAccounts?: readonly V3Account[];
  hashes?: readonly Buffer[];
  lt?: bigint;
  startUtime?: number;
  endUtime?: number;
  startLt?: bigint;
  endLt?: bigint;
  // transactionsByMessage
  direction?: 'in' | 'out';
  msgHashes?: readonly Buffer[];
  bodyHash?: Buffer;
  opcode?: number;
}

/**
 * buildTransactionsQuery of crud_transactions.go, parameterized. The ordering rules are its own,
 * applied in its order (a later rule replaces an earlier one):
 * - default `lt, account asc`; with a time filter `now, lt, account asc`;
 * - an mc block: `lt, account asc`;
 * - one account: `account asc, lt` (with a time filter `account asc, now, lt`);
 * - hashes: `hash`; an exact lt: `lt asc, account <sort>` (ton-index-go writes `T.lt, account <sort>`).
 * A message filter joins messages on (tx_hash, tx_lt); an opcode matches inbound messages only.
 * `exclude_account` is honoured (ton-index-go accepts and ignores it; docs/v3.md).
 */
export function buildTransactionsQuery(filter: TransactionFilter, paging: Paging): { text: string; values: unknown[] } {
  const p = new SqlParams();
  const where: string[] = [];
  const sort: SortOrder = paging.sort ?? 'desc';
  const byTime = filter.startUtime !== undefined || filter.endUtime !== undefined;
  if (filter.startUtime !== undefined) where.push(`T.now >= ${p.bind(filter.startUtime)}`);
  if (filter.endUtime !== undefined) where.push(`T.now <= ${p.bind(filter.endUtime)}`);
  if (filter.startLt !== undefined) where.push(`T.lt >= ${p.bind(filter.startLt.toString())}`);
  if (filter.endLt !== undefined) where.push(`T.lt <= ${p.bind(filter.endLt.toString())}`);
  let orderBy = byTime ? `T.now ${sort}, T.lt ${sort}, T.account asc` : `T.lt ${sort}, T.account asc`;

  if (filter.workchain !== undefined) where.push(`T.block_workchain = ${p.bind(filter.workchain)}`);
  if (filter.shard !== undefined) where.push(`T.block_shard = ${p.bind(filter.shard.toString())}`);
  if (filter.seqno !== undefined) where.push(`T.block_seqno = ${p.bind(filter.seqno)}`);
  if (filter.mcSeqno !== undefined) {
    where.push(`T.mc_block_seqno = ${p.bind(filter.mcSeqno)}`);
    orderBy = `T.lt ${sort}, T.account asc`;
  }
  const accounts = filter.accounts ?? [];
  if (accounts.length > 0) {
    where.push(matchAny(p, 'T.account', accounts.map((a) => a.raw)));
    if (accounts.length === 1) {
      orderBy = byTime ? `T.account asc, T.now ${sort}, T.lt ${sort}` : `T.account asc, T.lt ${sort}`;
    }
  }
  const excluded = filter.excludeAccounts ?? [];
  if (excluded.length > 0) where.push(`not (T.account = any(${p.bind(excluded.map((a) => a.raw))}))`);
  if (filter.hashes && filter.hashes.length > 0) {
    where.push(matchAny(p, 'T.hash', filter.hashes));
    orderBy = `T.hash ${sort}`;
  }
  if (filter.lt !== undefined) {
    where.push(`T.lt = ${p.bind(filter.lt.toString())}`);
    orderBy = `T.lt asc, T.account ${sort}`;
  }

  let byMessage = false;
  if (filter.direction !== undefined) {
    byMessage = true;
    where.push(`M.direction = ${p.bind(filter.direction)}`);
  }
  if (filter.msgHashes && filter.msgHashes.length > 0) {
    byMessage = true;
    where.push(`(${matchAny(p, 'M.msg_hash', filter.msgHashes)} or ${matchAny(p, 'M.msg_hash_norm', filter.msgHashes)})`);
  }
  if (filter.bodyHash) {
    byMessage = true;
    where.push(`M.body_hash = ${p.bind(filter.bodyHash)}`);
  }
  if (filter.opcode !== undefined) {
    byMessage = true;
    where.push(`M.opcode = ${p.bind(filter.opcode)} and M.direction = 'in'`);
  }
  const from = byMessage
    ? 'messages as M join transactions as T on M.tx_hash = T.hash and M.tx_lt = T.lt'
    : 'transactions as T';
  // The page's keys first, then its rows: PostgreSQL computes a select list (here ~70 columns, the
  // bigints cast to text) for every row it sorts or skips, before the limit and the offset drop
  // them. Selected whole, the widest range took 53 ms at 6 000 transactions, 45 of them sorting
  // full rows, growing with the table. The keys (hash, lt: the primary key) are a few bytes a row;
  // only the page's rows are then read whole, in the same order (a message filter's duplicates
  // stay: each key row joins its one transaction).
  const keys =
    `select T.hash, T.lt from ${from}${whereClause(where)} order by ${orderBy}` +
    ` limit ${p.bind(paging.limit)} offset ${p.bind(paging.offset)}`;
  const text =
    `select ${TRANSACTION_JSON_COLUMNS} from (${keys}) as K join transactions as T on T.hash = K.hash and T.lt = K.lt` +
    ` order by ${orderBy}`;
  return { text, values: p.values };
}

/** A page of transactions as the converters read it; `B` how its bytea columns come (models/format.ts's Bytes). */
export interface LoadedTransactions<B extends Bytes = Buffer> {
  rows: TransactionRow<B>[];
  messages: Map<string, MessageRow<B>[]>;
  states: Map<string, AccountStateRow<B>>;
  /** Code hashes of the accounts the page names (the address book's input), when looked up with it. */
  codes?: Map<string, Buffer | null>;
  /** Their address book domains, with `codes`. */
  domains?: Map<string, string>;
}

/** Details of a loading: with the address book's code hashes in the same statement, or not. */
export interface LoadOptions {
  addressBook: boolean;
}

/** The bundle's rows grouped as the answer reads them (messages by transaction, states by hash; keys by bytesKey). */
export function loadedOf<B extends Bytes>(bundle: TransactionBundle<B>): LoadedTransactions<B> {
  const messages = new Map<string, MessageRow<B>[]>();
  const states = new Map<string, AccountStateRow<B>>();
  for (const message of bundle.messages) {
    const key = `${message.tx_hash === null ? 'undefined' : bytesKey(message.tx_hash)}:${message.tx_lt}`;
    const list = messages.get(key);
    if (list) list.push(message);
    else messages.set(key, [message]);
  }
  for (const state of bundle.states) states.set(bytesKey(state.hash), state);
  return { rows: bundle.rows, messages, states, ...(bundle.codes ? { codes: bundle.codes, domains: bundle.domains ?? new Map() } : {}) };
}

/** A page query (selecting transactionJsonColumns) with its details, one statement; bytea as base64 text. */
export async function loadTransactions(db: V3Database, page: string, values: readonly unknown[], options: LoadOptions): Promise<LoadedTransactions<string>> {
  return loadedOf(await transactionBundle(db, page, values, options));
}

/** The same with Buffers (the streaming API's reads). */
export async function loadBufferedTransactions(db: V3Database, page: string, values: readonly unknown[], options: LoadOptions): Promise<LoadedTransactions> {
  return loadedOf(bufferedBundle(await transactionBundle(db, page, values, options)));
}

export function messagesOf<B extends Bytes>(loaded: LoadedTransactions<B>, row: TransactionRow<B>): MessageRow<B>[] {
  return loaded.messages.get(`${bytesKey(row.hash)}:${row.lt}`) ?? [];
}

/** The accounts a page of transactions names (account, in_msg source, out_msgs destinations). */
export function transactionAddresses<B extends Bytes>(loaded: LoadedTransactions<B>): string[] {
  const out: string[] = [];
  for (const row of loaded.rows) {
    out.push(row.account);
    for (const message of messagesOf(loaded, row)) {
      if (message.direction === 'in' && message.source) out.push(message.source);
      if (message.direction === 'out' && message.destination) out.push(message.destination);
    }
  }
  return out;
}

/** GetTransactions' page for an answer: bytea columns as base64 text (the answer's encoding). */
export async function queryTransactionPage(
  db: V3Database,
  filter: TransactionFilter,
  paging: Paging,
  options: LoadOptions = { addressBook: false },
): Promise<LoadedTransactions<string>> {
  const { text, values } = buildTransactionsQuery(filter, paging);
  return loadTransactions(db, text, values, options);
}

/** The same page with Buffers (the streaming API reads hashes as bytes). */
export async function queryTransactions(
  db: V3Database,
  filter: TransactionFilter,
  paging: Paging,
  options: LoadOptions = { addressBook: false },
): Promise<LoadedTransactions> {
  const { text, values } = buildTransactionsQuery(filter, paging);
  return loadBufferedTransactions(db, text, values, options);
}

/** GetTransactions' page as PostgreSQL's JSON text, for an answer assembled off the event loop (src/v3/answers). */
export async function queryTransactionPageText(
  db: V3Database,
  filter: TransactionFilter,
  paging: Paging,
  options: LoadOptions = { addressBook: false },
): Promise<BundleText> {
  const { text, values } = buildTransactionsQuery(filter, paging);
  return transactionBundleText(db, text, values, options);
}

/**
 * adjacentTransactions: the transactions on the other end of the given transaction's messages
 * (an inbound message's sender, outbound messages' receivers), oldest first.
 */
export function buildAdjacentTransactionsQuery(hash: Buffer, direction: 'in' | 'out' | undefined): { text: string; values: unknown[] } {
  const p = new SqlParams();
  let adjacent = `select M2.tx_hash from messages as M1 join messages as M2
    on M1.msg_hash = M2.msg_hash and M1.direction != M2.direction where M1.tx_hash = ${p.bind(hash)}`;
  if (direction !== undefined) adjacent += ` and M1.direction = ${p.bind(direction)}`;
  return { text: `select ${TRANSACTION_JSON_COLUMNS} from transactions as T where T.hash in (${adjacent}) order by T.lt asc`, values: p.values };
}

/** adjacentTransactions' page as PostgreSQL's JSON text (`txs` null: none). */
export async function queryAdjacentTransactionsText(
  db: V3Database,
  hash: Buffer,
  direction: 'in' | 'out' | undefined,
  options: LoadOptions = { addressBook: false },
): Promise<BundleText> {
  const { text, values } = buildAdjacentTransactionsQuery(hash, direction);
  return transactionBundleText(db, text, values, options);
}
