import type { ClientBase } from 'pg';
import { insertMultisigVestingStates, type MultisigVestingRows } from './multisigVesting';

/**
 * The token rows one masterchain block adds (toncenter's tables, migration 3): the detected state
 * of every jetton master/wallet and NFT collection/item its blocks touched, the interfaces found
 * per code hash, and the transfers and burns of its transactions. Written inside the block's
 * transaction (the caller's BEGIN/COMMIT), so they move with the checkpoint.
 */

/** The standard interfaces the detection looks for (code_interfaces.interfaces). */
export type TokenInterface = 'jetton_master' | 'jetton_wallet' | 'nft_collection' | 'nft_item' | 'multisig' | 'multisig_order' | 'vesting';

export interface CodeInterfacesRow {
  code_hash: Buffer;
  interfaces: TokenInterface[];
}

export interface JettonMasterRow {
  address: string;
  total_supply: string;
  mintable: boolean;
  admin_address: string | null;
  /** TEP-64 content as toncenter keeps it: the on-chain attributes, or `{"uri": …}`. */
  jetton_content: Record<string, string>;
  jetton_wallet_code_hash: Buffer;
  last_transaction_lt: bigint;
  code_hash: Buffer;
  data_hash: Buffer;
}

export interface JettonWalletRow {
  address: string;
  balance: string;
  owner: string;
  jetton: string;
  last_transaction_lt: bigint;
  code_hash: Buffer;
  data_hash: Buffer;
  mintless_is_claimed: boolean | null;
}

export interface NftCollectionRow {
  address: string;
  next_item_index: string;
  owner_address: string | null;
  collection_content: Record<string, string>;
  last_transaction_lt: bigint;
  code_hash: Buffer;
  data_hash: Buffer;
}

export interface NftItemRow {
  address: string;
  init: boolean;
  index: string;
  collection_address: string | null;
  owner_address: string | null;
  content: Record<string, string>;
  last_transaction_lt: bigint;
  code_hash: Buffer;
  data_hash: Buffer;
}

interface TokenEventBase {
  tx_hash: Buffer;
  tx_lt: bigint;
  tx_now: number;
  tx_aborted: boolean;
  mc_seqno: number;
  query_id: string;
  trace_id: Buffer | null;
}

export interface JettonTransferRow extends TokenEventBase {
  amount: string;
  source: string | null;
  destination: string | null;
  jetton_wallet_address: string;
  jetton_master_address: string;
  response_destination: string | null;
  /** base64 BoC, as toncenter keeps it. */
  custom_payload: string | null;
  forward_ton_amount: string;
  forward_payload: string | null;
}

export interface JettonBurnRow extends TokenEventBase {
  owner: string | null;
  jetton_wallet_address: string;
  jetton_master_address: string;
  amount: string;
  response_destination: string | null;
  custom_payload: string | null;
}

export interface NftTransferRow extends TokenEventBase {
  nft_item_address: string;
  nft_item_index: string;
  nft_collection_address: string | null;
  old_owner: string | null;
  new_owner: string | null;
  response_destination: string | null;
  custom_payload: string | null;
  forward_amount: string;
  forward_payload: string | null;
}

/** A TEP-81 DNS item's domain and records (toncenter's dns_entries, migration 5). */
export interface DnsEntryRow {
  nft_item_address: string;
  nft_item_owner: string | null;
  domain: string;
  dns_next_resolver: string | null;
  dns_wallet: string | null;
  /** 64 hex digits, upper-case as toncenter's Bits256 text. */
  dns_site_adnl: string | null;
  dns_storage_bag_id: string | null;
  last_transaction_lt: bigint;
}

/** The detected contracts of one masterchain block (the states after it). */
export interface TokenStateRows extends MultisigVestingRows {
  codeInterfaces: CodeInterfacesRow[];
  jettonMasters: JettonMasterRow[];
  jettonWallets: JettonWalletRow[];
  nftCollections: NftCollectionRow[];
  nftItems: NftItemRow[];
  dnsEntries: DnsEntryRow[];
}

export interface TokenEventRows {
  jettonTransfers: JettonTransferRow[];
  jettonBurns: JettonBurnRow[];
  nftTransfers: NftTransferRow[];
}

type Column = readonly [name: string, arrayType: string, cast?: string];

