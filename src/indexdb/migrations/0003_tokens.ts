/**
 * Migration 3: toncenter's token tables (ton-index-postgres's migrate.cpp names and columns),
 * filled by the index's detection (src/indexer/tokenDetection.ts) in the same transaction as the
 * masterchain block whose states they describe.
 *
 * Differences from toncenter's tables (docs/tokens.md): hashes are `bytea` and addresses raw
 * upper-case `text`, as in the rest of this schema; the event tables' foreign key to
 * `transactions` cascades, so a rollback or a prune that removes a transaction removes its
 * transfer or burn with no change to those paths; `code_interfaces` is ours: what the detection
 * found per code hash (toncenter keeps it in its worker's memory), so a restart does not run the
 * get-methods again on every code it already classified.
 */
export const MIGRATION_0003_TOKENS = `
create table code_interfaces (
  code_hash bytea not null primary key,
  interfaces text[] not null
);

create table jetton_masters (
  id bigserial not null,
  address text not null primary key,
  total_supply numeric,
  mintable boolean,
  admin_address text,
  jetton_content jsonb,
  jetton_wallet_code_hash bytea,
  last_transaction_lt bigint,
  code_hash bytea,
  data_hash bytea
);
create index jetton_masters_index_1 on jetton_masters (admin_address, id);
create index jetton_masters_index_2 on jetton_masters (id);

create table jetton_wallets (
  id bigserial not null,
  address text not null primary key,
  balance numeric,
  owner text,
  jetton text,
  last_transaction_lt bigint,
  code_hash bytea,
  data_hash bytea,
  mintless_is_claimed boolean,
  mintless_amount numeric,
  mintless_start_from bigint,
  mintless_expire_at bigint
);
create index jetton_wallets_index_1 on jetton_wallets (owner, id);
create index jetton_wallets_index_2 on jetton_wallets (jetton, id);
create index jetton_wallets_index_3 on jetton_wallets (id);
create index jetton_wallets_index_4 on jetton_wallets (jetton asc, balance desc);
create index jetton_wallets_index_5 on jetton_wallets (owner asc, balance desc);

create table nft_collections (
  id bigserial not null,
  address text not null primary key,
  next_item_index numeric,
  owner_address text,
  collection_content jsonb,
  last_transaction_lt bigint,
  code_hash bytea,
  data_hash bytea
);
create index nft_collections_index_1 on nft_collections (owner_address, id);
create index nft_collections_index_2 on nft_collections (id);

create table nft_items (
  id bigserial not null,
  address text not null primary key,
  init boolean,
  index numeric,
  collection_address text,
  owner_address text,
  content jsonb,
  last_transaction_lt bigint,
  code_hash bytea,
  data_hash bytea
);
create index nft_items_index_1 on nft_items (collection_address, index);
create index nft_items_index_2 on nft_items (owner_address, collection_address, index);
create index nft_items_index_3 on nft_items (id);
create index nft_items_index_4 on nft_items (last_transaction_lt);
create index nft_items_index_5 on nft_items (owner_address, last_transaction_lt);
create index nft_items_index_6 on nft_items (collection_address, last_transaction_lt);

create table jetton_transfers (
  tx_hash bytea not null,
  tx_lt bigint not null,
  tx_now integer not null,
  tx_aborted boolean not null,
  mc_seqno integer,
  query_id numeric,
  amount numeric,
  source text,
  destination text,
  jetton_wallet_address text,
  jetton_master_address text,
  response_destination text,
  custom_payload text,
  forward_ton_amount numeric,
  forward_payload text,
  trace_id bytea,
  primary key (tx_hash, tx_lt),
  foreign key (tx_hash, tx_lt) references transactions on delete cascade
);
create index jetton_transfers_index_1 on jetton_transfers (source, tx_now);
create index jetton_transfers_index_2 on jetton_transfers (source, tx_lt);
create index jetton_transfers_index_3 on jetton_transfers (destination, tx_lt);
create index jetton_transfers_index_4 on jetton_transfers (destination, tx_now);
create index jetton_transfers_index_6 on jetton_transfers (jetton_wallet_address, tx_lt);
create index jetton_transfers_index_7 on jetton_transfers (jetton_master_address, tx_now);
create index jetton_transfers_index_8 on jetton_transfers (jetton_master_address, tx_lt);
create index jetton_transfers_index_9 on jetton_transfers (tx_now, tx_lt);
create index jetton_transfers_index_10 on jetton_transfers (tx_lt);

create table jetton_burns (
  tx_hash bytea not null,
  tx_lt bigint not null,
  tx_now integer not null,
  tx_aborted boolean not null,
  mc_seqno integer,
  query_id numeric,
  owner text,
  jetton_wallet_address text,
  jetton_master_address text,
  amount numeric,
  response_destination text,
  custom_payload text,
  trace_id bytea,
  primary key (tx_hash, tx_lt),
  foreign key (tx_hash, tx_lt) references transactions on delete cascade
);
create index jetton_burns_index_1 on jetton_burns (owner, tx_now, tx_lt);
create index jetton_burns_index_2 on jetton_burns (owner, tx_lt);
create index jetton_burns_index_3 on jetton_burns (jetton_wallet_address, tx_now, tx_lt);
create index jetton_burns_index_4 on jetton_burns (jetton_wallet_address, tx_lt);
create index jetton_burns_index_5 on jetton_burns (jetton_master_address, tx_now, tx_lt);
create index jetton_burns_index_6 on jetton_burns (jetton_master_address, tx_lt);
create index jetton_burns_index_7 on jetton_burns (tx_now, tx_lt);
create index jetton_burns_index_8 on jetton_burns (tx_lt);

create table nft_transfers (
  tx_hash bytea not null,
  tx_lt bigint not null,
  tx_now integer not null,
  tx_aborted boolean not null,
  mc_seqno integer,
  query_id numeric,
  nft_item_address text,
  nft_item_index numeric,
  nft_collection_address text,
  old_owner text,
  new_owner text,
  response_destination text,
  custom_payload text,
  forward_amount numeric,
  forward_payload text,
  trace_id bytea,
  primary key (tx_hash, tx_lt),
  foreign key (tx_hash, tx_lt) references transactions on delete cascade
);
create index nft_transfers_index_2 on nft_transfers (nft_item_address, tx_lt);
create index nft_transfers_index_3 on nft_transfers (nft_collection_address, tx_now);
create index nft_transfers_index_4 on nft_transfers (nft_collection_address, tx_lt);
create index nft_transfers_index_5 on nft_transfers (old_owner, tx_lt);
create index nft_transfers_index_7 on nft_transfers (new_owner, tx_lt);
create index nft_transfers_index_9 on nft_transfers (tx_lt);
create index nft_transfers_index_10 on nft_transfers (tx_now, tx_lt);
`;
