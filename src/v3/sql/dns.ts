import type { DnsEntryRow } from '../../indexdb';
import type { V3Database } from '../db';

/** A dns_entries row as ton-index-go's QueryDNSRecords reads it (its columns, its order). */
export type DnsRecordDbRow = Omit<DnsEntryRow, 'last_transaction_lt'>;

/**
 * QueryDNSRecords: the entries whose wallet record is `wallet`, or whose domain is `domain`
 * exactly; shortest domain first, then by name.
 */
export async function queryDnsRecords(
  db: V3Database,
  filter: { wallet: string } | { domain: string },
  paging: { limit: number; offset: number },
): Promise<DnsRecordDbRow[]> {
  const [column, value] = 'wallet' in filter ? ['dns_wallet', filter.wallet] : ['domain', filter.domain];
  return db.query(
    `select nft_item_address, nft_item_owner, domain, dns_next_resolver, dns_wallet, dns_site_adnl, dns_storage_bag_id
     from dns_entries where ${column} = $1 order by length(domain), domain asc limit $2 offset $3`,
    [value, paging.limit, paging.offset],
  );
}

/**
 * The address book's domains (QueryAddressBookImpl): for each address that owns a DNS item whose
 * wallet record points back to it, its shortest domain.
 */
export async function queryBookDomains(db: V3Database, rawAddresses: readonly string[]): Promise<Map<string, string>> {
  if (rawAddresses.length === 0) return new Map();
  const rows = await db.query<{ nft_item_owner: string; domain: string | null }>(
    `select distinct on (nft_item_owner) nft_item_owner, domain from dns_entries
     where nft_item_owner = any($1) and nft_item_owner = dns_wallet
     order by nft_item_owner, length(domain), domain`,
    [rawAddresses],
  );
  return new Map(rows.filter((r) => r.domain !== null).map((r) => [r.nft_item_owner, r.domain!]));
}

/**
 * The same rule for one account as a scalar subquery (`account`: an SQL expression of the outer
 * query, never client text), for statements that build the address book with their page.
 */
export function bookDomainOf(account: string): string {
  return `select D.domain from dns_entries as D where D.nft_item_owner = ${account} and D.nft_item_owner = D.dns_wallet and D.domain is not null order by length(D.domain), D.domain limit 1`;
}
