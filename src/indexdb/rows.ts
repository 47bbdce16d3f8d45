/**
 * Rows of the index tables as the writer takes them: keys are the column names (migrations/), so
 * a row reads like the table. Hashes are 32-byte Buffers, 64-bit numbers bigint, addresses raw
 * upper-case text (`0:ABCD…`), enums their SQL labels.
 */

export type AccountStatus = 'uninit' | 'frozen' | 'active' | 'nonexist';
export type DescrType = 'ord' | 'storage' | 'tick_tock' | 'split_prepare' | 'split_install' | 'merge_prepare' | 'merge_install';
export type StatusChange = 'unchanged' | 'frozen' | 'deleted';
export type SkippedReason = 'no_state' | 'bad_state' | 'no_gas' | 'suspended';
export type BounceType = 'negfunds' | 'nofunds' | 'ok';
export type TraceState = 'complete' | 'pending' | 'broken';

export interface BlockIdRow {
  readonly workchain: number;
  /** Signed 64-bit shard id, as toncenter keeps it. */
  readonly shard: bigint;
  readonly seqno: number;
}

export interface BlockRow {
  workchain: number;
  shard: bigint;
  seqno: number;
  root_hash: Buffer;
  file_hash: Buffer;
  mc_block_workchain: number;
  mc_block_shard: bigint;
  mc_block_seqno: number;
  global_id: number;
  version: number;
  after_merge: boolean;
  before_split: boolean;
  after_split: boolean;
  want_merge: boolean;
  want_split: boolean;
  key_block: boolean;
  vert_seqno_incr: boolean;
  flags: number;
  gen_utime: number;
  start_lt: bigint;
  end_lt: bigint;
  validator_list_hash_short: number;
  gen_catchain_seqno: number;
  min_ref_mc_seqno: number;
  prev_key_block_seqno: number;
  vert_seqno: number;
  master_ref_seqno: number | null;
  rand_seed: Buffer;
  created_by: Buffer;
  tx_count: number;
  prev_blocks: BlockIdRow[];
}

export interface ShardStateRow {
  mc_seqno: number;
  workchain: number;
  shard: bigint;
  seqno: number;
}

export interface TransactionRow {
  account: string;
  hash: Buffer;
  lt: bigint;
  block_workchain: number;
  block_shard: bigint;
  block_seqno: number;
  mc_block_seqno: number;
  trace_id: Buffer | null;
  prev_trans_hash: Buffer;
  prev_trans_lt: bigint;
  now: number;
  orig_status: AccountStatus;
  end_status: AccountStatus;
  total_fees: bigint;
  total_fees_extra_currencies: string | null;
  account_state_hash_before: Buffer;
  account_state_hash_after: Buffer;
  descr: DescrType;
  aborted: boolean | null;
  destroyed: boolean | null;
  credit_first: boolean | null;
  is_tock: boolean | null;
  installed: boolean | null;
  storage_fees_collected: bigint | null;
  storage_fees_due: bigint | null;
  storage_status_change: StatusChange | null;
  credit_due_fees_collected: bigint | null;
  credit: bigint | null;
  credit_extra_currencies: string | null;
  compute_skipped: boolean | null;
  skipped_reason: SkippedReason | null;
  compute_success: boolean | null;
  compute_msg_state_used: boolean | null;
  compute_account_activated: boolean | null;
  compute_gas_fees: bigint | null;
  compute_gas_used: bigint | null;
  compute_gas_limit: bigint | null;
  compute_gas_credit: bigint | null;
  compute_mode: number | null;
  compute_exit_code: number | null;
  compute_exit_arg: number | null;
  compute_vm_steps: bigint | null;
  compute_vm_init_state_hash: Buffer | null;
  compute_vm_final_state_hash: Buffer | null;
  action_success: boolean | null;
  action_valid: boolean | null;
  action_no_funds: boolean | null;
  action_status_change: StatusChange | null;
  action_total_fwd_fees: bigint | null;
  action_total_action_fees: bigint | null;
  action_result_code: number | null;
  action_result_arg: number | null;
  action_tot_actions: number | null;
  action_spec_actions: number | null;
  action_skipped_actions: number | null;
  action_msgs_created: number | null;
  action_action_list_hash: Buffer | null;
  action_tot_msg_size_cells: bigint | null;
  action_tot_msg_size_bits: bigint | null;
  bounce: BounceType | null;
  bounce_msg_size_cells: bigint | null;
  bounce_msg_size_bits: bigint | null;
  bounce_req_fwd_fees: bigint | null;
  bounce_msg_fees: bigint | null;
  bounce_fwd_fees: bigint | null;
  split_info_cur_shard_pfx_len: number | null;
  split_info_acc_split_depth: number | null;
  split_info_this_addr: string | null;
  split_info_sibling_addr: string | null;
}

