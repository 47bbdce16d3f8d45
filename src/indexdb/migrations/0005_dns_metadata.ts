/**
 * Migration 5: TON DNS entries and the metadata cache.
 *
 * `dns_entries` is toncenter's table (ton-index-postgres's migrate.cpp columns and indexes):
 * one row per DNS item (a TEP-81 item of a DNS collection), its domain and the records the index
 * reads from its `dnsresolve`, replaced by a newer state only; filled by the detection in the
 * block's transaction. Addresses raw upper-case `text`, as the rest of this schema.
 *
 * `metadata_cache` is ours: off-chain TEP-64 documents fetched with `--metadata-fetch`, keyed by
 * the URI itself (toncenter keys `address_metadata` by address and type and refetches on a task):
 * content that changes names another URI, so a cached document never describes other content.
 * A failed fetch is kept too (`valid` false, its error), so a dead URI is not asked again before
 * `expires_at`.
 */
export const MIGRATION_0005_DNS_METADATA = `
create table dns_entries (
  nft_item_address text not null primary key,
  nft_item_owner text,
  domain text,
  dns_next_resolver text,
  dns_wallet text,
  dns_site_adnl text,
  dns_storage_bag_id text,
  last_transaction_lt bigint
);
create index dns_entries_index_1 on dns_entries (domain);
create index dns_entries_index_3 on dns_entries (dns_wallet, length(domain));
create index dns_entries_index_4 on dns_entries (nft_item_owner, length(domain)) include (domain) where (nft_item_owner = dns_wallet);

create table metadata_cache (
  uri text not null primary key,
  valid boolean not null,
  content jsonb,
  error text,
  fetched_at bigint not null,
  expires_at bigint not null
);
`;
