import type { V3Database } from '../db';
import type { MessageRow } from '../models/message';
import type { NullableAccount, Paging, SortOrder } from '../params/rules';
import { matchAny, SqlParams, whereClause } from './builder';

const MESSAGE_FIELDS = `trace_id, source, destination, value, value_extra_currencies, fwd_fee, ihr_fee, extra_flags,
  created_lt, created_at, opcode, ihr_disabled, bounce, bounced, import_fee, body_hash, init_state_hash, msg_hash_norm`;

/** A message row with its body and init state; with MESSAGE_CONTENT_JOINS. */
export const MESSAGE_COLUMNS = `M.tx_hash, M.tx_lt, M.msg_hash, M.direction, ${MESSAGE_FIELDS.replace(/(\w+)/g, 'M.$1')},
  B.hash as body_content_hash, B.body as body, I.hash as init_content_hash, I.body as init_body`;

export const MESSAGE_CONTENT_JOINS = `left join message_contents as B on M.body_hash = B.hash
  left join message_contents as I on M.init_state_hash = I.hash`;

export interface MessageFilter {
  direction?: 'in' | 'out';
  msgHashes?: readonly Buffer[];
  source?: NullableAccount;
  destination?: NullableAccount;
  bodyHash?: Buffer;
  opcode?: number;
  startUtime?: number;
  endUtime?: number;
  startLt?: bigint;
  endLt?: bigint;
  excludeExternals?: boolean;
  onlyExternals?: boolean;
}

/**
 * buildMessagesQuery of crud_messages.go, parameterized: one row per message hash (its in/out
 * copies folded, with the hashes of the transactions on both ends), ordered by created_lt (or
 * created_at when a time filter is given) then msg_hash, both in the requested order (desc by
 * default); `exclude_externals`/`only_externals` test that ordering column for NULL as it does.
 */
export function buildMessagesQuery(filter: MessageFilter, paging: Paging): { text: string; values: unknown[] } {
  const p = new SqlParams();
  const where: string[] = [];
  if (filter.direction !== undefined) where.push(`M.direction = ${p.bind(filter.direction)}`);
  const side = (column: string, value: NullableAccount | undefined) => {
    if (value === undefined) return;
    where.push(value === 'null' ? `${column} is null` : `${column} = ${p.bind(value.raw)}`);
  };
  side('M.source', filter.source);
  side('M.destination', filter.destination);
  if (filter.opcode !== undefined) where.push(`M.opcode = ${p.bind(filter.opcode)}`);
  if (filter.msgHashes && filter.msgHashes.length > 0) {
    where.push(`(${matchAny(p, 'M.msg_hash', filter.msgHashes)} or ${matchAny(p, 'M.msg_hash_norm', filter.msgHashes)})`);
  }
  if (filter.bodyHash) where.push(`M.body_hash = ${p.bind(filter.bodyHash)}`);
  let orderColumn = 'M.created_lt';
  if (filter.startUtime !== undefined) {
    where.push(`M.created_at >= ${p.bind(filter.startUtime)}`);
    orderColumn = 'M.created_at';
  }
  if (filter.endUtime !== undefined) {
    where.push(`M.created_at <= ${p.bind(filter.endUtime)}`);
    orderColumn = 'M.created_at';
  }
  if (filter.startLt !== undefined) where.push(`M.created_lt >= ${p.bind(filter.startLt.toString())}`);
  if (filter.endLt !== undefined) where.push(`M.created_lt <= ${p.bind(filter.endLt.toString())}`);
  if (filter.excludeExternals) where.push(`${orderColumn} is not null`);
  if (filter.onlyExternals) where.push(`${orderColumn} is null`);
  const sort: SortOrder = paging.sort ?? 'desc';
  const fields = MESSAGE_FIELDS.replace(/(\w+)/g, 'M.$1');
  // The page of message hashes first: DISTINCT ON in the index order (messages_index_7/8) stops
  // after offset + limit hashes, where grouping every message of the range before the order and
  // the offset read the whole range (156 ms for the widest one at 12 000 transactions, growing
  // with the table). Then only the page's rows are folded, under the same filter, each hash looked
  // up by its index (`offset 0` keeps the planner from turning the lookups into a scan of the
  // whole range).
  const page =
    `select distinct on (${orderColumn}, M.msg_hash) M.msg_hash from messages as M${whereClause(where)}
     order by ${orderColumn} ${sort}, M.msg_hash ${sort}
     limit ${p.bind(paging.limit)} offset ${p.bind(paging.offset)}`;
  const inner =
    `with H as materialized (${page})
     select M.msg_hash, ${fields},
       (array_agg(M.tx_hash) filter (where M.direction = 'in'))[1] as in_msg_tx_hash,
       (array_agg(M.tx_hash) filter (where M.direction = 'out'))[1] as out_msg_tx_hash
     from H cross join lateral (select M.* from messages as M${whereClause(['M.msg_hash = H.msg_hash', ...where])} offset 0) as M
     group by M.msg_hash, ${fields}`;
  const text = `select null::bytea as tx_hash, null::bigint as tx_lt, null as direction, M.*,
      B.hash as body_content_hash, B.body as body, I.hash as init_content_hash, I.body as init_body
    from (${inner}) as M ${MESSAGE_CONTENT_JOINS}
    order by ${orderColumn.replace('M.', 'M.')} ${sort}, M.msg_hash ${sort}`;
  return { text, values: p.values };
}

/** GetMessages' rows (bytea as Buffers), as the driver reads them. */
export async function queryMessages(db: V3Database, filter: MessageFilter, paging: Paging): Promise<MessageRow[]> {
  const { text, values } = buildMessagesQuery(filter, paging);
  return db.query<MessageRow>(text, values);
}
