import type { V3Database } from '../db';
import type { Paging, SortOrder } from '../params/rules';
import type { TransactionRow } from '../models/transaction';
import { loadTransactionDetails, TRANSACTION_COLUMNS, type LoadedTransactions } from './transactions';
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
 */
export async function queryTraces(db: V3Database, filter: TraceFilter, paging: Paging): Promise<TraceRow[]> {
  const p = new SqlParams();
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
  return db.query<TraceRow>(
    `select E.trace_id, E.external_hash, E.mc_seqno_start, E.mc_seqno_end, E.start_lt, E.start_utime, E.end_lt, E.end_utime,
       E.state, E.edges_, E.nodes_, E.pending_edges_
     from traces as E${whereClause(where)} order by ${order}
     limit ${p.bind(paging.limit)} offset ${p.bind(paging.offset)}`,
    p.values,
  );
}

/** The transactions of the traces, by trace, lt, account (as ton-index-go reads them). */
export async function queryTraceTransactions(db: V3Database, traceIds: readonly Buffer[]): Promise<LoadedTransactions> {
  if (traceIds.length === 0) return loadTransactionDetails(db, []);
  const rows = await db.query<TransactionRow>(
    `select ${TRANSACTION_COLUMNS} from transactions as T where T.trace_id = any($1) order by T.trace_id, T.lt, T.account`,
    [traceIds],
  );
  return loadTransactionDetails(db, rows);
}
