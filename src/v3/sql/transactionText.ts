import type { V3Database } from '../db';
import { MESSAGE_CONTENT_JOINS } from './messages';
import { bookDomainOf } from './dns';
import { bytesOf } from './bundle';

/**
 * A page of transactions as the answer's JSON text, written by PostgreSQL: each transaction as
 * models/transaction.ts's toTransactionJson writes it (its messages as models/message.ts's
 * toMessageJson, its states as toAccountStateJson), joined with commas in the page's order.
 *
 * Why: a page of 1 000 transactions with their messages is ~2.8 MB of JSON. Read as JSON rows
 * (sql/bundle.ts) the API parsed PostgreSQL's JSON, built the answer's objects and wrote them again
 * with JSON.stringify: most of a page's CPU on the API's one thread. Here the API receives the text
 * and writes it with the envelope around it; the work moves to PostgreSQL (a process of its own,
 * on another core), which built JSON rows from the same columns before.
 *
 * The encodings are the converters': 64-bit numbers as strings, hashes and BoCs base64 (on one
 * line), shards upper-case hex of the unsigned value, opcodes `0x%08x`, Go's `omitempty` (a key
 * absent when its column is NULL) where toTransactionJson drops undefined. The one difference in
 * the text is whitespace inside jsonb values (extra currencies: `{"1": "5"}` where JSON.stringify
 * writes `{"1":"5"}`): the same JSON. test/v3/transactionText.test.ts compares the two paths.
 * The converters stay what the streaming API and the traces route use.
 */

/** A JSON string of a text expression (escaped by to_json), or null. */
const str = (expr: string) => `coalesce(to_json((${expr})::text)::text, 'null')`;
/** A JSON string of text that needs no escaping (digits, base64, enum labels), or null. */
const plain = (expr: string) => `coalesce('"' || (${expr})::text || '"', 'null')`;
/** A number or boolean (or jsonb) as its own text, or null. */
const raw = (expr: string) => `coalesce((${expr})::text, 'null')`;
/** A bytea column as base64 (one line) in a JSON string, or null. */
const b64 = (expr: string, long = false) =>
  long ? `coalesce('"' || translate(encode(${expr}, 'base64'), E'\\n', '') || '"', 'null')` : `coalesce('"' || encode(${expr}, 'base64') || '"', 'null')`;

/** `"key":value` always present (the first key of an object has no comma). */
const key = (name: string, value: string, first = false) => `'${first ? '' : ','}"${name}":' || ${value}`;
/** `,"key":value` present when `test` (omitempty): NULL otherwise, which concat() skips. */
const optional = (name: string, test: string, value: string) => `case when ${test} then ',"${name}":' || ${value} end`;
/** An optional key whose value is the column itself (omitted when it is NULL). */
const opt = (name: string, column: string, value: (expr: string) => string) => optional(name, `${column} is not null`, value(column));

/** An object of keys each written with a leading comma (all may be absent): the first comma dropped. */
const object = (fields: readonly string[]) => `'{' || substr(concat(${fields.join(', ')}), 2) || '}'`;

/** models.MessageContent of a cell hash and its BoC (null without the hash). */
const content = (hash: string, boc: string) =>
  `case when ${hash} is null then 'null' else '{"hash":' || ${b64(hash)} || ',"body":' || ${b64(boc, true)} || ',"decoded":null}' end`;

