import type { JettonBurnRow, JettonMasterRow, JettonTransferRow, JettonWalletRow, NftCollectionRow, NftItemRow, NftTransferRow } from '../../indexdb';
import type { V3Database } from '../db';
import type { Paging, SortOrder } from '../params/rules';
import { matchAny, SqlParams, whereClause } from './builder';
import type { JsonText } from './bundle';
import { bookDomainOf } from './dns';

/**
 * The token tables read as ton-index-go's crud_jettons.go and crud_nft.go read them: the same
 * filters, the same ORDER BY in each case, LIMIT/OFFSET, parameterized (client values are bind
 * parameters; the column and direction words come from fixed lists).
 */

/** A row of the token tables as pg reads it back: 64-bit integers arrive as text. */
type AsRead<T> = { [K in keyof T]: T[K] extends bigint ? string : T[K] };

function page(p: SqlParams, paging: Paging): string {
  return ` limit ${p.bind(paging.limit)} offset ${p.bind(paging.offset)}`;
}

export type JettonMasterDbRow = AsRead<JettonMasterRow>;

/** buildJettonMastersQuery: by id, unordered when addresses are given. */
export async function queryJettonMasters(db: V3Database, filter: { addresses: string[]; admins: string[] }, paging: Paging): Promise<JettonMasterDbRow[]> {
  const p = new SqlParams();
  const where: string[] = [];
  let order = ' order by id asc';
  if (filter.addresses.length > 0) {
    where.push(matchAny(p, 'J.address', filter.addresses));
    order = '';
  }
  if (filter.admins.length > 0) where.push(matchAny(p, 'J.admin_address', filter.admins));
  return db.query(
    `select J.address, J.total_supply::text as total_supply, J.mintable, J.admin_address, J.jetton_content, J.jetton_wallet_code_hash,
       J.code_hash, J.data_hash, J.last_transaction_lt from jetton_masters as J${whereClause(where)}${order}${page(p, paging)}`,
    p.values,
  );
}

/** With the mintless columns the detection does not fill (always null here). */
export type JettonWalletDbRow = AsRead<JettonWalletRow> & { mintless_amount: string | null; mintless_start_from: string | null; mintless_expire_at: string | null };

/** buildJettonWalletsStatement: its order rules in its order (address, then owner, then one jetton wins). */
export function buildJettonWalletsStatement(filter: { addresses: string[]; owners: string[]; jettons: string[]; excludeZeroBalance: boolean }, paging: Paging): { text: string; values: unknown[] } {
  const p = new SqlParams();
  const where: string[] = [];
  const sortColumn = paging.sort ? 'J.balance' : 'J.id';
  const sortOrder: SortOrder = paging.sort ?? 'asc';
  let order = ` order by ${sortColumn} ${sortOrder}`;
  if (filter.addresses.length > 0) {
    where.push(matchAny(p, 'J.address', filter.addresses));
    order = ' order by J.address asc';
  }
  if (filter.owners.length > 0) {
    where.push(matchAny(p, 'J.owner', filter.owners));
    order = ` order by J.owner, ${sortColumn} ${sortOrder}`;
  }
  if (filter.jettons.length === 1) {
    where.push(`J.jetton = ${p.bind(filter.jettons[0])}`);
    order = ` order by J.jetton, ${sortColumn} ${sortOrder}`;
  } else if (filter.jettons.length > 1) {
    where.push(matchAny(p, 'J.jetton', filter.jettons));
  }
  if (filter.excludeZeroBalance) where.push('J.balance + coalesce(J.mintless_amount, 0) > 0');
  return {
    text: `select J.address, J.balance::text as balance, J.owner, J.jetton, J.last_transaction_lt::text as last_transaction_lt, J.code_hash, J.data_hash, J.mintless_is_claimed,
       J.mintless_amount::text as mintless_amount, J.mintless_start_from::text as mintless_start_from, J.mintless_expire_at::text as mintless_expire_at
     from jetton_wallets as J${whereClause(where)}${order}${page(p, paging)}`,
    values: p.values,
  };
}

export async function queryJettonWallets(db: V3Database, filter: { addresses: string[]; owners: string[]; jettons: string[]; excludeZeroBalance: boolean }, paging: Paging): Promise<JettonWalletDbRow[]> {
  const { text, values } = buildJettonWalletsStatement(filter, paging);
  return db.query(text, values);
}