export interface MessageRow {
  tx_hash: Buffer;
  tx_lt: bigint;
  mc_seqno: number;
  msg_hash: Buffer;
  msg_hash_norm: Buffer | null;
  direction: 'in' | 'out';
  trace_id: Buffer | null;
  source: string | null;
  destination: string | null;
  value: bigint | null;
  value_extra_currencies: string | null;
  fwd_fee: bigint | null;
  ihr_fee: bigint | null;
  extra_flags: bigint | null;
  created_lt: bigint | null;
  created_at: number | null;
  opcode: number | null;
  ihr_disabled: boolean | null;
  bounce: boolean | null;
  bounced: boolean | null;
  import_fee: bigint | null;
  body_hash: Buffer;
  init_state_hash: Buffer | null;
}

export interface MessageContentRow {
  hash: Buffer;
  /** BoC of the cell (message body or init state). */
  body: Buffer;
}

export interface AccountStateRow {
  hash: Buffer;
  account: string;
  balance: bigint;
  balance_extra_currencies: string | null;
  account_status: AccountStatus;
  frozen_hash: Buffer | null;
  data_hash: Buffer | null;
  code_hash: Buffer | null;
}

export interface LatestAccountStateRow extends AccountStateRow {
  account_friendly: string | null;
  timestamp: number;
  last_trans_hash: Buffer | null;
  last_trans_lt: bigint | null;
  data_boc: Buffer | null;
  code_boc: Buffer | null;
}

export interface TraceRow {
  trace_id: Buffer;
  external_hash: Buffer | null;
  external_hash_norm: Buffer | null;
  mc_seqno_start: number;
  mc_seqno_end: number;
  start_lt: bigint;
  start_utime: number;
  end_lt: bigint;
  end_utime: number;
  state: TraceState;
  pending_edges_: bigint;
  edges_: bigint;
  nodes_: bigint;
}

export interface TraceEdgeRow {
  trace_id: Buffer;
  msg_hash: Buffer;
  left_tx: Buffer | null;
  right_tx: Buffer | null;
  incomplete: boolean;
  broken: boolean;
}

/** Everything one masterchain block adds to the index. */
export interface McBlockRows {
  blocks: BlockRow[];
  shardState: ShardStateRow[];
  transactions: TransactionRow[];
  messages: MessageRow[];
  messageContents: MessageContentRow[];
  accountStates: AccountStateRow[];
  latestAccountStates: LatestAccountStateRow[];
  traces: TraceRow[];
  traceEdges: TraceEdgeRow[];
}

/** The last masterchain block committed, and where the index begins. */
export interface Checkpoint {
  readonly firstMcSeqno: number;
  readonly mcSeqno: number;
  readonly rootHash: Buffer;
  readonly fileHash: Buffer;
  readonly genUtime: number;
  /** A backfill under way below firstMcSeqno (`--index-from` on a remote network), null when none. */
  readonly backfill?: BackfillMark | null;
}

/** Blocks `from` .. `next` - 1 are backfilled; `next` .. firstMcSeqno - 1 are still missing. */
export interface BackfillMark {
  readonly from: number;
  readonly next: number;
}