/** toMessageJson of a message row M (with MESSAGE_CONTENT_JOINS' B and I). */
const MESSAGE_JSON = `concat('{', ${[
  key('hash', b64('M.msg_hash'), true),
  key('source', str('M.source')),
  key('destination', str('M.destination')),
  key('value', plain('M.value')),
  key('value_extra_currencies', raw('M.value_extra_currencies')),
  key('fwd_fee', plain('M.fwd_fee')),
  key('ihr_fee', plain('M.ihr_fee')),
  key('extra_flags', plain('M.extra_flags')),
  key('created_lt', plain('M.created_lt')),
  key('created_at', plain('M.created_at')),
  key('opcode', `coalesce('"0x' || lpad(to_hex(M.opcode), 8, '0') || '"', 'null')`),
  key('decoded_opcode', `'null'`),
  key('ihr_disabled', raw('M.ihr_disabled')),
  key('bounce', raw('M.bounce')),
  key('bounced', raw('M.bounced')),
  key('import_fee', plain('M.import_fee')),
  key('message_content', content('B.hash', 'B.body')),
  key('init_state', content('I.hash', 'I.body')),
  opt('hash_norm', 'M.msg_hash_norm', (c) => b64(c)),
].join(', ')}, '}')`;

/** toAccountStateJson of the state hash `hash` and its row S (left-joined: NULL when not stored). */
const stateJson = (hash: string, s: string) =>
  `concat('{', ${[
    key('hash', `coalesce('"' || encode(${hash}, 'base64') || '"', '""')`, true),
    key('balance', plain(`${s}.balance`)),
    key('extra_currencies', raw(`${s}.balance_extra_currencies`)),
    key('account_status', plain(`${s}.account_status`)),
    key('frozen_hash', b64(`${s}.frozen_hash`)),
    key('data_hash', b64(`${s}.data_hash`)),
    key('code_hash', b64(`${s}.code_hash`)),
  ].join(', ')}, '}')`;

/**
 * description() of models/transaction.ts over the page's row P (bigints as text). The gas fees and
 * gas used swapped back when fees < used (ton-index-go's rule for old toncenter rows).
 */
