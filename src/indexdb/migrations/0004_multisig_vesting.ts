/**
 * Migration 4: toncenter's multisig v2 and vesting tables (ton-index-postgres's migrate.cpp names,
 * columns and indexes), filled by the index's detection (src/indexer/multisigDetection.ts) in the
 * same transaction as the masterchain block whose states they describe. Number 4 is left to the
 * names/metadata branch (developed at the same time).
 *
 * Differences from toncenter's tables (docs/tokens.md): hashes are `bytea` and addresses raw
 * upper-case `text`, as the rest of this schema; the signer/proposer arrays are `text[]` with GIN
 * indexes (toncenter's `tonaddr[]`).
 *
 * `actions.ancestor_type` (toncenter's column): the typed actions newer than v1 a generic action is
 * a step of, so that a client of an older version sees the steps (src/actions selectActions).
 *
 * `code_interfaces` is emptied: the codes it recorded were tried for the token interfaces only,
 * so a multisig, order or vesting code recorded there as "none" must be tried again (each known
 * token code is classified again once, at its next touched account).
 */
export const MIGRATION_0004_MULTISIG_VESTING = `
create table multisig (
  id bigserial not null,
  address text not null primary key,
  next_order_seqno numeric,
  threshold bigint,
  signers text[],
  proposers text[],
  last_transaction_lt bigint,
  code_hash bytea,
  data_hash bytea
);
create index multisig_index_1 on multisig (id);
create index multisig_index_2 on multisig using gin (signers);
create index multisig_index_3 on multisig using gin (proposers);

create table multisig_orders (
  id bigserial not null,
  address text not null primary key,
  multisig_address text,
  order_seqno numeric,
  threshold bigint,
  sent_for_execution boolean,
  approvals_mask numeric,
  approvals_num bigint,
  expiration_date bigint,
  order_boc text,
  signers text[],
  last_transaction_lt bigint,
  code_hash bytea,
  data_hash bytea
);
create index multisig_orders_index_1 on multisig_orders (id);
create index multisig_orders_index_2 on multisig_orders (multisig_address);
create index multisig_orders_index_3 on multisig_orders using gin (signers);

create table vesting_contracts (
  id bigserial not null,
  address text not null primary key,
  vesting_start_time integer,
  vesting_total_duration integer,
  unlock_period integer,
  cliff_duration integer,
  vesting_total_amount numeric,
  vesting_sender_address text,
  owner_address text,
  last_transaction_lt bigint,
  code_hash bytea,
  data_hash bytea
);
create index vesting_index_2 on vesting_contracts (vesting_sender_address, id);
create index vesting_index_3 on vesting_contracts (owner_address, id);
create index vesting_index_4 on vesting_contracts (id);

create table vesting_whitelist (
  vesting_contract_address text not null,
  wallet_address text not null,
  primary key (vesting_contract_address, wallet_address)
);
create index vesting_index_1 on vesting_whitelist (wallet_address);

alter table actions add column ancestor_type text[] not null default '{}';

delete from code_interfaces;
`;
