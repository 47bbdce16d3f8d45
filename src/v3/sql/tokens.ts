import type { V3Database } from '../db';
import type { Paging, SortOrder } from '../params/rules';
import { matchAny, SqlParams, whereClause } from './builder';

/**
 * The token tables read as ton-index-go's crud_jettons.go and crud_nft.go read them: the same
 * filters, the same ORDER BY in each case, LIMIT/OFFSET, parameterized (client values are bind
 * parameters; the column and direction words come from fixed lists).
 */

function page(p: SqlParams, paging: Paging): string {
  return ` limit ${p.bind(paging.limit)} offset ${p.bind(paging.offset)}`;
}

export interface JettonMasterDbRow {
  address: string;
  total_supply: string;
  mintable: boolean;
  admin_address: string | null;
  jetton_content: Record<string, string> | null;
  jetton_wallet_code_hash: Buffer | null;
  code_hash: Buffer | null;
  data_hash: Buffer | null;
  last_transaction_lt: string;
}

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

export interface JettonWalletDbRow {
  address: string;
  balance: string;
  owner: string;
  jetton: string;
  last_transaction_lt: string;
  code_hash: Buffer | null;
  data_hash: Buffer | null;
  mintless_is_claimed: boolean | null;
  mintless_amount: string | null;
  mintless_start_from: string | null;
  mintless_expire_at: string | null;
}