const swapped = `P.compute_gas_fees is not null and P.compute_gas_used is not null and P.compute_gas_fees::numeric < P.compute_gas_used::numeric`;
const DESCRIPTION_JSON = `concat('{', ${[
  key('type', `'"' || coalesce(P.descr::text, '') || '"'`, true),
  opt('aborted', 'P.aborted', raw),
  opt('destroyed', 'P.destroyed', raw),
  opt('credit_first', 'P.credit_first', raw),
  opt('is_tock', 'P.is_tock', raw),
  opt('installed', 'P.installed', raw),
  optional(
    'storage_ph',
    'P.storage_status_change is not null',
    object([
      opt('storage_fees_collected', 'P.storage_fees_collected', plain),
      opt('storage_fees_due', 'P.storage_fees_due', plain),
      key('status_change', plain('P.storage_status_change')),
    ]),
  ),
  optional(
    'credit_ph',
    'P.credit_due_fees_collected is not null or P.credit is not null or P.credit_extra_currencies is not null',
    object([
      opt('due_fees_collected', 'P.credit_due_fees_collected', plain),
      opt('credit', 'P.credit', plain),
      opt('credit_extra_currencies', 'P.credit_extra_currencies', raw),
    ]),
  ),
  optional(
    'compute_ph',
    'P.compute_skipped is not null',
    `concat('{', ${[
      key('skipped', raw('P.compute_skipped'), true),
      opt('reason', 'P.skipped_reason', plain),
      opt('success', 'P.compute_success', raw),
      opt('msg_state_used', 'P.compute_msg_state_used', raw),
      opt('account_activated', 'P.compute_account_activated', raw),
      optional('gas_fees', 'P.compute_gas_fees is not null', plain(`case when ${swapped} then P.compute_gas_used else P.compute_gas_fees end`)),
      optional('gas_used', 'P.compute_gas_used is not null', plain(`case when ${swapped} then P.compute_gas_fees else P.compute_gas_used end`)),
      opt('gas_limit', 'P.compute_gas_limit', plain),
      opt('gas_credit', 'P.compute_gas_credit', plain),
      opt('mode', 'P.compute_mode', raw),
      opt('exit_code', 'P.compute_exit_code', raw),
      opt('exit_arg', 'P.compute_exit_arg', raw),
      opt('vm_steps', 'P.compute_vm_steps', raw),
      opt('vm_init_state_hash', 'P.compute_vm_init_state_hash', (c) => b64(c)),
      opt('vm_final_state_hash', 'P.compute_vm_final_state_hash', (c) => b64(c)),
    ].join(', ')}, '}')`,
  ),
  optional(
    'action',
    'P.action_success is not null',
    `concat('{', ${[
      key('success', raw('P.action_success'), true),
      opt('valid', 'P.action_valid', raw),
      opt('no_funds', 'P.action_no_funds', raw),
      opt('status_change', 'P.action_status_change', plain),
      opt('total_fwd_fees', 'P.action_total_fwd_fees', plain),
      opt('total_action_fees', 'P.action_total_action_fees', plain),
      opt('result_code', 'P.action_result_code', raw),
      opt('result_arg', 'P.action_result_arg', raw),
      opt('tot_actions', 'P.action_tot_actions', raw),
      opt('spec_actions', 'P.action_spec_actions', raw),
      opt('skipped_actions', 'P.action_skipped_actions', raw),
      opt('msgs_created', 'P.action_msgs_created', raw),
      opt('action_list_hash', 'P.action_action_list_hash', (c) => b64(c)),
      optional(
        'tot_msg_size',
        'P.action_tot_msg_size_cells is not null',
        `'{"cells":' || ${plain('P.action_tot_msg_size_cells')} || ',"bits":' || ${plain('P.action_tot_msg_size_bits')} || '}'`,
      ),
    ].join(', ')}, '}')`,
  ),
  optional(
    'bounce',
    'P.bounce is not null',
    `concat('{', ${[
      key('type', plain('P.bounce'), true),
      optional(
        'msg_size',
        'P.bounce_msg_size_cells is not null',
        `'{"cells":' || ${plain('P.bounce_msg_size_cells')} || ',"bits":' || ${plain('P.bounce_msg_size_bits')} || '}'`,
      ),
      opt('req_fwd_fees', 'P.bounce_req_fwd_fees', plain),
      opt('msg_fees', 'P.bounce_msg_fees', plain),
      opt('fwd_fees', 'P.bounce_fwd_fees', plain),
    ].join(', ')}, '}')`,
  ),
  optional(
    'split_info',
    'P.split_info_cur_shard_pfx_len is not null',
    `concat('{', ${[
      key('cur_shard_pfx_len', raw('P.split_info_cur_shard_pfx_len'), true),
      opt('acc_split_depth', 'P.split_info_acc_split_depth', raw),
      opt('this_addr', 'P.split_info_this_addr', str),
      opt('sibling_addr', 'P.split_info_sibling_addr', str),
    ].join(', ')}, '}')`,
  ),
].join(', ')}, '}')`;

/**
 * toTransactionJson of the page's row P, with MA (its in message's JSON `in_json`, its out
 * messages' `out_json` joined in created_lt order) and its states SB, SA.
 */
const TRANSACTION_JSON = `concat('{', ${[
  key('account', str('P.account'), true),
  key('hash', b64('P.hash')),
  key('lt', plain('P.lt')),
  key('now', 'coalesce(P.now, 0)::text'),
  key('mc_block_seqno', 'coalesce(P.mc_block_seqno, 0)::text'),
  opt('trace_id', 'P.trace_id', (c) => b64(c)),
  key('prev_trans_hash', `coalesce('"' || encode(P.prev_trans_hash, 'base64') || '"', '""')`),
  key('prev_trans_lt', `'"' || coalesce(P.prev_trans_lt, '0') || '"'`),
  key('orig_status', `'"' || coalesce(P.orig_status::text, '') || '"'`),
  key('end_status', `'"' || coalesce(P.end_status::text, '') || '"'`),
  key('total_fees', `'"' || coalesce(P.total_fees, '0') || '"'`),
  key('total_fees_extra_currencies', raw('P.total_fees_extra_currencies')),
  key('description', DESCRIPTION_JSON),
  key(
    'block_ref',
    `'{"workchain":' || ${raw('P.block_workchain')} || ',"shard":' || ${plain('upper(to_hex(P.block_shard::bigint))')} || ',"seqno":' || ${raw('P.block_seqno')} || '}'`,
  ),
  key('in_msg', `coalesce(MA.in_json, 'null')`),
  key('out_msgs', `'[' || coalesce(MA.out_json, '') || ']'`),
  key('account_state_before', stateJson('P.account_state_hash_before', 'SB')),
  key('account_state_after', stateJson('P.account_state_hash_after', 'SA')),
  `',"emulated":false,"finality":"finalized"'`,
].join(', ')}, '}')`;

