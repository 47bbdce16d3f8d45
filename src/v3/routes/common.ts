import type { MessageRow } from '../models/message';
import { toTransactionJson } from '../models/transaction';
import { parseGroup, type V3Query } from '../params/query';
import {
  checkPaging,
  readList,
  readSingle,
  toAccount,
  toHash,
  toInt32,
  toShard,
  toUint64,
  toUtime,
  type Paging,
} from '../params/rules';
import { addressBookOf, queryAddressBook, type AddressBookEntry } from '../sql/accounts';
import { messagesOf, type LoadedTransactions, type LoadOptions } from '../sql/transactions';
import type { RouteContext, RouteParameter } from './route';
import { contentUri, jettonWalletMetadata, tokenMetadata, type AddressMetadataJson, type TokenMetadata } from '../models/metadata';
import { queryCachedDocuments, queryTokenContents, queryWalletInfos } from '../sql/metadata';

/** models.BlockRequest. */
export function blockGroup(query: V3Query) {
  return parseGroup((field) => ({
    workchain: field(() => readSingle(query, 'workchain', toInt32)),
    shard: field(() => readSingle(query, 'shard', toShard)),
    seqno: field(() => readSingle(query, 'seqno', toInt32)),
    rootHash: field(() => readSingle(query, 'root_hash', toHash)),
    fileHash: field(() => readSingle(query, 'file_hash', toHash)),
    mcSeqno: field(() => readSingle(query, 'mc_seqno', toInt32)),
  }));
}

/** models.UtimeRequest. */
export function utimeGroup(query: V3Query) {
  return parseGroup((field) => ({
    startUtime: field(() => readSingle(query, 'start_utime', toUtime)),
    endUtime: field(() => readSingle(query, 'end_utime', toUtime)),
  }));
}

/** models.LtRequest. */
export function ltGroup(query: V3Query) {
  return parseGroup((field) => ({
    startLt: field(() => readSingle(query, 'start_lt', toUint64)),
    endLt: field(() => readSingle(query, 'end_lt', toUint64)),
  }));
}

/** models.LimitRequest, then limitQuery/getSortOrder's checks. */
export function pagingGroup(query: V3Query): Paging {
  const raw = parseGroup((field) => ({
    limit: field(() => readSingle(query, 'limit', toInt32)),
    offset: field(() => readSingle(query, 'offset', toInt32)),
    sort: query.single('sort'),
  }));
  return checkPaging(raw);
}

/** `seqno` read as fiber's c.QueryInt: anything unreadable is 0. */
export function queryIntOrZero(query: V3Query, name: string): number {
  const value = query.single(name);
  const parsed = value === undefined ? undefined : toInt32(value);
  return parsed ?? 0;
}

export const hashList = (query: V3Query, name: string) => readList(query, name, toHash);
export const accountList = (query: V3Query, name: string) => readList(query, name, toAccount);

export const PAGING_PARAMETERS: readonly RouteParameter[] = [
  { name: 'limit', type: 'integer', description: 'Rows to return, 1..1000 (default 100).' },
  { name: 'offset', type: 'integer', description: 'Rows to skip (at most 100000, see docs/v3.md).' },
  { name: 'sort', type: 'string', description: 'asc or desc (also a, d).' },
];
export const RANGE_PARAMETERS: readonly RouteParameter[] = [
  { name: 'start_utime', type: 'integer' },
  { name: 'end_utime', type: 'integer' },
  { name: 'start_lt', type: 'integer' },
  { name: 'end_lt', type: 'integer' },
];

/**
 * `address_book` of a set of raw addresses, or `{}` when the client asked for none. `codes`: their
 * code hashes when the answer's statement looked them up already (no statement of its own then).
 */
export async function addressBookFor(
  context: RouteContext,
  raw: Iterable<string>,
  known?: { codes?: ReadonlyMap<string, Buffer | null>; domains?: ReadonlyMap<string, string> },
): Promise<Record<string, AddressBookEntry>> {
  if (context.settings.noAddressBook) return {};
  const book = known?.codes
    ? addressBookOf(raw, known.codes, context.settings.testnet, known.domains ?? new Map())
    : await queryAddressBook(context.db, raw, context.settings.testnet);
  return Object.fromEntries(book);
}

