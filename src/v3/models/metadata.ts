/**
 * ton-index-go's metadata answers (models.Metadata: raw address → `{is_indexed, token_info}`) from
 * the detected content of a token and, for content that names a URI, the fetched document
 * (`--metadata-fetch`), as toncenter's metadata fetcher makes its address_metadata rows: the
 * standard fields (name, symbol, description, image) taken out, every other key in `extra`, the
 * on-chain values over the off-chain ones (semi-chain content), and content that has no URI read
 * at once (nothing to fetch: it is indexed as soon as the contract is).
 */

export type MetadataTokenType = 'jetton_masters' | 'jetton_wallets' | 'nft_collections' | 'nft_items';

/** models.TokenInfo, its fields in its order (absent ones left out, as its omitempty). */
export interface TokenInfoJson {
  valid?: boolean;
  type?: string;
  name?: string;
  symbol?: string;
  description?: string;
  image?: string;
  nft_index?: string;
  is_nsfw?: boolean;
  is_scam?: boolean;
  extra?: Record<string, unknown>;
}

export interface AddressMetadataJson {
  is_indexed: boolean;
  token_info: TokenInfoJson[];
}

/** A fetched document of the cache (sql/metadata.ts). */
export interface CachedDocument {
  readonly valid: boolean;
  readonly content: Record<string, unknown> | null;
  /** Unix seconds. */
  readonly expires_at: number;
}

interface Fields {
  name?: string;
  symbol?: string;
  description?: string;
  image?: string;
  extra?: Record<string, unknown>;
}

const STANDARD = new Set(['name', 'symbol', 'description', 'image']);

/** getMetadataFromJson: the four standard string fields; every other key (or a non-string one) in extra. */
function fieldsOf(document: Record<string, unknown>): Fields {
  const fields: Fields = {};
  for (const [key, value] of Object.entries(document)) {
    if (key === '_type') continue;
    if (typeof value === 'string' && STANDARD.has(key)) fields[key as 'name'] = value;
    else (fields.extra ??= {})[key] = value;
  }
  return fields;
}

/** hasAnyData: a jetton needs its symbol, an NFT item a name or a domain, the rest any of name, description, image. */
function hasAnyData(fields: Fields, type: MetadataTokenType): boolean {
  if (type === 'jetton_masters') return fields.symbol !== undefined;
  if (type === 'nft_items') return fields.name !== undefined || (fields.extra !== undefined && 'domain' in fields.extra);
  return fields.name !== undefined || fields.description !== undefined || fields.image !== undefined;
}

/** merge: `over`'s fields replace `base`'s; extras joined. */
function merged(base: Fields, over: Fields): Fields {
  const out: Fields = { ...base };
  for (const key of ['name', 'description', 'image', 'symbol'] as const) if (over[key] !== undefined) out[key] = over[key];
  if (over.extra) out.extra = { ...(base.extra ?? {}), ...over.extra };
  return out;
}

/** The URI content names (toncenter's extractURL: `url`, then `uri`). */
export function contentUri(content: Record<string, unknown> | null): string | undefined {
  if (!content) return undefined;
  const url = content['url'];
  if (typeof url === 'string') return url;
  const uri = content['uri'];
  return typeof uri === 'string' ? uri : undefined;
}

function validInfo(type: MetadataTokenType, fields: Fields, nftIndex: string | null): TokenInfoJson {
  const info: TokenInfoJson = { valid: true, type };
  if (fields.name !== undefined) info.name = fields.name;
  if (fields.symbol !== undefined) info.symbol = fields.symbol;
  if (fields.description !== undefined) info.description = fields.description;
  if (fields.image !== undefined) info.image = fields.image;
  if (nftIndex !== null) info.nft_index = nftIndex;
  // No NSFW or scam lists here: both false, as ton-index-go answers a token with no flags row.
  info.is_nsfw = false;
  info.is_scam = false;
  if (fields.extra && Object.keys(fields.extra).length > 0) info.extra = fields.extra;
  return info;
}

function invalidInfo(type: MetadataTokenType, nftIndex: string | null): TokenInfoJson {
  return nftIndex === null ? { valid: false, type } : { valid: false, type, nft_index: nftIndex };
}

/** What one token says: its token_info, whether it is indexed, and the URI to fetch when it is not. */
export interface TokenMetadata {
  readonly info: TokenInfoJson;
  readonly indexed: boolean;
}

/**
 * One jetton master, NFT collection or item: `content` as detection stored it, `cached` the
 * document of its URI when one was fetched (fetchContent's rules: a failed fetch falls back to the
 * on-chain fields when they are enough, else the token is `valid: false`; no document yet: not indexed).
 */
export function tokenMetadata(
  type: MetadataTokenType,
  content: Record<string, unknown> | null,
  nftIndex: string | null,
  cached: CachedDocument | undefined,
): TokenMetadata {
  const onchain = fieldsOf(content ?? {});
  const uri = contentUri(content);
  if (uri === undefined)
    return { info: hasAnyData(onchain, type) ? validInfo(type, onchain, nftIndex) : invalidInfo(type, nftIndex), indexed: true };
  if (!cached) return { info: nftIndex === null ? { type } : { type, nft_index: nftIndex }, indexed: false };
  if (cached.valid && cached.content) return { info: validInfo(type, merged(fieldsOf(cached.content), onchain), nftIndex), indexed: true };
  return { info: hasAnyData(onchain, type) ? validInfo(type, onchain, nftIndex) : invalidInfo(type, nftIndex), indexed: true };
}

/** queryJettonWalletsTokenInfo's entry: the wallet's owner, jetton and balance. */
export function jettonWalletMetadata(owner: string, jetton: string, balance: string | null): TokenMetadata {
  const extra: Record<string, unknown> = { owner, jetton };
  if (balance !== null) extra['balance'] = balance;
  return { info: { valid: true, type: 'jetton_wallets', extra }, indexed: true };
}