/** buildJettonWalletsQuery: its order rules in its order (address, then owner, then one jetton wins). */
export async function queryJettonWallets(
  db: V3Database,
  filter: { addresses: string[]; owners: string[]; jettons: string[]; excludeZeroBalance: boolean },
  paging: Paging,
): Promise<JettonWalletDbRow[]> {
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
  return db.query(
    `select J.address, J.balance::text as balance, J.owner, J.jetton, J.last_transaction_lt, J.code_hash, J.data_hash, J.mintless_is_claimed,
       J.mintless_amount::text as mintless_amount, J.mintless_start_from, J.mintless_expire_at
     from jetton_wallets as J${whereClause(where)}${order}${page(p, paging)}`,
    p.values,
  );
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

export interface JettonTransferDbRow {
  tx_hash: Buffer;
  tx_lt: string;
  tx_now: number;
  tx_aborted: boolean;
  query_id: string;
  amount: string;
  source: string | null;
  destination: string | null;
  jetton_wallet_address: string;
  jetton_master_address: string;
  response_destination: string | null;
  custom_payload: string | null;
  forward_ton_amount: string | null;
  forward_payload: string | null;
  trace_id: Buffer | null;
}

/** buildJettonTransfersQuery: not aborted; owner by direction (`in` destination, else source, none either). */
export async function queryJettonTransfers(
  db: V3Database,
  filter: { owners: string[]; direction?: string; wallets: string[]; master?: string } & EventRange,
  paging: Paging,
): Promise<JettonTransferDbRow[]> {
  const p = new SqlParams();
  const where: string[] = ['T.tx_aborted is false'];
  if (filter.owners.length > 0) {
    if (filter.direction !== undefined) where.push(matchAny(p, filter.direction === 'in' ? 'T.destination' : 'T.source', filter.owners));
    else where.push(`(${matchAny(p, 'T.source', filter.owners)} or ${matchAny(p, 'T.destination', filter.owners)})`);
  }
  if (filter.wallets.length > 0) where.push(matchAny(p, 'T.jetton_wallet_address', filter.wallets));
  if (filter.master !== undefined) where.push(`T.jetton_master_address = ${p.bind(filter.master)}`);
  const column = range(p, where, filter);
  return db.query(
    `select T.tx_hash, T.tx_lt, T.tx_now, T.tx_aborted, T.query_id::text as query_id, T.amount::text as amount, T.source, T.destination,
       T.jetton_wallet_address, T.jetton_master_address, T.response_destination, T.custom_payload, T.forward_ton_amount::text as forward_ton_amount,
       T.forward_payload, T.trace_id
     from jetton_transfers as T${whereClause(where)} order by ${column} ${paging.sort ?? 'desc'}${page(p, paging)}`,
    p.values,
  );
}

export interface JettonBurnDbRow {
  tx_hash: Buffer;
  tx_lt: string;
  tx_now: number;
  tx_aborted: boolean;
  query_id: string;
  owner: string | null;
  jetton_wallet_address: string;
  jetton_master_address: string;
  amount: string;
  response_destination: string | null;
  custom_payload: string | null;
  trace_id: Buffer | null;
}

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

export interface NftCollectionDbRow {
  address: string;
  next_item_index: string;
  owner_address: string | null;
  collection_content: Record<string, string> | null;
  data_hash: Buffer | null;
  code_hash: Buffer | null;
  last_transaction_lt: string;
}

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

export interface NftItemDbRow {
  address: string;
  init: boolean;
  index: string;
  collection_address: string | null;
  owner_address: string | null;
  content: Record<string, string> | null;
  last_transaction_lt: string;
  code_hash: Buffer | null;
  data_hash: Buffer | null;
  /** The collection's row (null columns when the index has no such collection). */
  c_address: string | null;
  c_next_item_index: string | null;
  c_owner_address: string | null;
  c_collection_content: Record<string, string> | null;
  c_data_hash: Buffer | null;
  c_code_hash: Buffer | null;
  c_last_transaction_lt: string | null;
}

/**
 * buildNFTItemsQuery: with its collection joined; order by id, by owner/collection/index with
 * owners, by index within one collection, by last transaction with sort_by_last_transaction_lt.
 * Sales and auctions are not indexed, so `include_on_sale` filters on the owner as it is.
 */
export async function queryNftItems(
  db: V3Database,
  filter: { addresses: string[]; owners: string[]; collections: string[]; indexes: string[]; sortByLastTransactionLt: boolean },
  paging: Paging,
): Promise<NftItemDbRow[]> {
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
  return db.query(
    `select N.address, N.init, N.index::text as index, N.collection_address, N.owner_address, N.content, N.last_transaction_lt, N.code_hash, N.data_hash,
       C.address as c_address, C.next_item_index::text as c_next_item_index, C.owner_address as c_owner_address, C.collection_content as c_collection_content,
       C.data_hash as c_data_hash, C.code_hash as c_code_hash, C.last_transaction_lt as c_last_transaction_lt
     from nft_items as N left join nft_collections as C on N.collection_address = C.address${whereClause(where)}${order}${page(p, paging)}`,
    p.values,
  );
}

export interface NftTransferDbRow {
  tx_hash: Buffer;
  tx_lt: string;
  tx_now: number;
  tx_aborted: boolean;
  query_id: string;
  nft_item_address: string;
  nft_item_index: string;
  nft_collection_address: string | null;
  old_owner: string | null;
  new_owner: string | null;
  response_destination: string | null;
  custom_payload: string | null;
  forward_amount: string | null;
  forward_payload: string | null;
  trace_id: Buffer | null;
}

/** buildNFTTransfersQuery: owner by direction (`in` new owner, else old owner, none either). */
export async function queryNftTransfers(
  db: V3Database,
  filter: { owners: string[]; direction?: string; items: string[]; collection?: string } & EventRange,
  paging: Paging,
): Promise<NftTransferDbRow[]> {
  const p = new SqlParams();
  const where: string[] = [];
  if (filter.owners.length > 0) {
    if (filter.direction !== undefined) where.push(matchAny(p, filter.direction === 'in' ? 'T.new_owner' : 'T.old_owner', filter.owners));
    else where.push(`(${matchAny(p, 'T.old_owner', filter.owners)} or ${matchAny(p, 'T.new_owner', filter.owners)})`);
  }
  if (filter.items.length > 0) where.push(matchAny(p, 'T.nft_item_address', filter.items));
  if (filter.collection !== undefined) where.push(`T.nft_collection_address = ${p.bind(filter.collection)}`);
  const column = range(p, where, filter);
  return db.query(
    `select T.tx_hash, T.tx_lt, T.tx_now, T.tx_aborted, T.query_id::text as query_id, T.nft_item_address, T.nft_item_index::text as nft_item_index,
       T.nft_collection_address, T.old_owner, T.new_owner, T.response_destination, T.custom_payload, T.forward_amount::text as forward_amount,
       T.forward_payload, T.trace_id
     from nft_transfers as T${whereClause(where)} order by ${column} ${paging.sort ?? 'desc'}${page(p, paging)}`,
    p.values,
  );
}