/** Load the address book's code hashes with the transactions (one statement) unless none is wanted. */
export function loadOptions(context: RouteContext): LoadOptions {
  return { addressBook: !context.settings.noAddressBook };
}

/** The accounts a page of transactions names (account, in_msg source, out_msgs destinations). */
export function transactionAddresses(loaded: LoadedTransactions): string[] {
  const out: string[] = [];
  for (const row of loaded.rows) {
    out.push(row.account);
    for (const message of messagesOf(loaded, row)) {
      if (message.direction === 'in' && message.source) out.push(message.source);
      if (message.direction === 'out' && message.destination) out.push(message.destination);
    }
  }
  return out;
}

/** models.TransactionsResponse. */
export async function transactionsResponse(context: RouteContext, loaded: LoadedTransactions) {
  const transactions = loaded.rows.map((row) => toTransactionJson(row, messagesOf(loaded, row), loaded.states));
  const addressBook = loaded.rows.length === 0 ? {} : await addressBookFor(context, transactionAddresses(loaded), loaded);
  return { transactions, address_book: addressBook };
}

export function messageAddresses(rows: readonly MessageRow[]): string[] {
  return rows.flatMap((m) => [m.source, m.destination].filter((a): a is string => a !== null));
}

export const raws = (query: V3Query, name: string) => accountList(query, name).map((a) => a.raw);

/**
 * QueryMetadataImpl: the token_info of every token among the addresses (jetton wallets also bring
 * their masters), `{}` when the client asked for none; URIs the cache lacks (or holds expired) are
 * handed to the fetcher, not awaited.
 */
export async function metadataFor(context: RouteContext, addresses: readonly (string | null)[]): Promise<Record<string, AddressMetadataJson>> {
  const named = [...new Set(addresses.filter((a): a is string => a !== null))];
  if (context.settings.noMetadata || named.length === 0) return {};
  const infos = new Map<string, TokenMetadata[]>();
  const add = (address: string, entry: TokenMetadata) => infos.set(address, [...(infos.get(address) ?? []), entry]);
  const wallets = await queryWalletInfos(context.db, named);
  for (const w of wallets) add(w.address, jettonWalletMetadata(w.owner, w.jetton, w.balance));
  const asked = new Set(named);
  const tokens = await queryTokenContents(context.db, [...named, ...new Set(wallets.map((w) => w.jetton).filter((j) => !asked.has(j)))]);
  const uris = [...new Set(tokens.map((t) => contentUri(t.content)).filter((u): u is string => u !== undefined))];
  const cached = await queryCachedDocuments(context.db, uris);
  if (context.metadataFetch) {
    const now = Date.now() / 1000;
    const wanted = uris.filter((u) => {
      const doc = cached.get(u);
      return doc === undefined || doc.expires_at < now;
    });
    if (wanted.length > 0) context.metadataFetch.request(wanted);
  }
  for (const t of tokens) {
    const uri = contentUri(t.content);
    add(t.address, tokenMetadata(t.type, t.content, t.nft_index, uri === undefined ? undefined : cached.get(uri)));
  }
  const out: Record<string, AddressMetadataJson> = {};
  for (const [address, list] of infos) out[address] = { is_indexed: list.every((e) => e.indexed), token_info: list.map((e) => e.info) };
  return out;
}

/** `address_book` of the accounts an answer names, `{}` when it names none. */
export async function bookOf(context: RouteContext, addresses: (string | null)[]) {
  const named = addresses.filter((a): a is string => a !== null);
  return named.length === 0 ? {} : addressBookFor(context, named);
}

/** `address_book` and `metadata` of the accounts an answer names (the token routes' pair). */
export async function bookAndMetadataOf(context: RouteContext, addresses: (string | null)[]) {
  return { address_book: await bookOf(context, addresses), metadata: await metadataFor(context, addresses) };
}

/**
 * The owner of the event routes: `owner_address` (a list), else `address` (one, taken only when
 * it reads as an address: ton-index-go ignores an unreadable one).
 */
export function ownerList(query: V3Query): string[] {
  const owners = raws(query, 'owner_address');
  if (owners.length > 0 || query.list('owner_address').length > 0) return owners;
  const alias = query.single('address');
  const parsed = alias ? toAccount(alias) : undefined;
  return parsed ? [parsed.raw] : [];
}
