/**
 * Migration 2: toncenter's `actions` table, filled when a trace completes (src/actions/indexing).
 *
 * Differences from toncenter's table (docs/tokens.md): the type-specific columns
 * (`jetton_transfer_data`, `nft_transfer_data`, …) are one `details` jsonb already shaped as
 * ton-index-go's `details` object; `trace_id` references `traces` with ON DELETE CASCADE, so a
 * rollback or a prune that removes a trace removes its actions with no change to those paths (a
 * trace cut by a rollback is pending again and is classified again when it completes).
 */
export const MIGRATION_0002_ACTIONS = `
create table actions (
  trace_id bytea not null references traces (trace_id) on delete cascade,
  action_id bytea not null,
  type text not null,
  tx_hashes bytea[] not null,
  start_lt bigint not null,
  end_lt bigint not null,
  start_utime integer not null,
  end_utime integer not null,
  trace_end_lt bigint not null,
  trace_end_utime integer not null,
  trace_mc_seqno_end integer not null,
  trace_external_hash bytea,
  success boolean not null,
  accounts text[] not null,
  details jsonb not null,
  primary key (trace_id, action_id)
);
create index actions_trace_end_lt on actions (trace_end_lt, trace_id, end_lt, action_id);
create index actions_accounts on actions using gin (accounts);
create index actions_tx_hashes on actions using gin (tx_hashes);
create index actions_action_id on actions (action_id);
`;
