/**
 * Migration 1: the index's first schema.
 *
 * Table and column names follow toncenter's indexer (ton-index-worker/ton-index-postgres,
 * migrate.cpp, schema 1.2.x) wherever the concept is the same, so v3 queries read like
 * ton-index-go's. Differences, on purpose (listed in docs/index.md):
 * - hashes are `bytea` (32 bytes), where toncenter keeps base64 text (`tonhash` = char(44));
 * - addresses are `text` in raw upper-case form `0:ABCD…`, as toncenter's `tonaddr` holds them;
 * - message bodies and init states in `message_contents.body` are BoC bytes (`bytea`), not base64;
 * - no foreign keys: every row of an mc block is written by one writer in one transaction, and
 *   rollback/retention delete whole mc blocks table by table;
 * - `index_checkpoint` (one row) holds the last mc block committed with its hashes and the first
 *   indexed one; it is written in the same transaction as that block's rows.
 * Only the tables of the base layer are here; tokens/actions come with their own migrations.
 */
export const MIGRATION_0001_SCHEMA_V1 = `
do $$ begin
  create type account_status_type as enum ('uninit', 'frozen', 'active', 'nonexist');
exception when duplicate_object then null; end $$;
do $$ begin
  create type blockid as (workchain integer, shard bigint, seqno integer);
exception when duplicate_object then null; end $$;
do $$ begin
  create type bounce_type as enum ('negfunds', 'nofunds', 'ok');
exception when duplicate_object then null; end $$;
do $$ begin
  create type descr_type as enum ('ord', 'storage', 'tick_tock', 'split_prepare', 'split_install', 'merge_prepare', 'merge_install');
exception when duplicate_object then null; end $$;
do $$ begin
  create type msg_direction as enum ('out', 'in');
exception when duplicate_object then null; end $$;
do $$ begin
  create type skipped_reason_type as enum ('no_state', 'bad_state', 'no_gas', 'suspended');
exception when duplicate_object then null; end $$;
do $$ begin
  create type status_change_type as enum ('unchanged', 'frozen', 'deleted');
exception when duplicate_object then null; end $$;
do $$ begin
  create type trace_state as enum ('complete', 'pending', 'broken');
exception when duplicate_object then null; end $$;

create table blocks (
  workchain integer not null,
  shard bigint not null,
  seqno integer not null,
  root_hash bytea not null,
  file_hash bytea not null,
  mc_block_workchain integer,
  mc_block_shard bigint,
  mc_block_seqno integer,
  global_id integer,
  version integer,
  after_merge boolean,
  before_split boolean,
  after_split boolean,
  want_merge boolean,
  want_split boolean,
  key_block boolean,
  vert_seqno_incr boolean,
  flags integer,
  gen_utime bigint,
  start_lt bigint,
  end_lt bigint,
  validator_list_hash_short integer,
  gen_catchain_seqno integer,
  min_ref_mc_seqno integer,
  prev_key_block_seqno integer,
  vert_seqno integer,
  master_ref_seqno integer,
  rand_seed bytea,
  created_by bytea,
  tx_count integer,
  prev_blocks blockid[],
  primary key (workchain, shard, seqno)
);

create table shard_state (
  mc_seqno integer not null,
  workchain integer not null,
  shard bigint not null,
  seqno integer not null,
  primary key (mc_seqno, workchain, shard, seqno)
);

create table transactions (
  account text not null,
  hash bytea not null,
  lt bigint not null,
  block_workchain integer,
  block_shard bigint,
  block_seqno integer,
  mc_block_seqno integer,
  trace_id bytea,
  prev_trans_hash bytea,
  prev_trans_lt bigint,
  now integer,
  orig_status account_status_type,
  end_status account_status_type,
  total_fees bigint,
  total_fees_extra_currencies jsonb,
  account_state_hash_before bytea,
  account_state_hash_after bytea,
  descr descr_type,
  aborted boolean,
  destroyed boolean,
  credit_first boolean,
  is_tock boolean,
  installed boolean,
  storage_fees_collected bigint,
  storage_fees_due bigint,
  storage_status_change status_change_type,
  credit_due_fees_collected bigint,
  credit bigint,
  credit_extra_currencies jsonb,
  compute_skipped boolean,
  skipped_reason skipped_reason_type,
  compute_success boolean,
  compute_msg_state_used boolean,
  compute_account_activated boolean,
  compute_gas_fees bigint,
  compute_gas_used bigint,
  compute_gas_limit bigint,
  compute_gas_credit bigint,
  compute_mode smallint,
  compute_exit_code integer,
  compute_exit_arg integer,
  compute_vm_steps bigint,
  compute_vm_init_state_hash bytea,
  compute_vm_final_state_hash bytea,
  action_success boolean,
  action_valid boolean,
  action_no_funds boolean,
  action_status_change status_change_type,
  action_total_fwd_fees bigint,
  action_total_action_fees bigint,
  action_result_code integer,
  action_result_arg integer,
  action_tot_actions integer,
  action_spec_actions integer,
  action_skipped_actions integer,
  action_msgs_created integer,
  action_action_list_hash bytea,
  action_tot_msg_size_cells bigint,
  action_tot_msg_size_bits bigint,
  bounce bounce_type,
  bounce_msg_size_cells bigint,
  bounce_msg_size_bits bigint,
  bounce_req_fwd_fees bigint,
  bounce_msg_fees bigint,
  bounce_fwd_fees bigint,
  split_info_cur_shard_pfx_len integer,
  split_info_acc_split_depth integer,
  split_info_this_addr text,
  split_info_sibling_addr text,
  primary key (hash, lt)
);

create table messages (
  tx_hash bytea not null,
  tx_lt bigint not null,
  mc_seqno integer,
  msg_hash bytea not null,
  msg_hash_norm bytea,
  direction msg_direction not null,
  trace_id bytea,
  source text,
  destination text,
  value bigint,
  value_extra_currencies jsonb,
  fwd_fee bigint,
  ihr_fee bigint,
  extra_flags numeric,
  created_lt bigint,
  created_at bigint,
  opcode integer,
  ihr_disabled boolean,
  bounce boolean,
  bounced boolean,
  import_fee bigint,
  body_hash bytea,
  init_state_hash bytea,
  primary key (tx_hash, tx_lt, msg_hash, direction)
);

create table message_contents (
  hash bytea not null primary key,
  body bytea
);

create table account_states (
  hash bytea not null primary key,
  account text,
  balance bigint,
  balance_extra_currencies jsonb,
  account_status account_status_type,
  frozen_hash bytea,
  data_hash bytea,
  code_hash bytea
);

create table latest_account_states (
  id bigserial not null,
  account text not null primary key,
  account_friendly text,
  hash bytea not null,
  balance bigint,
  balance_extra_currencies jsonb,
  account_status account_status_type,
  timestamp integer,
  last_trans_hash bytea,
  last_trans_lt bigint,
  frozen_hash bytea,
  data_hash bytea,
  code_hash bytea,
  data_boc bytea,
  code_boc bytea
);

create table traces (
  trace_id bytea not null primary key,
  external_hash bytea,
  external_hash_norm bytea,
  mc_seqno_start integer,
  mc_seqno_end integer,
  start_lt bigint,
  start_utime integer,
  end_lt bigint,
  end_utime integer,
  state trace_state,
  pending_edges_ bigint,
  edges_ bigint,
  nodes_ bigint
);

create table trace_edges (
  trace_id bytea not null,
  msg_hash bytea not null,
  left_tx bytea,
  right_tx bytea,
  incomplete boolean,
  broken boolean,
  primary key (trace_id, msg_hash)
);

create table index_checkpoint (
  id integer primary key check (id = 1),
  first_mc_seqno integer not null,
  mc_seqno integer not null,
  root_hash bytea not null,
  file_hash bytea not null,
  gen_utime bigint not null,
  committed_at timestamptz not null default now()
);

-- blocks: crud_blocks.go filters workchain/shard/seqno, root_hash, file_hash, mc_seqno, gen_utime and
-- start_lt ranges, ordered by one of them.
create index blocks_index_1 on blocks (gen_utime);
create index blocks_index_2 on blocks (mc_block_seqno);
create index blocks_index_3 on blocks (seqno) where (workchain = -1);
create index blocks_index_4 on blocks (start_lt);
create index blocks_index_5 on blocks (root_hash);
create index blocks_index_6 on blocks (file_hash);

-- transactions: crud_transactions.go (time/lt ranges, block, mc block, account(s), hash, trace).
create index transactions_index_1 on transactions (block_workchain, block_shard, block_seqno);
create index transactions_index_2 on transactions (lt);
create index transactions_index_3 on transactions (now, lt);
create index transactions_index_4 on transactions (account, lt);
create index transactions_index_5 on transactions (account, now, lt);
create index transactions_index_6 on transactions (hash);
create index transactions_index_7 on transactions (trace_id, lt);
create index transactions_index_8 on transactions (mc_block_seqno, lt);
create index transactions_index_9 on transactions (account, trace_id);

-- messages: crud_messages.go and transactionsByMessage (hash or normalized hash, source,
-- destination, opcode, body hash, created_at / created_lt ordering, trace).
create index messages_index_1 on messages (msg_hash);
create index messages_index_2 on messages (source, created_lt);
create index messages_index_3 on messages (destination, created_lt);
create index messages_index_4 on messages (body_hash);
create index messages_index_5 on messages (trace_id, tx_lt);
create index messages_index_6 on messages (opcode, created_lt);
create index messages_index_7 on messages (created_lt, msg_hash);
create index messages_index_8 on messages (created_at, msg_hash);
create index messages_index_9 on messages (msg_hash_norm) where msg_hash_norm is not null;
-- rollback and retention delete messages by mc block.
create index messages_index_10 on messages (mc_seqno);

-- accounts: crud_accounts.go (account list, code hash), topAccountsByBalance, addressBook.
create index latest_account_states_index_1 on latest_account_states (balance desc) include (account);
create index latest_account_states_address_book_index on latest_account_states (account) include (account_friendly, code_hash, account_status);
create index latest_account_states_index_2 on latest_account_states (id);
create index latest_account_states_index_3 on latest_account_states (code_hash);

-- traces: crud_traces.go (end_utime / end_lt ordering, mc_seqno_end, trace ids, state).
create index traces_index_1 on traces (state);
create index trace_index_2a on traces (mc_seqno_end);
create index traces_index_3 on traces (end_lt desc, trace_id desc);
create index traces_index_4 on traces (end_utime desc, trace_id desc);
create index traces_index_5 on traces (external_hash_norm) where external_hash_norm is not null;
create index trace_edges_index_1 on trace_edges (incomplete);
create index trace_edges_index_2 on trace_edges (msg_hash);
`;
