import type { V3Database } from '../db';
import type { CachedDocument, MetadataTokenType } from '../models/metadata';

/** A token of QueryMetadataImpl's union: its type, its detected content, its index (items). */
export interface TokenContentDbRow {
  address: string;
  type: Exclude<MetadataTokenType, 'jetton_wallets'>;
  content: Record<string, unknown> | null;
  nft_index: string | null;
}

export interface JettonWalletInfoDbRow {
  address: string;
  owner: string;
  jetton: string;
  balance: string | null;
}

/** queryJettonWalletsTokenInfo: the jetton wallets among the addresses. */
export async function queryWalletInfos(db: V3Database, rawAddresses: readonly string[]): Promise<JettonWalletInfoDbRow[]> {
  return db.query('select address, owner, jetton, balance::text as balance from jetton_wallets where address = any($1)', [rawAddresses]);
}

/** The NFT items, collections and jetton masters among the addresses, with their content. */
export async function queryTokenContents(db: V3Database, rawAddresses: readonly string[]): Promise<TokenContentDbRow[]> {
  return db.query(
    `select address, 'nft_items' as type, content, index::text as nft_index from nft_items where address = any($1)
     union all
     select address, 'nft_collections' as type, collection_content as content, null as nft_index from nft_collections where address = any($1)
     union all
     select address, 'jetton_masters' as type, jetton_content as content, null as nft_index from jetton_masters where address = any($1)`,
    [rawAddresses],
  );
}

/** The cached documents of the URIs (migration 5's metadata_cache). */
export async function queryCachedDocuments(db: V3Database, uris: readonly string[]): Promise<Map<string, CachedDocument>> {
  if (uris.length === 0) return new Map();
  const rows = await db.query<{ uri: string; valid: boolean; content: Record<string, unknown> | null; expires_at: string }>(
    'select uri, valid, content, expires_at from metadata_cache where uri = any($1)',
    [uris],
  );
  return new Map(rows.map((r) => [r.uri, { valid: r.valid, content: r.content, expires_at: Number(r.expires_at) }]));
}
