import type { V3Database } from '../db';
import type { MessageRow } from '../models/message';
import type { AccountStateRow, TransactionRow } from '../models/transaction';
import type { Paging, SortOrder, V3Account } from '../params/rules';
import { matchAny, SqlParams, whereClause } from './builder';
import { transactionBundle, transactionJsonColumns, type TransactionBundle } from './bundle';

export const TRANSACTION_COLUMNS = `T.account, T.hash, T.lt, T.block_workchain, T.block_shard, T.block_seqno, T.mc_block_seqno,
  T.trace_id, T.prev_trans_hash, T.prev_trans_lt, T.now, T.orig_status, T.end_status, T.total_fees,
  T.total_fees_extra_currencies, T.account_state_hash_before, T.account_state_hash_after, T.descr, T.aborted,
  T.destroyed, T.credit_first, T.is_tock, T.installed, T.storage_fees_collected, T.storage_fees_due,
  T.storage_status_change, T.credit_due_fees_collected, T.credit, T.credit_extra_currencies, T.compute_skipped,
  T.skipped_reason, T.compute_success, T.compute_msg_state_used, T.compute_account_activated, T.compute_gas_fees,
  T.compute_gas_used, T.compute_gas_limit, T.compute_gas_credit, T.compute_mode, T.compute_exit_code,
  T.compute_exit_arg, T.compute_vm_steps, T.compute_vm_init_state_hash, T.compute_vm_final_state_hash,
  T.action_success, T.action_valid, T.action_no_funds, T.action_status_change, T.action_total_fwd_fees,
  T.action_total_action_fees, T.action_result_code, T.action_result_arg, T.action_tot_actions,
  T.action_spec_actions, T.action_skipped_actions, T.action_msgs_created, T.action_action_list_hash,
  T.action_tot_msg_size_cells, T.action_tot_msg_size_bits, T.bounce, T.bounce_msg_size_cells,
  T.bounce_msg_size_bits, T.bounce_req_fwd_fees, T.bounce_msg_fees, T.bounce_fwd_fees,
  T.split_info_cur_shard_pfx_len, T.split_info_acc_split_depth, T.split_info_this_addr, T.split_info_sibling_addr`;

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

export interface LoadedTransactions {
  rows: TransactionRow[];
  messages: Map<string, MessageRow[]>;
  states: Map<string, AccountStateRow>;
  /** Code hashes of the accounts the page names (the address book's input), when looked up with it. */
  codes?: Map<string, Buffer | null>;
  /** Their address book domains, with `codes`. */
  domains?: Map<string, string>;
}

/** Details of a loading: with the address book's code hashes in the same statement, or not. */
export interface LoadOptions {
  addressBook: boolean;
}

/** The bundle's rows grouped as the answer reads them (messages by transaction, states by hash). */
export function loadedOf(bundle: TransactionBundle): LoadedTransactions {
  const messages = new Map<string, MessageRow[]>();
  const states = new Map<string, AccountStateRow>();
  for (const message of bundle.messages) {
    const key = `${message.tx_hash?.toString('hex')}:${message.tx_lt}`;
    const list = messages.get(key);
    if (list) list.push(message);
    else messages.set(key, [message]);
  }
  for (const state of bundle.states) states.set(state.hash.toString('hex'), state);
  return { rows: bundle.rows, messages, states, ...(bundle.codes ? { codes: bundle.codes, domains: bundle.domains ?? new Map() } : {}) };
}

/** A page query (selecting transactionJsonColumns) with its details, one statement. */
export async function loadTransactions(db: V3Database, page: string, values: readonly unknown[], options: LoadOptions): Promise<LoadedTransactions> {
  return loadedOf(await transactionBundle(db, page, values, options));
}

export function messagesOf(loaded: LoadedTransactions, row: TransactionRow): MessageRow[] {
  return loaded.messages.get(`${row.hash.toString('hex')}:${row.lt}`) ?? [];
}

export async function queryTransactions(
  db: V3Database,
  filter: TransactionFilter,
  paging: Paging,
  options: LoadOptions = { addressBook: false },
): Promise<LoadedTransactions> {
  const { text, values } = buildTransactionsQuery(filter, paging);
  return loadTransactions(db, text, values, options);
}

/**
 * adjacentTransactions: the transactions on the other end of the given transaction's messages
 * (an inbound message's sender, outbound messages' receivers), oldest first.
 */
export async function queryAdjacentTransactions(
  db: V3Database,
  hash: Buffer,
  direction: 'in' | 'out' | undefined,
  options: LoadOptions = { addressBook: false },
): Promise<LoadedTransactions> {
  const p = new SqlParams();
  let adjacent = `select M2.tx_hash from messages as M1 join messages as M2
    on M1.msg_hash = M2.msg_hash and M1.direction != M2.direction where M1.tx_hash = ${p.bind(hash)}`;
  if (direction !== undefined) adjacent += ` and M1.direction = ${p.bind(direction)}`;
  return loadTransactions(db, `select ${TRANSACTION_JSON_COLUMNS} from transactions as T where T.hash in (${adjacent}) order by T.lt asc`, p.values, options);
}
