import type { V3Database } from '../db';
import type { Paging, SortOrder } from '../params/rules';
import { bytesOf } from './bundle';
import { loadedOf, loadBufferedTransactions, TRANSACTION_JSON_COLUMNS, type LoadedTransactions, type LoadOptions } from './transactions';
import { transactionBundle } from './bundle';
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
  const p = new SqlParams();
  const traces = buildTracesQuery(p, filter, paging);
  const max = p.bind(options.maxTransactions);
  const bundle = await transactionBundle(
    db,
    `select ${TRANSACTION_JSON_COLUMNS} from transactions as T
       where T.trace_id in (select E.trace_id from E where coalesce(E.nodes_::bigint, 0) <= ${max})
       order by T.trace_id, T.lt, T.account`,
    p.values,
    { addressBook: options.addressBook, ctes: `E as materialized (select row_number() over () as ord_, Q.* from (${traces}) as Q)`, extraColumn: '(select json_agg(E order by E.ord_) from E) as extra' },
  );
  const rows = (bundle.extra ?? []) as Record<string, unknown>[];
  for (const row of rows) {
    row['trace_id'] = bytesOf(row['trace_id']);
    row['external_hash'] = bytesOf(row['external_hash']);
  }
  return { traces: rows as unknown as TraceRow[], loaded: loadedOf(bundle) };
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