export interface EventRange {
  startUtime?: number;
  endUtime?: number;
  startLt?: bigint;
  endLt?: bigint;
}

/** The time and lt filters of the event routes; ordering by tx_now once a time bound is given. */
function range(p: SqlParams, where: string[], r: EventRange): string {
  let column = 'T.tx_lt';
  if (r.startUtime !== undefined) {
    where.push(`T.tx_now >= ${p.bind(r.startUtime)}`);
    column = 'T.tx_now';
  }
  if (r.endUtime !== undefined) {
    where.push(`T.tx_now <= ${p.bind(r.endUtime)}`);
    column = 'T.tx_now';
  }
  if (r.startLt !== undefined) where.push(`T.tx_lt >= ${p.bind(r.startLt.toString())}`);
  if (r.endLt !== undefined) where.push(`T.tx_lt <= ${p.bind(r.endLt.toString())}`);
  return column;
}

export type JettonTransferDbRow = Omit<AsRead<JettonTransferRow>, 'mc_seqno'>;

/** buildJettonTransfersQuery: not aborted; owner by direction (`in` destination, else source, none either). */
export function buildJettonTransfersStatement(filter: { owners: string[]; direction?: string; wallets: string[]; master?: string } & EventRange, paging: Paging): { text: string; values: unknown[] } {
  const p = new SqlParams();
  const where: string[] = ['T.tx_aborted is false'];
  if (filter.owners.length > 0) {
    if (filter.direction !== undefined) where.push(matchAny(p, filter.direction === 'in' ? 'T.destination' : 'T.source', filter.owners));
    else where.push(`(${matchAny(p, 'T.source', filter.owners)} or ${matchAny(p, 'T.destination', filter.owners)})`);
  }
  if (filter.wallets.length > 0) where.push(matchAny(p, 'T.jetton_wallet_address', filter.wallets));
  if (filter.master !== undefined) where.push(`T.jetton_master_address = ${p.bind(filter.master)}`);
  const column = range(p, where, filter);
  return {
    text: `select T.tx_hash, T.tx_lt::text as tx_lt, T.tx_now, T.tx_aborted, T.query_id::text as query_id, T.amount::text as amount, T.source, T.destination,
       T.jetton_wallet_address, T.jetton_master_address, T.response_destination, T.custom_payload, T.forward_ton_amount::text as forward_ton_amount,
       T.forward_payload, T.trace_id
     from jetton_transfers as T${whereClause(where)} order by ${column} ${paging.sort ?? 'desc'}${page(p, paging)}`,
    values: p.values,
  };
}

export async function queryJettonTransfers(db: V3Database, filter: { owners: string[]; direction?: string; wallets: string[]; master?: string } & EventRange, paging: Paging): Promise<JettonTransferDbRow[]> {
  const { text, values } = buildJettonTransfersStatement(filter, paging);
  return db.query(text, values);
}

export type JettonBurnDbRow = Omit<AsRead<JettonBurnRow>, 'mc_seqno'>;

/** buildJettonBurnsQuery (aborted burns included, as there). */
export async function queryJettonBurns(
  db: V3Database,
  filter: { owners: string[]; wallets: string[]; master?: string } & EventRange,
  paging: Paging,
): Promise<JettonBurnDbRow[]> {
  const p = new SqlParams();
  const where: string[] = [];
  if (filter.owners.length > 0) where.push(matchAny(p, 'T.owner', filter.owners));
  if (filter.wallets.length > 0) where.push(matchAny(p, 'T.jetton_wallet_address', filter.wallets));
  if (filter.master !== undefined) where.push(`T.jetton_master_address = ${p.bind(filter.master)}`);
  const column = range(p, where, filter);
  return db.query(
    `select T.tx_hash, T.tx_lt, T.tx_now, T.tx_aborted, T.query_id::text as query_id, T.owner, T.jetton_wallet_address, T.jetton_master_address,
       T.amount::text as amount, T.response_destination, T.custom_payload, T.trace_id
     from jetton_burns as T${whereClause(where)} order by ${column} ${paging.sort ?? 'desc'}${page(p, paging)}`,
    p.values,
  );
}

export type NftCollectionDbRow = AsRead<NftCollectionRow>;

