import type { V3Database } from '../db';
import type { Paging } from '../params/rules';
import { base64Of, parseJsonText, type JsonText } from './bundle';
import { buildMessagesQuery, type MessageFilter } from './messages';

/**
 * GetMessages' page as PostgreSQL's JSON text, for an answer assembled off the event loop
 * (src/v3/answers): the rows queryMessages reads, as one JSON array in their order, each row the
 * values the driver gives (bigints as text, as it reads them) with its bytea columns as base64 text
 * (the answer's encoding, models/format.ts's Bytes); and the accounts the page names, in the order
 * routes/common.ts's messageAddresses lists them (each row's source, then its destination), which
 * the address book and metadata are read for on the event loop (small statements; the list comes
 * as JSON text too: the statement's columns are all text, for V3Database.queryTextBytes).
 */
export interface MessagePageText {
  /** null: no row. */
  readonly rows: JsonText;
  readonly addresses: string[];
}

const BYTEA = ['tx_hash', 'msg_hash', 'trace_id', 'body_hash', 'init_state_hash', 'msg_hash_norm', 'in_msg_tx_hash', 'out_msg_tx_hash', 'body_content_hash', 'body', 'init_content_hash', 'init_body'];
const INT8 = ['tx_lt', 'value', 'fwd_fee', 'ihr_fee', 'extra_flags', 'created_lt', 'created_at', 'import_fee'];
const PLAIN = ['direction', 'source', 'destination', 'value_extra_currencies', 'opcode', 'ihr_disabled', 'bounce', 'bounced'];

const ROW_COLUMNS = [
  'R.ord_',
  ...BYTEA.map((name) => `${base64Of(`R.${name}`, name)} as ${name}`),
  ...INT8.map((name) => `R.${name}::text as ${name}`),
  ...PLAIN.map((name) => `R.${name}`),
].join(', ');

export async function queryMessagesText(db: V3Database, filter: MessageFilter, paging: Paging): Promise<MessagePageText> {
  const { text, values } = buildMessagesQuery(filter, paging);
  const statement = `with R as materialized (select row_number() over () as ord_, Q.* from (${text}) as Q)
    select (select json_agg(J order by J.ord_) from (select ${ROW_COLUMNS} from R) as J)::text as rows,
      (select json_agg(A.address order by A.ord_, A.side)::text from (
         select R.ord_, 1 as side, R.source as address from R where R.source is not null
         union all select R.ord_, 2 as side, R.destination as address from R where R.destination is not null) as A) as addresses`;
  const [row] = (await (db.queryTextBytes ?? db.query).call(db, statement, values)) as { rows: JsonText; addresses: JsonText }[];
  return { rows: row?.rows ?? null, addresses: parseJsonText<string[]>(row?.addresses) ?? [] };
}
