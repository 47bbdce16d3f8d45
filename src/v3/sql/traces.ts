import type { V3Database } from '../db';
import type { Paging, SortOrder } from '../params/rules';
import { bytesOf, transactionBundleTextWith, type BundleText, type JsonText } from './bundle';
import { loadedOf, loadBufferedTransactions, TRANSACTION_JSON_COLUMNS, type LoadedTransactions, type LoadOptions } from './transactions';
import { transactionBundle } from './bundle';
import { actionsOfTracesJson } from './actions';
import { matchAny, SqlParams, whereClause } from './builder';

/** A `traces` row. */
export interface TraceRow {
  trace_id: Buffer;
  external_hash: Buffer | null;
  mc_seqno_start: number | null;
  mc_seqno_end: number | null;
  start_lt: string | null;
  start_utime: number | null;
  end_lt: string | null;
  end_utime: number | null;
  state: string | null;
  edges_: string | null;
  nodes_: string | null;
  pending_edges_: string | null;
}

export interface TraceFilter {
  account?: string;
  traceIds?: readonly Buffer[];
  txHashes?: readonly Buffer[];
  msgHashes?: readonly Buffer[];
  mcSeqno?: number;
  startUtime?: number;
  endUtime?: number;
  startLt?: bigint;
  endLt?: bigint;
}

/**
 * buildTracesQuery of crud_traces.go, parameterized: filters on the trace's end (utime or lt),
 * account / transaction / message as EXISTS over their tables, an mc block for complete traces
 * only; ordered by end_utime (with a time filter) or end_lt, then trace_id, desc by default.
 * Bigints as text (the rows travel as JSON, see bundle.ts).
 */
function buildTracesQuery(p: SqlParams, filter: TraceFilter, paging: Paging): string {
  const where: string[] = [];
  const sort: SortOrder = paging.sort ?? 'desc';
  const byTime = filter.startUtime !== undefined || filter.endUtime !== undefined;
  if (filter.startUtime !== undefined) where.push(`E.end_utime >= ${p.bind(filter.startUtime)}`);
  if (filter.endUtime !== undefined) where.push(`E.end_utime <= ${p.bind(filter.endUtime)}`);
  if (filter.startLt !== undefined) where.push(`E.end_lt >= ${p.bind(filter.startLt.toString())}`);
  if (filter.endLt !== undefined) where.push(`E.end_lt <= ${p.bind(filter.endLt.toString())}`);
  if (filter.account !== undefined) {
    where.push(`exists (select 1 from transactions as T where T.trace_id = E.trace_id and T.account = ${p.bind(filter.account)})`);
  }
  if (filter.txHashes && filter.txHashes.length > 0) {
    where.push(`exists (select 1 from transactions as T where T.trace_id = E.trace_id and ${matchAny(p, 'T.hash', filter.txHashes)})`);
  }
  if (filter.msgHashes && filter.msgHashes.length > 0) {
    where.push(
      `exists (select 1 from messages as M where M.trace_id = E.trace_id and (${matchAny(p, 'M.msg_hash', filter.msgHashes)} or ${matchAny(p, 'M.msg_hash_norm', filter.msgHashes)}))`,
    );
  }
  if (filter.traceIds && filter.traceIds.length > 0) where.push(matchAny(p, 'E.trace_id', filter.traceIds));
  if (filter.mcSeqno !== undefined) {
    where.push(`E.state = 'complete'`);
    where.push(`E.mc_seqno_end = ${p.bind(filter.mcSeqno)}`);
  }
  const order = byTime ? `E.end_utime ${sort}, E.trace_id ${sort}` : `E.end_lt ${sort}, E.trace_id ${sort}`;
  return `select E.trace_id, E.external_hash, E.mc_seqno_start, E.mc_seqno_end, E.start_lt::text as start_lt, E.start_utime,
       E.end_lt::text as end_lt, E.end_utime, E.state, E.edges_::text as edges_, E.nodes_::text as nodes_,
       E.pending_edges_::text as pending_edges_
     from traces as E${whereClause(where)} order by ${order}
     limit ${p.bind(paging.limit)} offset ${p.bind(paging.offset)}`;
}

/**
 * A page of traces with the transactions of those with at most `maxTransactions` (by trace, lt, account,
 * as ton-index-go reads them) and their details, one statement (see bundle.ts).
 */