/** buildNFTCollectionsQuery: by id, unordered with a filter. */
export async function queryNftCollections(db: V3Database, filter: { addresses: string[]; owners: string[] }, paging: Paging): Promise<NftCollectionDbRow[]> {
  const p = new SqlParams();
  const where: string[] = [];
  let order = ' order by id asc';
  if (filter.addresses.length > 0) {
    where.push(matchAny(p, 'N.address', filter.addresses));
    order = '';
  }
  if (filter.owners.length > 0) {
    where.push(matchAny(p, 'N.owner_address', filter.owners));
    order = '';
  }
  return db.query(
    `select N.address, N.next_item_index::text as next_item_index, N.owner_address, N.collection_content, N.data_hash, N.code_hash, N.last_transaction_lt
     from nft_collections as N${whereClause(where)}${order}${page(p, paging)}`,
    p.values,
  );
}

/** An item with its collection's columns (`c_…`, null when the index has no such collection). */
export type NftItemDbRow = AsRead<NftItemRow> & {
  c_address: string | null;
  c_next_item_index: string | null;
  c_owner_address: string | null;
  c_collection_content: Record<string, string> | null;
  c_data_hash: Buffer | null;
  c_code_hash: Buffer | null;
  c_last_transaction_lt: string | null;
};

/**
 * buildNFTItemsQuery: with its collection joined; order by id, by owner/collection/index with
 * owners, by index within one collection, by last transaction with sort_by_last_transaction_lt.
 * Sales and auctions are not indexed, so `include_on_sale` filters on the owner as it is.
 */
export function buildNftItemsStatement(filter: { addresses: string[]; owners: string[]; collections: string[]; indexes: string[]; sortByLastTransactionLt: boolean }, paging: Paging): { text: string; values: unknown[] } {
  const p = new SqlParams();
  const where: string[] = [];
  let order = ' order by N.id asc';
  if (filter.addresses.length > 0) {
    where.push(matchAny(p, 'N.address', filter.addresses));
    order = '';
  }
  if (filter.owners.length > 0) {
    where.push(matchAny(p, 'N.owner_address', filter.owners));
    order = ' order by N.owner_address, N.collection_address, N.index';
  }
  if (filter.collections.length === 1) {
    where.push(`N.collection_address = ${p.bind(filter.collections[0])}`);
    order = ' order by N.collection_address, N.index';
  } else if (filter.collections.length > 1) {
    where.push(matchAny(p, 'N.collection_address', filter.collections));
  }
  if (filter.indexes.length > 0) where.push(`N.index = any(${p.bind(filter.indexes)}::numeric[])`);
  if (filter.sortByLastTransactionLt) order = ' order by N.last_transaction_lt desc';
  return {
    text: `select N.address, N.init, N.index::text as index, N.collection_address, N.owner_address, N.content, N.last_transaction_lt::text as last_transaction_lt, N.code_hash, N.data_hash,
       C.address as c_address, C.next_item_index::text as c_next_item_index, C.owner_address as c_owner_address, C.collection_content as c_collection_content,
       C.data_hash as c_data_hash, C.code_hash as c_code_hash, C.last_transaction_lt::text as c_last_transaction_lt
     from nft_items as N left join nft_collections as C on N.collection_address = C.address${whereClause(where)}${order}${page(p, paging)}`,
    values: p.values,
  };
}

export async function queryNftItems(db: V3Database, filter: { addresses: string[]; owners: string[]; collections: string[]; indexes: string[]; sortByLastTransactionLt: boolean }, paging: Paging): Promise<NftItemDbRow[]> {
  const { text, values } = buildNftItemsStatement(filter, paging);
  return db.query(text, values);
}

export type NftTransferDbRow = Omit<AsRead<NftTransferRow>, 'mc_seqno'>;

