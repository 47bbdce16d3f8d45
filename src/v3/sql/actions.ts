import type { ActionJson } from '../../actions';
import type { V3Database } from '../db';
import { toActionJson, type ActionRow } from '../models/action';
import type { Paging } from '../params/rules';
import { matchAny, SqlParams, whereClause } from './builder';
import type { JsonText } from './bundle';
import { bookDomainOf } from './dns';

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

const ACTION_COLUMNS = `a.trace_id, a.action_id, a.type, a.tx_hashes, a.start_lt::text as start_lt, a.end_lt::text as end_lt, a.start_utime, a.end_utime,
            a.trace_end_lt::text as trace_end_lt, a.trace_end_utime, a.trace_mc_seqno_end, a.trace_external_hash, a.success, a.accounts, a.details, a.ancestor_type`;

/**
 * GetActions' page: actions ordered as crud_actions_v2 orders them: by the trace's end (utime when
 * a time range is given, else lt), the trace, the action's end, the action id; newest first unless
 * `sort=asc`. `params` holds its bind parameters (a caller may bind more after them).
 */
function buildActionsQuery(params: SqlParams, filter: ActionFilter, paging: Paging): string {
  const where: string[] = [];
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
  const keys = byTime ? ['trace_end_utime', 'trace_id', 'end_utime', 'action_id'] : ['trace_end_lt', 'trace_id', 'end_lt', 'action_id'];
  const orderBy = (alias: string) => keys.map((k) => `${alias}.${k} ${order}`).join(', ');
  // The page's keys are chosen and sorted first, its rows read after: sorting whole rows (their
  // details, accounts and hashes) to skip `offset` of them spilled to disk on a busy account's deep
  // page (11 000 rows at offset 10 000; docs/benchmarks.md, "Actions pages").
  return `select ${ACTION_COLUMNS}
       from (select ${keys.map((k) => `a.${k}`).join(', ')} from actions a${whereClause(where)}
              order by ${orderBy('a')}
              limit ${params.bind(paging.limit)} offset ${params.bind(paging.offset)}) as K
       join actions a on a.trace_id = K.trace_id and a.action_id = K.action_id
      order by ${orderBy('K')}`;
}

/** GetActions' page as the driver reads it (the rows' objects on the event loop). */
export async function queryActions(db: V3Database, filter: ActionFilter, paging: Paging): Promise<ActionJson[]> {
  if (filter.types.length === 0) return [];
  const params = new SqlParams();
  const text = buildActionsQuery(params, filter, paging);
  const rows = await db.query<ActionRow>(text, params.values);
  return rows.map(toActionJson);
}

/**
 * The JSON columns of an action row (`A`: a relation with the actions table's columns, bigints
 * already text): bytea as base64 text (models/format.ts's Bytes), `tx_hashes` as a list of them in
 * their order; `ancestor_type` left out (never printed; the statements select by it).
 */
function actionJsonColumns(A: string): string {
  // Every bytea here is a 32-byte hash (the action id too: a SHA-256), which encode() writes on one
  // line (it breaks lines only past 57 bytes), so no line break is dropped (builder.ts's oneLineBase64).
  const base64 = (column: string) => `encode(${column}, 'base64')`;
  return `${base64(`${A}.trace_id`)} as trace_id, ${base64(`${A}.action_id`)} as action_id, ${A}.type,
    coalesce((select array_agg(${base64('H.h')} order by H.o) from unnest(${A}.tx_hashes) with ordinality as H(h, o)), '{}'::text[]) as tx_hashes,
    ${A}.start_lt, ${A}.end_lt, ${A}.start_utime, ${A}.end_utime, ${A}.trace_end_lt, ${A}.trace_end_utime, ${A}.trace_mc_seqno_end,
    ${base64(`${A}.trace_external_hash`)} as trace_external_hash, ${A}.success, ${A}.accounts, ${A}.details`;
}

