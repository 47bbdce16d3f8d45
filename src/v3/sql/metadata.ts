import type { V3Database } from '../db';
import {
  contentUri,
  jettonWalletMetadata,
  tokenMetadata,
  type AddressMetadataJson,
  type CachedDocument,
  type MetadataTokenType,
  type TokenMetadata,
} from '../models/metadata';

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

/** Where URIs the cache lacks are handed (the background fetcher of --metadata-fetch). */
export interface MetadataFetchRequests {
  request(uris: readonly string[]): void;
}

/**
 * QueryMetadataImpl: the token_info of every token among the addresses (jetton wallets also bring
 * their masters). URIs the cache lacks (or holds expired) are handed to `fetcher`, not awaited.
 * `offIndex` is called when the answer depends on `metadata_cache` (a token with an off-chain URI:
 * its row, or its absence, changes when a fetch ends, with no commit of the index).
 */
export async function queryAddressMetadata(
  db: V3Database,
  addresses: readonly (string | null)[],
  fetcher?: MetadataFetchRequests,
  offIndex?: () => void,
): Promise<Record<string, AddressMetadataJson>> {
  const named = [...new Set(addresses.filter((a): a is string => a !== null))];
  if (named.length === 0) return {};
  const infos = new Map<string, TokenMetadata[]>();
  const add = (address: string, entry: TokenMetadata) => infos.set(address, [...(infos.get(address) ?? []), entry]);
  const wallets = await queryWalletInfos(db, named);
  for (const w of wallets) add(w.address, jettonWalletMetadata(w.owner, w.jetton, w.balance));
  const asked = new Set(named);
  const tokens = await queryTokenContents(db, [...named, ...new Set(wallets.map((w) => w.jetton).filter((j) => !asked.has(j)))]);
  const uris = [...new Set(tokens.map((t) => contentUri(t.content)).filter((u): u is string => u !== undefined))];
  if (uris.length > 0) offIndex?.();
  const cached = await queryCachedDocuments(db, uris);
  if (fetcher) {
    const now = Date.now() / 1000;
    const wanted = uris.filter((u) => {
      const doc = cached.get(u);
      return doc === undefined || doc.expires_at < now;
    });
    if (wanted.length > 0) fetcher.request(wanted);
  }
  for (const t of tokens) {
    const uri = contentUri(t.content);
    add(t.address, tokenMetadata(t.type, t.content, t.nft_index, uri === undefined ? undefined : cached.get(uri)));
  }
  const out: Record<string, AddressMetadataJson> = {};
  for (const [address, list] of infos) out[address] = { is_indexed: list.every((e) => e.indexed), token_info: list.map((e) => e.info) };
  return out;
}
