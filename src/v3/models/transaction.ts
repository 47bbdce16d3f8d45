import type { MessageRow } from './message';
import { toMessageJson } from './message';
import { b64, bytesKey, num, shardHex, str64, type Bytes } from './format';

/** A `transactions` row (the columns of buildTransactionsQuery); `B` as in MessageRow. */
export interface TransactionRow<B extends Bytes = Buffer> {
  account: string;
  hash: B;
  lt: string;
  block_workchain: number;
  block_shard: string;
  block_seqno: number;
  mc_block_seqno: number | null;
  trace_id: B | null;
  prev_trans_hash: B | null;
  prev_trans_lt: string | null;
  now: number | null;
  orig_status: string | null;
  end_status: string | null;
  total_fees: string | null;
  total_fees_extra_currencies: Record<string, string> | null;
  account_state_hash_before: B | null;
  account_state_hash_after: B | null;
  descr: string | null;
  aborted: boolean | null;
  destroyed: boolean | null;
  credit_first: boolean | null;
  is_tock: boolean | null;
  installed: boolean | null;
  storage_fees_collected: string | null;
  storage_fees_due: string | null;
  storage_status_change: string | null;
  credit_due_fees_collected: string | null;
  credit: string | null;
  credit_extra_currencies: Record<string, string> | null;
  compute_skipped: boolean | null;
  skipped_reason: string | null;
  compute_success: boolean | null;
  compute_msg_state_used: boolean | null;
  compute_account_activated: boolean | null;
  compute_gas_fees: string | null;
  compute_gas_used: string | null;
  compute_gas_limit: string | null;
  compute_gas_credit: string | null;
  compute_mode: number | null;
  compute_exit_code: number | null;
  compute_exit_arg: number | null;
  compute_vm_steps: string | null;
  compute_vm_init_state_hash: B | null;
  compute_vm_final_state_hash: B | null;
  action_success: boolean | null;
  action_valid: boolean | null;
  action_no_funds: boolean | null;
  action_status_change: string | null;
  action_total_fwd_fees: string | null;
  action_total_action_fees: string | null;
  action_result_code: number | null;
  action_result_arg: number | null;
  action_tot_actions: number | null;
  action_spec_actions: number | null;
  action_skipped_actions: number | null;
  action_msgs_created: number | null;
  action_action_list_hash: B | null;
  action_tot_msg_size_cells: string | null;
  action_tot_msg_size_bits: string | null;
  bounce: string | null;
  bounce_msg_size_cells: string | null;
  bounce_msg_size_bits: string | null;
  bounce_req_fwd_fees: string | null;
  bounce_msg_fees: string | null;
  bounce_fwd_fees: string | null;
  split_info_cur_shard_pfx_len: number | null;
  split_info_acc_split_depth: number | null;
  split_info_this_addr: string | null;
  split_info_sibling_addr: string | null;
}

/** An `account_states` row (the state before/after a transaction); `B` as in MessageRow. */
export interface AccountStateRow<B extends Bytes = Buffer> {
  hash: B;
  account: string | null;
  balance: string | null;
  balance_extra_currencies: Record<string, string> | null;
  account_status: string | null;
  frozen_hash: B | null;
  data_hash: B | null;
  code_hash: B | null;
}