/**
 * A GetActions page as PostgreSQL's JSON text, for an answer assembled off the event loop
 * (src/v3/answers), in one statement (all columns text, for V3Database.queryTextBytes):
 * - `rows`: the page's actions in its order, those selectActions keeps for `accepted` (a step of an
 *   accepted typed action is dropped AFTER the page's limit, as the route always did: the page may
 *   hold fewer than `limit`), as action rows (actionJsonColumns); null: none.
 * - `accounts`: the accounts those actions name, each once, in their first appearance's order (the
 *   metadata's input, read on the event loop by its own statements).
 * - `codes` (when `addressBook`): those accounts' code hashes and address book domains (as
 *   sql/bundle.ts reads them for a page of transactions), for the address book the thread writes.
 */
export interface ActionPageText {
  readonly rows: JsonText;
  readonly accounts: JsonText;
  readonly codes?: JsonText;
}

export async function queryActionsText(
  db: V3Database,
  filter: ActionFilter,
  paging: Paging,
  options: { accepted: ReadonlySet<string>; addressBook: boolean },
): Promise<ActionPageText> {
  const none = { rows: null, accounts: null, ...(options.addressBook ? { codes: null } : {}) };
  if (filter.types.length === 0) return none;
  const params = new SqlParams();
  const page = buildActionsQuery(params, filter, paging);
  const accepted = params.bind([...options.accepted]);
  const codes = options.addressBook
    ? `, (select json_agg(C)::text from (select L.account, L.code_hash, (${bookDomainOf('L.account')}) as domain from latest_account_states as L
         where L.account in (select U.account from R cross join lateral unnest(R.accounts) as U(account))) as C) as codes`
    : '';
  const statement = `with R as materialized (select row_number() over () as ord_, Q.* from (${page}) as Q where not (Q.ancestor_type && ${accepted}::text[]))
    select (select json_agg(J order by J.ord_) from (select R.ord_, ${actionJsonColumns('R')} from R) as J)::text as rows,
      (select json_agg(U.account order by U.first_)::text from (select A.account, min(array[R.ord_, A.o]) as first_
         from R cross join lateral unnest(R.accounts) with ordinality as A(account, o) group by A.account) as U) as accounts${codes}`;
  const [row] = (await (db.queryTextBytes ?? db.query).call(db, statement, params.values)) as { rows: JsonText; accounts: JsonText; codes?: JsonText }[];
  if (!row) return none;
  return { rows: row.rows, accounts: row.accounts, ...(options.addressBook ? { codes: row.codes ?? null } : {}) };
}

/**
 * The actions of the traces of `E` (a relation with their `trace_id`) of the accepted types as one
 * JSON array (action rows, actionJsonColumns), by trace, start lt, end lt, action id (as
 * queryActionsOfTraces reads them), those selectActions keeps: a JSON expression for a statement
 * read as text (sql/traces.ts's text read). `accepted`: its bind parameter (text[]).
 */
export function actionsOfTracesJson(E: string, accepted: string): string {
  return `(select json_agg(J order by J.ord_) from (select X.ord_, ${actionJsonColumns('X')} from (
       select row_number() over (order by a.trace_id, a.start_lt, a.end_lt, a.action_id) as ord_, ${ACTION_COLUMNS} from actions a
       where a.trace_id in (select ${E}.trace_id from ${E}) and a.type = any(${accepted}::text[]) and not (a.ancestor_type && ${accepted}::text[])) as X) as J)`;
}

/** The actions of some traces (for `include_actions` on traces), in the traces' own order. */
export async function queryActionsOfTraces(db: V3Database, traceIds: readonly Buffer[], types: readonly string[]): Promise<Map<string, ActionJson[]>> {
  const out = new Map<string, ActionJson[]>();
  if (traceIds.length === 0 || types.length === 0) return out;
  const rows = await db.query<ActionRow>(
    `select ${ACTION_COLUMNS}
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
