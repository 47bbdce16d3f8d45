import type { ActionDetails, ActionJson } from '../../actions';
import type { V3Database } from '../db';
import type { Paging } from '../params/rules';
import { matchAny, SqlParams, whereClause } from './builder';

/** The filters of GetActions, every value bound as a parameter. */
export interface ActionFilter {
  readonly account?: { readonly raw: string };
  readonly txHashes: readonly Buffer[];
  readonly msgHashes: readonly Buffer[];
  readonly traceIds: readonly Buffer[];
  readonly actionIds: readonly Buffer[];
  readonly mcSeqno?: number;
  /** The types the answer may hold (accepted ∩ action_type − exclude_action_type). */
  readonly types: readonly string[];
  readonly startUtime?: number;
  readonly endUtime?: number;
  readonly startLt?: bigint;
  readonly endLt?: bigint;
}

interface ActionRow {
  trace_id: Buffer;
  action_id: Buffer;
  type: string;
  tx_hashes: Buffer[];
  start_lt: string;
  end_lt: string;
  start_utime: number;
  end_utime: number;
  trace_end_lt: string;
  trace_end_utime: number;
  trace_mc_seqno_end: number;
  trace_external_hash: Buffer | null;
  success: boolean;
  accounts: string[];
  details: ActionDetails;
  ancestor_type: string[];
}

function toActionJson(row: ActionRow): ActionJson {
  const action: ActionJson = {
    trace_id: row.trace_id.toString('base64'),
    action_id: row.action_id.toString('base64'),
    start_lt: row.start_lt,
    end_lt: row.end_lt,
    start_utime: row.start_utime,
    end_utime: row.end_utime,
    trace_end_lt: row.trace_end_lt,
    trace_end_utime: row.trace_end_utime,
    trace_mc_seqno_end: row.trace_mc_seqno_end,
    transactions: row.tx_hashes.map((h) => h.toString('base64')),
    success: row.success,
    type: row.type,
    details: row.details,
    accounts: row.accounts,
    finality: 'finalized',
  };
  if (row.trace_external_hash) action.trace_external_hash = row.trace_external_hash.toString('base64');
  if (row.ancestor_type.length > 0) action.ancestor_type = row.ancestor_type;
  return action;
}

/**
 * Actions ordered as crud_actions_v2 orders them: by the trace's end (utime when a time range is
 * given, else lt), the trace, the action's end, the action id; newest first unless `sort=asc`.
 */
export async function queryActions(db: V3Database, filter: ActionFilter, paging: Paging): Promise<ActionJson[]> {
  const params = new SqlParams();
  const where: string[] = [];
  if (filter.types.length === 0) return [];
  const types = params.bind([...filter.types]);
  // A step of an action the client accepts is not shown (crud_actions_v2's ancestor filter).
  where.push(`a.type = any(${types}::text[]) and not (a.ancestor_type && ${types}::text[])`);
  if (filter.account) where.push(`a.accounts @> array[${params.bind(filter.account.raw)}]::text[]`);
  if (filter.txHashes.length > 0) where.push(`a.tx_hashes && ${params.bind([...filter.txHashes])}::bytea[]`);
  if (filter.traceIds.length > 0) where.push(matchAny(params, 'a.trace_id', filter.traceIds));
  if (filter.actionIds.length > 0) where.push(matchAny(params, 'a.action_id', filter.actionIds));
  if (filter.msgHashes.length > 0) {
    where.push(`a.tx_hashes && array(select m.tx_hash from messages m where m.msg_hash = any(${params.bind([...filter.msgHashes])}::bytea[]))`);
  }
  if (filter.mcSeqno !== undefined) {
    where.push(`a.tx_hashes && array(select t.hash from transactions t where t.mc_block_seqno = ${params.bind(filter.mcSeqno)})`);
  }
  if (filter.startUtime !== undefined) where.push(`a.trace_end_utime >= ${params.bind(filter.startUtime)}`);
  if (filter.endUtime !== undefined) where.push(`a.trace_end_utime <= ${params.bind(filter.endUtime)}`);
  if (filter.startLt !== undefined) where.push(`a.trace_end_lt >= ${params.bind(filter.startLt.toString())}`);
  if (filter.endLt !== undefined) where.push(`a.trace_end_lt <= ${params.bind(filter.endLt.toString())}`);
  const order = paging.sort ?? 'desc';
  const byTime = filter.startUtime !== undefined || filter.endUtime !== undefined;
  const keys = byTime ? ['a.trace_end_utime', 'a.trace_id', 'a.end_utime', 'a.action_id'] : ['a.trace_end_lt', 'a.trace_id', 'a.end_lt', 'a.action_id'];
  const text =
    `select a.trace_id, a.action_id, a.type, a.tx_hashes, a.start_lt::text as start_lt, a.end_lt::text as end_lt, a.start_utime, a.end_utime,
            a.trace_end_lt::text as trace_end_lt, a.trace_end_utime, a.trace_mc_seqno_end, a.trace_external_hash, a.success, a.accounts, a.details, a.ancestor_type
       from actions a${whereClause(where)}
      order by ${keys.map((k) => `${k} ${order}`).join(', ')}
      limit ${params.bind(paging.limit)} offset ${params.bind(paging.offset)}`;
  const rows = await db.query<ActionRow>(text, params.values);
  return rows.map(toActionJson);
}

/** The actions of some traces (for `include_actions` on traces), in the traces' own order. */
export async function queryActionsOfTraces(db: V3Database, traceIds: readonly Buffer[], types: readonly string[]): Promise<Map<string, ActionJson[]>> {
  const out = new Map<string, ActionJson[]>();
  if (traceIds.length === 0 || types.length === 0) return out;
  const rows = await db.query<ActionRow>(
    `select a.trace_id, a.action_id, a.type, a.tx_hashes, a.start_lt::text as start_lt, a.end_lt::text as end_lt, a.start_utime, a.end_utime,
            a.trace_end_lt::text as trace_end_lt, a.trace_end_utime, a.trace_mc_seqno_end, a.trace_external_hash, a.success, a.accounts, a.details, a.ancestor_type
       from actions a where a.trace_id = any($1::bytea[]) and a.type = any($2::text[])
      order by a.trace_id, a.start_lt, a.end_lt, a.action_id`,
    [[...traceIds], [...types]],
  );
  for (const row of rows) {
    const key = row.trace_id.toString('base64');
    const list = out.get(key) ?? [];
    list.push(toActionJson(row));
    out.set(key, list);
  }
  return out;
}