export async function queryTracesWithTransactions(
  db: V3Database,
  filter: TraceFilter,
  paging: Paging,
  options: LoadOptions & { maxTransactions: number },
): Promise<{ traces: TraceRow[]; loaded: LoadedTransactions<string> }> {
  const { p, page, ctes } = tracesPage(filter, paging, options.maxTransactions);
  const bundle = await transactionBundle(db, page, p.values, { addressBook: options.addressBook, ctes, extraColumn: '(select json_agg(E order by E.ord_) from E) as extra' });
  return { traces: traceRowsOf((bundle.extra ?? []) as Record<string, unknown>[]), loaded: loadedOf(bundle) };
}

/** Trace rows of their JSON (PostgreSQL's, parsed), their bytea columns made Buffers (in place). */
export function traceRowsOf(rows: Record<string, unknown>[]): TraceRow[] {
  for (const row of rows) {
    row['trace_id'] = bytesOf(row['trace_id']);
    row['external_hash'] = bytesOf(row['external_hash']);
  }
  return rows as unknown as TraceRow[];
}

/** The page of traces (CTE E) and the transactions of those with at most `max` (the bundle's page). */
function tracesPage(filter: TraceFilter, paging: Paging, maxTransactions: number): { p: SqlParams; page: string; ctes: string } {
  const p = new SqlParams();
  const traces = buildTracesQuery(p, filter, paging);
  const max = p.bind(maxTransactions);
  return {
    p,
    page: `select ${TRANSACTION_JSON_COLUMNS} from transactions as T
       where T.trace_id in (select E.trace_id from E where coalesce(E.nodes_::bigint, 0) <= ${max})
       order by T.trace_id, T.lt, T.account`,
    ctes: `E as materialized (select row_number() over () as ord_, Q.* from (${traces}) as Q)`,
  };
}

/**
 * A page of traces as PostgreSQL's JSON text, for an answer assembled off the event loop
 * (src/v3/answers), in one statement (queryTracesWithTransactions' rows, all columns text):
 * - `text`: the bundle of the transactions of the traces with at most `maxTransactions`;
 * - `traces`: the page's trace rows in its order (bytea as PostgreSQL's JSON text of it, `\x...`);
 * - `actions` (when `actions` is given: include_actions): the traces' actions of those types
 *   (sql/actions.ts's actionsOfTracesJson), those selectActions keeps;
 * - `addresses`: the accounts the transactions name (transactionAddresses' set, each once), the
 *   metadata's input, read on the event loop by its own statements.
 */
export interface TracePageText {
  readonly text: BundleText;
  readonly traces: JsonText;
  readonly actions?: JsonText;
  readonly addresses: JsonText;
}

export async function queryTracesText(
  db: V3Database,
  filter: TraceFilter,
  paging: Paging,
  options: LoadOptions & { maxTransactions: number; actions?: ReadonlySet<string> },
): Promise<TracePageText> {
  const { p, page, ctes } = tracesPage(filter, paging, options.maxTransactions);
  const traces = '(select json_agg(E order by E.ord_) from E)';
  const addresses = `(select json_agg(X.a order by X.a) from (select P.account as a from P union select M.source from M where M.direction = 'in'
       union select M.destination from M where M.direction = 'out') as X where X.a is not null)`;
  const columns: Record<string, string> = { traces, addresses };
  if (options.actions) columns['actions'] = actionsOfTracesJson('E', p.bind([...options.actions]));
  const read = await transactionBundleTextWith(db, page, p.values, { addressBook: options.addressBook, ctes }, columns);
  const out = read.columns;
  return { text: read.text, traces: out['traces'] ?? null, addresses: out['addresses'] ?? null, ...(options.actions ? { actions: out['actions'] ?? null } : {}) };
}

/** The transactions of the traces, by trace, lt, account (as ton-index-go reads them). */
export async function queryTraceTransactions(db: V3Database, traceIds: readonly Buffer[], options: LoadOptions = { addressBook: false }): Promise<LoadedTransactions> {
  if (traceIds.length === 0) return { rows: [], messages: new Map(), states: new Map() };
  return loadBufferedTransactions(
    db,
    `select ${TRANSACTION_JSON_COLUMNS} from transactions as T where T.trace_id = any($1) order by T.trace_id, T.lt, T.account`,
    [traceIds],
    options,
  );
}