/** Two unsigned decimal texts (pg's bigint text, no sign, no leading zeros) by value, without BigInt. */
export function compareDecimal(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The object without its undefined keys (Go's `omitempty` on nil pointers), as a new object in the
 * same key order: deleting them instead left V8 dictionary-mode objects, slower to build and to
 * JSON.stringify (a page writes ~10 of these per transaction).
 */
function defined(object: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in object) {
    const value = object[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

const opt = <T>(value: T | null): T | undefined => (value === null ? undefined : value);
const opt64 = (value: string | null): string | undefined => (value === null ? undefined : value);
const optHash = (value: Bytes | null): string | undefined => (value === null ? undefined : b64(value));

/** models.TransactionDescr: each phase present only when the indexer stored it (ScanTransaction). */
function description(row: TransactionRow<Bytes>): Record<string, unknown> {
  // Old toncenter rows had gas fees and gas used swapped; ton-index-go swaps them back. Our index
  // writes them right, but the same rule keeps the two servers' answers equal for any row.
  let gasFees = row.compute_gas_fees;
  let gasUsed = row.compute_gas_used;
  if (gasFees !== null && gasUsed !== null && compareDecimal(gasFees, gasUsed) < 0) [gasFees, gasUsed] = [gasUsed, gasFees];
  return defined({
    type: row.descr ?? '',
    aborted: opt(row.aborted),
    destroyed: opt(row.destroyed),
    credit_first: opt(row.credit_first),
    is_tock: opt(row.is_tock),
    installed: opt(row.installed),
    storage_ph:
      row.storage_status_change === null
        ? undefined
        : defined({
            storage_fees_collected: opt64(row.storage_fees_collected),
            storage_fees_due: opt64(row.storage_fees_due),
            status_change: row.storage_status_change,
          }),
    credit_ph:
      row.credit_due_fees_collected === null && row.credit === null && row.credit_extra_currencies === null
        ? undefined
        : defined({
            due_fees_collected: opt64(row.credit_due_fees_collected),
            credit: opt64(row.credit),
            credit_extra_currencies: opt(row.credit_extra_currencies),
          }),
    compute_ph:
      row.compute_skipped === null
        ? undefined
        : defined({
            skipped: row.compute_skipped,
            reason: opt(row.skipped_reason),
            success: opt(row.compute_success),
            msg_state_used: opt(row.compute_msg_state_used),
            account_activated: opt(row.compute_account_activated),
            gas_fees: opt64(gasFees),
            gas_used: opt64(gasUsed),
            gas_limit: opt64(row.compute_gas_limit),
            gas_credit: opt64(row.compute_gas_credit),
            mode: opt(row.compute_mode),
            exit_code: opt(row.compute_exit_code),
            exit_arg: opt(row.compute_exit_arg),
            vm_steps: row.compute_vm_steps === null ? undefined : Number(row.compute_vm_steps),
            vm_init_state_hash: optHash(row.compute_vm_init_state_hash),
            vm_final_state_hash: optHash(row.compute_vm_final_state_hash),
          }),
    action:
      row.action_success === null
        ? undefined
        : defined({
            success: row.action_success,
            valid: opt(row.action_valid),
            no_funds: opt(row.action_no_funds),
            status_change: opt(row.action_status_change),
            total_fwd_fees: opt64(row.action_total_fwd_fees),
            total_action_fees: opt64(row.action_total_action_fees),
            result_code: opt(row.action_result_code),
            result_arg: opt(row.action_result_arg),
            tot_actions: opt(row.action_tot_actions),
            spec_actions: opt(row.action_spec_actions),
            skipped_actions: opt(row.action_skipped_actions),
            msgs_created: opt(row.action_msgs_created),
            action_list_hash: optHash(row.action_action_list_hash),
            tot_msg_size:
              row.action_tot_msg_size_cells === null
                ? undefined
                : { cells: row.action_tot_msg_size_cells, bits: str64(row.action_tot_msg_size_bits) },
          }),
    bounce:
      row.bounce === null
        ? undefined
        : defined({
            type: row.bounce,
            msg_size:
              row.bounce_msg_size_cells === null
                ? undefined
                : { cells: row.bounce_msg_size_cells, bits: str64(row.bounce_msg_size_bits) },
            req_fwd_fees: opt64(row.bounce_req_fwd_fees),
            msg_fees: opt64(row.bounce_msg_fees),
            fwd_fees: opt64(row.bounce_fwd_fees),
          }),
    split_info:
      row.split_info_cur_shard_pfx_len === null
        ? undefined
        : defined({
            cur_shard_pfx_len: row.split_info_cur_shard_pfx_len,
            acc_split_depth: opt(row.split_info_acc_split_depth),
            this_addr: opt(row.split_info_this_addr),
            sibling_addr: opt(row.split_info_sibling_addr),
          }),
  });
}

/** models.AccountState: the hash always, the rest when the state is stored. */
export function toAccountStateJson(hash: Bytes | null, state: AccountStateRow<Bytes> | undefined): Record<string, unknown> {
  return {
    hash: b64(hash) ?? '',
    balance: str64(state?.balance),
    extra_currencies: state?.balance_extra_currencies ?? null,
    account_status: state?.account_status ?? null,
    frozen_hash: b64(state?.frozen_hash),
    data_hash: b64(state?.data_hash),
    code_hash: b64(state?.code_hash),
  };
}

/**
 * models.Transaction of ton-index-go: its in message, out messages by created_lt, the account
 * states before and after, `emulated: false` and `finality: "finalized"` (an indexed block is
 * final: TON's masterchain is, and the local chain rolls the index back when it rewinds).
 */
export function toTransactionJson<B extends Bytes>(
  row: TransactionRow<B>,
  messages: readonly MessageRow<B>[],
  states: ReadonlyMap<string, AccountStateRow<B>>,
): Record<string, unknown> {
  const inbound = messages.find((m) => m.direction === 'in');
  const outbound = messages
    .filter((m) => m.direction === 'out')
    .sort((a, b) => {
      if (a.created_lt === null) return -1;
      if (b.created_lt === null) return 1;
      return compareDecimal(a.created_lt, b.created_lt);
    });
  const stateOf = (hash: B | null) => toAccountStateJson(hash, hash ? states.get(bytesKey(hash)) : undefined);
  return defined({
    account: row.account,
    hash: b64(row.hash),
    lt: row.lt,
    now: num(row.now) ?? 0,
    mc_block_seqno: row.mc_block_seqno ?? 0,
    trace_id: optHash(row.trace_id),
    prev_trans_hash: b64(row.prev_trans_hash) ?? '',
    prev_trans_lt: str64(row.prev_trans_lt) ?? '0',
    orig_status: row.orig_status ?? '',
    end_status: row.end_status ?? '',
    total_fees: str64(row.total_fees) ?? '0',
    total_fees_extra_currencies: row.total_fees_extra_currencies ?? null,
    description: description(row),
    block_ref: { workchain: row.block_workchain, shard: shardHex(row.block_shard), seqno: row.block_seqno },
    in_msg: inbound ? toMessageJson(inbound) : null,
    out_msgs: outbound.map(toMessageJson),
    account_state_before: stateOf(row.account_state_hash_before),
    account_state_after: stateOf(row.account_state_hash_after),
    emulated: false,
    finality: 'finalized',
  });
}