/** buildNFTTransfersQuery: owner by direction (`in` new owner, else old owner, none either). */
export function buildNftTransfersStatement(filter: { owners: string[]; direction?: string; items: string[]; collection?: string } & EventRange, paging: Paging): { text: string; values: unknown[] } {
  const p = new SqlParams();
  const where: string[] = [];
  if (filter.owners.length > 0) {
    if (filter.direction !== undefined) where.push(matchAny(p, filter.direction === 'in' ? 'T.new_owner' : 'T.old_owner', filter.owners));
    else where.push(`(${matchAny(p, 'T.old_owner', filter.owners)} or ${matchAny(p, 'T.new_owner', filter.owners)})`);
  }
  if (filter.items.length > 0) where.push(matchAny(p, 'T.nft_item_address', filter.items));
  if (filter.collection !== undefined) where.push(`T.nft_collection_address = ${p.bind(filter.collection)}`);
  const column = range(p, where, filter);
  return {
    text: `select T.tx_hash, T.tx_lt::text as tx_lt, T.tx_now, T.tx_aborted, T.query_id::text as query_id, T.nft_item_address, T.nft_item_index::text as nft_item_index,
       T.nft_collection_address, T.old_owner, T.new_owner, T.response_destination, T.custom_payload, T.forward_amount::text as forward_amount,
       T.forward_payload, T.trace_id
     from nft_transfers as T${whereClause(where)} order by ${column} ${paging.sort ?? 'desc'}${page(p, paging)}`,
    values: p.values,
  };
}

export async function queryNftTransfers(db: V3Database, filter: { owners: string[]; direction?: string; items: string[]; collection?: string } & EventRange, paging: Paging): Promise<NftTransferDbRow[]> {
  const { text, values } = buildNftTransfersStatement(filter, paging);
  return db.query(text, values);
}

/** The token lists whose pages are assembled from PostgreSQL's JSON text (src/v3/answers), by their answer's key. */
export type TokenList = 'jetton_wallets' | 'jetton_transfers' | 'nft_items' | 'nft_transfers';

/**
 * Of each list's rows: the columns naming the accounts of its `address_book` and `metadata`, in
 * the order the route lists them; its bytea columns (Buffers for the converters, as the driver
 * reads them).
 */
export const TOKEN_LISTS: Readonly<Record<TokenList, { readonly accounts: readonly string[]; readonly bytea: readonly string[] }>> = {
  jetton_wallets: { accounts: ['address', 'owner', 'jetton'], bytea: ['code_hash', 'data_hash'] },
  jetton_transfers: { accounts: ['source', 'destination', 'jetton_wallet_address', 'jetton_master_address', 'response_destination'], bytea: ['tx_hash', 'trace_id'] },
  nft_items: { accounts: ['address', 'collection_address', 'owner_address'], bytea: ['code_hash', 'data_hash', 'c_data_hash', 'c_code_hash'] },
  nft_transfers: { accounts: ['nft_item_address', 'nft_collection_address', 'old_owner', 'new_owner', 'response_destination'], bytea: ['tx_hash', 'trace_id'] },
};

/**
 * A token list's page as PostgreSQL's JSON text, in one statement (all columns text, for
 * V3Database.queryTextBytes): `rows` the page's rows in its order, each as the driver reads it
 * (bigints and numerics cast to text by the page's statement; bytea as PostgreSQL's JSON text of
 * it, `\x...`); `accounts` the accounts they name, each once, in their first appearance's order
 * (the metadata's input, read on the event loop); `codes` (with `addressBook`) those accounts' code
 * hashes and domains (as sql/bundle.ts reads them).
 */
export interface TokenPageText {
  readonly rows: JsonText;
  readonly accounts: JsonText;
  readonly codes?: JsonText;
}

export async function queryTokenPageText(
  db: V3Database,
  list: TokenList,
  page: { text: string; values: unknown[] },
  addressBook: boolean,
): Promise<TokenPageText> {
  const named = TOKEN_LISTS[list].accounts.map((column, k) => `(${k + 1}::bigint, R.${column})`).join(', ');
  const codes = addressBook
    ? `, (select json_agg(C) from (select L.account, L.code_hash, (${bookDomainOf('L.account')}) as domain from latest_account_states as L
         where L.account in (select N.account from N)) as C)::text as codes`
    : '';
  const statement = `with R as materialized (select row_number() over () as ord_, Q.* from (${page.text}) as Q),
    N as (select A.account, min(array[R.ord_, A.k]) as first_ from R cross join lateral (values ${named}) as A(k, account)
      where A.account is not null group by A.account)
    select (select json_agg(R order by R.ord_) from R)::text as rows, (select json_agg(N.account order by N.first_) from N)::text as accounts${codes}`;
  const [row] = (await (db.queryTextBytes ?? db.query).call(db, statement, page.values)) as { rows: JsonText; accounts: JsonText; codes?: JsonText }[];
  return { rows: row?.rows ?? null, accounts: row?.accounts ?? null, ...(addressBook ? { codes: row?.codes ?? null } : {}) };
}