/** What the address book of the page needs: the accounts it names, first seen first, and their code. */
export interface PageAccount {
  account: string;
  /** Whether the index holds the account (latest_account_states); its code hash then (PostgreSQL's `\x` hex or null). */
  known: boolean;
  code_hash: string | null;
  domain: string | null;
}

export interface TransactionPageText {
  /** The page's transactions as JSON, joined with commas (empty for none). */
  text: string;
  count: number;
  /** With the address book: the accounts the page names (transactionAddresses' order) and their code. */
  accounts?: { account: string; code: Buffer | null | undefined; domain: string | null }[];
}

/**
 * `page` selects transaction rows with TRANSACTION_JSON_COLUMNS (bigints as text) in its order,
 * its bind parameters in `values`; the page's JSON text in one statement.
 */
export async function transactionPageText(db: V3Database, page: string, values: readonly unknown[], options: { addressBook: boolean }): Promise<TransactionPageText> {
  // The accounts of transactionAddresses: the account, its in message's source, its out messages'
  // destinations, each at the first place it is named.
  const accounts = options.addressBook
    ? `, (select json_agg(json_build_object('account', A.account, 'known', L.account is not null, 'code_hash', L.code_hash,
           'domain', case when L.account is not null then (${bookDomainOf('L.account')}) end) order by A.first_)
         from (select N.account, min(N.at_) as first_ from
           (select P.account, P.ord_ * 3 as at_ from P
            union all select M.source, M.ord_ * 3 + 1 from M where M.direction = 'in' and M.source <> ''
            union all select M.destination, M.ord_ * 3 + 2 from M where M.direction = 'out' and M.destination <> '') as N
           group by N.account) as A
         left join latest_account_states as L on L.account = A.account) as accounts`
    : '';
  const text = `with P as materialized (select row_number() over () as ord_, Q.* from (${page}) as Q),
    M as materialized (select P.ord_, M.direction, M.source, M.destination, M.created_lt, ${MESSAGE_JSON} as json_
      from P join messages as M on M.tx_hash = P.hash and M.tx_lt = P.lt::bigint ${MESSAGE_CONTENT_JOINS}),
    MA as (select M.ord_, (array_agg(M.json_) filter (where M.direction = 'in'))[1] as in_json,
        string_agg(M.json_, ',' order by M.created_lt nulls first) filter (where M.direction = 'out') as out_json
      from M group by M.ord_)
    select (select string_agg(X.json_, ',' order by X.ord_) from
        (select P.ord_, ${TRANSACTION_JSON} as json_ from P left join MA on MA.ord_ = P.ord_
           left join account_states as SB on SB.hash = P.account_state_hash_before
           left join account_states as SA on SA.hash = P.account_state_hash_after) as X) as text,
      (select count(*) from P)::int as count${accounts}`;
  const [row] = await db.query<{ text: string | null; count: number; accounts?: PageAccount[] | null }>(text, values);
  const result: TransactionPageText = { text: row?.text ?? '', count: row?.count ?? 0 };
  if (options.addressBook) {
    result.accounts = (row?.accounts ?? []).map((a) => ({ account: a.account, code: a.known ? bytesOf(a.code_hash) : undefined, domain: a.domain }));
  }
  return result;
}