const JETTON_MASTER: readonly Column[] = [
  ['address', 'text'], ['total_supply', 'numeric'], ['mintable', 'bool'], ['admin_address', 'text'], ['jetton_content', 'text', 'jsonb'],
  ['jetton_wallet_code_hash', 'bytea'], ['last_transaction_lt', 'int8'], ['code_hash', 'bytea'], ['data_hash', 'bytea'],
];
const JETTON_WALLET: readonly Column[] = [
  ['address', 'text'], ['balance', 'numeric'], ['owner', 'text'], ['jetton', 'text'], ['last_transaction_lt', 'int8'], ['code_hash', 'bytea'],
  ['data_hash', 'bytea'], ['mintless_is_claimed', 'bool'],
];
const NFT_COLLECTION: readonly Column[] = [
  ['address', 'text'], ['next_item_index', 'numeric'], ['owner_address', 'text'], ['collection_content', 'text', 'jsonb'],
  ['last_transaction_lt', 'int8'], ['code_hash', 'bytea'], ['data_hash', 'bytea'],
];
const NFT_ITEM: readonly Column[] = [
  ['address', 'text'], ['init', 'bool'], ['index', 'numeric'], ['collection_address', 'text'], ['owner_address', 'text'], ['content', 'text', 'jsonb'],
  ['last_transaction_lt', 'int8'], ['code_hash', 'bytea'], ['data_hash', 'bytea'],
];
const DNS_ENTRY: readonly Column[] = [
  ['nft_item_address', 'text'], ['nft_item_owner', 'text'], ['domain', 'text'], ['dns_next_resolver', 'text'], ['dns_wallet', 'text'],
  ['dns_site_adnl', 'text'], ['dns_storage_bag_id', 'text'], ['last_transaction_lt', 'int8'],
];
const EVENT_BASE: readonly Column[] = [
  ['tx_hash', 'bytea'], ['tx_lt', 'int8'], ['tx_now', 'int4'], ['tx_aborted', 'bool'], ['mc_seqno', 'int4'], ['query_id', 'numeric'], ['trace_id', 'bytea'],
];
const JETTON_TRANSFER: readonly Column[] = [
  ...EVENT_BASE, ['amount', 'numeric'], ['source', 'text'], ['destination', 'text'], ['jetton_wallet_address', 'text'], ['jetton_master_address', 'text'],
  ['response_destination', 'text'], ['custom_payload', 'text'], ['forward_ton_amount', 'numeric'], ['forward_payload', 'text'],
];
const JETTON_BURN: readonly Column[] = [
  ...EVENT_BASE, ['owner', 'text'], ['jetton_wallet_address', 'text'], ['jetton_master_address', 'text'], ['amount', 'numeric'],
  ['response_destination', 'text'], ['custom_payload', 'text'],
];
const NFT_TRANSFER: readonly Column[] = [
  ...EVENT_BASE, ['nft_item_address', 'text'], ['nft_item_index', 'numeric'], ['nft_collection_address', 'text'], ['old_owner', 'text'],
  ['new_owner', 'text'], ['response_destination', 'text'], ['custom_payload', 'text'], ['forward_amount', 'numeric'], ['forward_payload', 'text'],
];

function value(row: object, name: string, cast: string | undefined): unknown {
  const v = (row as Record<string, unknown>)[name];
  if (v === undefined || v === null) return null;
  return cast === 'jsonb' ? JSON.stringify(v) : v;
}

/** `insert … select from unnest(…)`: one parameter per column whatever the row count. */
async function bulk(client: ClientBase, table: string, columns: readonly Column[], rows: readonly object[], conflict: string): Promise<void> {
  if (rows.length === 0) return;
  const names = columns.map(([name]) => name);
  const params = columns.map(([name, , cast]) => rows.map((row) => value(row, name, cast)));
  const unnest = columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ');
  const select = columns.map(([name, , cast]) => (cast ? `u.${name}::${cast}` : `u.${name}`)).join(', ');
  await client.query(`insert into ${table} (${names.join(', ')}) select ${select} from unnest(${unnest}) as u(${names.join(', ')}) ${conflict}`, params);
}

/** A newer state only: a replayed older block never moves a contract back. */
function upsertNewer(table: string, columns: readonly Column[], key = 'address'): string {
  const set = columns.filter(([name]) => name !== key).map(([name]) => `${name} = excluded.${name}`).join(', ');
  return `on conflict (${key}) do update set ${set} where ${table}.last_transaction_lt is null or excluded.last_transaction_lt >= ${table}.last_transaction_lt`;
}

/** One row per key (the last wins): a statement may not update a row twice. */
function lastPer<T>(rows: readonly T[], key: (row: T) => string): T[] {
  return [...new Map(rows.map((row) => [key(row), row])).values()];
}

export async function insertTokenStates(client: ClientBase, rows: TokenStateRows): Promise<void> {
  const codes = lastPer(rows.codeInterfaces, (r) => r.code_hash.toString('hex'));
  if (codes.length > 0) {
    await client.query(
      `insert into code_interfaces (code_hash, interfaces)
       select u.code_hash, string_to_array(u.interfaces, ',') from unnest($1::bytea[], $2::text[]) as u(code_hash, interfaces)
       on conflict (code_hash) do nothing`,
      [codes.map((r) => r.code_hash), codes.map((r) => r.interfaces.join(','))],
    );
  }
  const byAddress = <T extends { address: string }>(list: readonly T[]) => lastPer(list, (r) => r.address);
  await bulk(client, 'jetton_masters', JETTON_MASTER, byAddress(rows.jettonMasters), upsertNewer('jetton_masters', JETTON_MASTER));
  await bulk(client, 'jetton_wallets', JETTON_WALLET, byAddress(rows.jettonWallets), upsertNewer('jetton_wallets', JETTON_WALLET));
  await bulk(client, 'nft_collections', NFT_COLLECTION, byAddress(rows.nftCollections), upsertNewer('nft_collections', NFT_COLLECTION));
  await bulk(client, 'nft_items', NFT_ITEM, byAddress(rows.nftItems), upsertNewer('nft_items', NFT_ITEM));
  await insertMultisigVestingStates(client, rows);
  const dns = lastPer(rows.dnsEntries, (r) => r.nft_item_address);
  await bulk(client, 'dns_entries', DNS_ENTRY, dns, upsertNewer('dns_entries', DNS_ENTRY, 'nft_item_address'));
}

export async function insertTokenEvents(client: ClientBase, rows: TokenEventRows): Promise<void> {
  const none = 'on conflict (tx_hash, tx_lt) do nothing';
  await bulk(client, 'jetton_transfers', JETTON_TRANSFER, rows.jettonTransfers, none);
  await bulk(client, 'jetton_burns', JETTON_BURN, rows.jettonBurns, none);
  await bulk(client, 'nft_transfers', NFT_TRANSFER, rows.nftTransfers, none);
}

/** Every classified code hash (the detection's memory at start). */
export async function readCodeInterfaces(client: Pick<ClientBase, 'query'>): Promise<CodeInterfacesRow[]> {
  const { rows } = await client.query<CodeInterfacesRow>('select code_hash, interfaces from code_interfaces');
  return rows;
}
