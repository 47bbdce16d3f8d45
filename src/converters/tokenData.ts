import { createHash } from 'node:crypto';
import { Address, Cell, Dictionary, DictionaryValue, Slice, TupleItem } from '@ton/core';
import { tonlibAddress } from './address';
import { bocBase64 } from '../cells';
import { loadSnakeBytes } from './message';

/**
 * getTokenData (`ext.tokens.*`): jetton masters and wallets, NFT collections and items, from the
 * stacks of their standard get-methods, with TEP-64 content and TON DNS records decoded as
 * toncenter's C++ server prints them.
 */

export type TokenContentJson = { type: 'onchain'; data: Record<string, string> } | { type: 'offchain'; data: string };

export interface DnsAddressJson {
  '@type': 'addr_std';
  workchain_id: number;
  /** lowercase hex */
  address: string;
}

export type DnsRecordJson =
  | { '@type': 'dns_smc_address'; smc_addr: DnsAddressJson }
  | { '@type': 'dns_next_resolver'; resolver: DnsAddressJson }
  | { '@type': 'dns_adnl_address'; adnl_addr: string }
  | { '@type': 'dns_storage_address'; bag_id: string };

export interface DnsContentJson {
  domain: string;
  data: Record<string, DnsRecordJson>;
}

export interface JettonMasterDataJson {
  '@type': 'ext.tokens.jettonMasterData';
  address: string;
  contract_type: 'jetton_master';
  total_supply: string;
  mintable: boolean;
  admin_address?: string;
  jetton_content: TokenContentJson;
  jetton_wallet_code: string;
}

export interface JettonWalletDataJson {
  '@type': 'ext.tokens.jettonWalletData';
  address: string;
  contract_type: 'jetton_wallet';
  balance: string;
  owner: string;
  jetton: string;
  mintless_is_claimed?: boolean;
  jetton_wallet_code: string;
}

export interface NftCollectionDataJson {
  '@type': 'ext.tokens.nftCollectionData';
  address: string;
  contract_type: 'nft_collection';
  next_item_index: string;
  owner_address?: string;
  collection_content: TokenContentJson;
}

export interface NftItemDataJson {
  '@type': 'ext.tokens.nftItemData';
  address: string;
  contract_type: 'nft_item';
  init: boolean;
  index: string;
  collection_address?: string;
  owner_address?: string;
  content: TokenContentJson | DnsContentJson;
}

export type TokenDataJson = JettonMasterDataJson | JettonWalletDataJson | NftCollectionDataJson | NftItemDataJson;

/** Get-method stacks, each item checked for the type the standard says. */

export function stackInt(item: TupleItem | undefined): bigint | undefined {
  return item?.type === 'int' ? item.value : undefined;
}

export function stackCell(item: TupleItem | undefined): Cell | undefined {
  return item?.type === 'cell' || item?.type === 'slice' || item?.type === 'builder' ? item.cell : undefined;
}

/**
 * An address from a slice entry: the address, null for addr_none, undefined when the entry is not
 * a MsgAddress at all.
 */
export function stackAddress(item: TupleItem | undefined): Address | null | undefined {
  const cell = stackCell(item);
  if (!cell) return undefined;
  try {
    const address = cell.beginParse().loadMaybeAddress();
    return address === null || Address.isAddress(address) ? address : undefined;
  } catch {
    return undefined;
  }
}

/** TEP-64 attributes toncenter's C++ server reports, in its order. */
export const TOKEN_ATTRIBUTES = [
  'uri',
  'name',
  'description',
  'image',
  'image_data',
  'symbol',
  'decimals',
  'amount_style',
  'render_type',
] as const;

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

const ATTRIBUTE_BY_KEY = new Map(TOKEN_ATTRIBUTES.map((name) => [sha256(name).toString('hex'), name]));

const ONCHAIN_PREFIX = 0x00;
const OFFCHAIN_PREFIX = 0x01;
const SNAKE_PREFIX = 0x00;
const CHUNKED_PREFIX = 0x01;

const cellValue: DictionaryValue<Cell> = {
  serialize: (src, builder) => builder.storeRef(src),
  parse: (slice) => slice.loadRef(),
};

/** `snake#00` or `chunks#01` content data, from a slice positioned at the prefix byte. */
function loadContentData(slice: Slice): Buffer | null {
  if (slice.remainingBits < 8) return null;
  const prefix = slice.loadUint(8);
  if (prefix === SNAKE_PREFIX) return loadSnakeBytes(slice);
  if (prefix === CHUNKED_PREFIX) {
    const chunks = slice.loadDict(Dictionary.Keys.Uint(32), cellValue);
    const parts: Buffer[] = [];
    for (const index of chunks.keys().sort((a, b) => a - b)) {
      const bytes = loadSnakeBytes((chunks.get(index) as Cell).beginParse());
      if (!bytes) return null;
      parts.push(bytes);
    }
    return Buffer.concat(parts);
  }
  return null;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodeUtf8(bytes: Buffer): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** A dictionary value: ContentData in the referenced cell, or (as some minters store it) one more ref down. */
function contentValue(cell: Cell): Buffer | null {
  const direct = loadContentData(cell.beginParse());
  if (direct !== null) return direct;
  return cell.bits.length === 0 && cell.refs.length === 1 ? loadContentData(cell.refs[0].beginParse()) : null;
}

/**
 * TEP-64 token content: on-chain (a dictionary keyed by sha256 of the attribute name; only the
 * standard attributes, `image_data` in base64, values that are not UTF-8 left out) or off-chain
 * (a URI after the 0x01 prefix). Anything else reads as an empty off-chain URI.
 */
export function parseTokenContent(cell: Cell): TokenContentJson {
  try {
    const slice = cell.beginParse();
    const prefix = slice.loadUint(8);
    if (prefix === OFFCHAIN_PREFIX) {
      const bytes = loadSnakeBytes(slice);
      return { type: 'offchain', data: (bytes && decodeUtf8(bytes)) ?? '' };
    }
    if (prefix === ONCHAIN_PREFIX) {
      const dict = slice.loadDict(Dictionary.Keys.Buffer(32), cellValue);
      const values = new Map<string, string>();
      for (const [key, value] of dict) {
        const name = ATTRIBUTE_BY_KEY.get(key.toString('hex'));
        if (!name) continue;
        const bytes = contentValue(value);
        if (!bytes) continue;
        const text = name === 'image_data' ? bytes.toString('base64') : decodeUtf8(bytes);
        if (text !== undefined) values.set(name, text);
      }
      const data: Record<string, string> = {};
      for (const name of TOKEN_ATTRIBUTES) {
        const value = values.get(name);
        if (value !== undefined) data[name] = value;
      }
      return { type: 'onchain', data };
    }
  } catch {
    // fall through: content that is not TEP-64
  }
  return { type: 'offchain', data: '' };
}

/** DNS record categories (sha256 of the name) with the names toncenter uses as keys. */
const DNS_CATEGORY_NAMES = new Map(['wallet', 'site', 'storage', 'dns_next_resolver'].map((name) => [sha256(name).toString('hex'), name]));

const DNS_SMC_ADDRESS = 0x9fd3;
const DNS_NEXT_RESOLVER = 0xba93;
const DNS_ADNL_ADDRESS = 0xad01;
const DNS_STORAGE_ADDRESS = 0x7473;

function dnsAddress(address: Address): DnsAddressJson {
  return { '@type': 'addr_std', workchain_id: address.workChain, address: address.hash.toString('hex') };
}

/** One DNS record cell (`DNSRecord`), or undefined for kinds toncenter does not print. */
export function parseDnsRecord(cell: Cell): DnsRecordJson | undefined {
  try {
    const slice = cell.beginParse();
    const tag = slice.loadUint(16);
    switch (tag) {
      case DNS_SMC_ADDRESS:
        return { '@type': 'dns_smc_address', smc_addr: dnsAddress(slice.loadAddress()) };
      case DNS_NEXT_RESOLVER:
        return { '@type': 'dns_next_resolver', resolver: dnsAddress(slice.loadAddress()) };
      case DNS_ADNL_ADDRESS:
        return { '@type': 'dns_adnl_address', adnl_addr: slice.loadBuffer(32).toString('hex') };
      case DNS_STORAGE_ADDRESS:
        return { '@type': 'dns_storage_address', bag_id: slice.loadBuffer(32).toString('hex') };
      default:
        return undefined;
    }
  } catch {
    return undefined;
  }
}

/** A record dictionary (`HashmapE 256 ^DNSRecord`, given by its root cell) as DnsContent data. */
export function parseDnsRecords(root: Cell | null): Record<string, DnsRecordJson> {
  const data: Record<string, DnsRecordJson> = {};
  if (!root) return data;
  const dict = Dictionary.loadDirect(Dictionary.Keys.Buffer(32), cellValue, root);
  for (const [key, value] of dict) {
    const record = parseDnsRecord(value);
    if (!record) continue;
    const hex = key.toString('hex');
    data[DNS_CATEGORY_NAMES.get(hex) ?? hex.toUpperCase()] = record;
  }
  return data;
}

function optionalAddress(address: Address | null): string | undefined {
  return address ? tonlibAddress(address) : undefined;
}

/** get_jetton_data: total_supply, mintable, admin_address, jetton_content, jetton_wallet_code. */
export function toJettonMasterData(address: string, stack: TupleItem[]): JettonMasterDataJson | undefined {
  const [supply, mintable, admin, content, walletCode] = stack;
  const totalSupply = stackInt(supply);
  const mintableFlag = stackInt(mintable);
  const adminAddress = stackAddress(admin);
  const contentCell = stackCell(content);
  const codeCell = stackCell(walletCode);
  if (totalSupply === undefined || mintableFlag === undefined || adminAddress === undefined || !contentCell || !codeCell) return undefined;
  const admin_address = optionalAddress(adminAddress);
  return {
    '@type': 'ext.tokens.jettonMasterData',
    address,
    contract_type: 'jetton_master',
    total_supply: totalSupply.toString(),
    mintable: mintableFlag !== 0n,
    ...(admin_address ? { admin_address } : {}),
    jetton_content: parseTokenContent(contentCell),
    jetton_wallet_code: bocBase64(codeCell),
  };
}

export interface JettonWalletFields {
  balance: bigint;
  owner: Address;
  jetton: Address;
  walletCode: Cell;
}

/** get_wallet_data: balance, owner, jetton (master), jetton_wallet_code. */
export function readJettonWalletData(stack: TupleItem[]): JettonWalletFields | undefined {
  const [balance, owner, jetton, walletCode] = stack;
  const amount = stackInt(balance);
  const ownerAddress = stackAddress(owner);
  const jettonAddress = stackAddress(jetton);
  const codeCell = stackCell(walletCode);
  if (amount === undefined || !ownerAddress || !jettonAddress || !codeCell) return undefined;
  return { balance: amount, owner: ownerAddress, jetton: jettonAddress, walletCode: codeCell };
}

export function toJettonWalletData(address: string, fields: JettonWalletFields, mintlessIsClaimed?: boolean): JettonWalletDataJson {
  return {
    '@type': 'ext.tokens.jettonWalletData',
    address,
    contract_type: 'jetton_wallet',
    balance: fields.balance.toString(),
    owner: tonlibAddress(fields.owner),
    jetton: tonlibAddress(fields.jetton),
    ...(mintlessIsClaimed !== undefined ? { mintless_is_claimed: mintlessIsClaimed } : {}),
    jetton_wallet_code: bocBase64(fields.walletCode),
  };
}

/** get_collection_data: next_item_index, collection_content, owner_address. */
export function toNftCollectionData(address: string, stack: TupleItem[]): NftCollectionDataJson | undefined {
  const [nextIndex, content, owner] = stack;
  const next = stackInt(nextIndex);
  const contentCell = stackCell(content);
  const ownerAddress = stackAddress(owner);
  if (next === undefined || !contentCell || ownerAddress === undefined) return undefined;
  const owner_address = optionalAddress(ownerAddress);
  return {
    '@type': 'ext.tokens.nftCollectionData',
    address,
    contract_type: 'nft_collection',
    next_item_index: next.toString(),
    ...(owner_address ? { owner_address } : {}),
    collection_content: parseTokenContent(contentCell),
  };
}

export interface NftItemFields {
  init: boolean;
  index: bigint;
  collection: Address | null;
  owner: Address | null;
  individualContent: Cell;
}

/** get_nft_data: init?, index, collection_address, owner_address, individual_content. */
export function readNftItemData(stack: TupleItem[]): NftItemFields | undefined {
  const [init, index, collection, owner, content] = stack;
  const initFlag = stackInt(init);
  const itemIndex = stackInt(index);
  const collectionAddress = stackAddress(collection);
  const ownerAddress = stackAddress(owner);
  const contentCell = stackCell(content);
  if (initFlag === undefined || itemIndex === undefined || collectionAddress === undefined || ownerAddress === undefined || !contentCell) {
    return undefined;
  }
  return { init: initFlag !== 0n, index: itemIndex, collection: collectionAddress, owner: ownerAddress, individualContent: contentCell };
}

export function toNftItemData(address: string, fields: NftItemFields, content: TokenContentJson | DnsContentJson): NftItemDataJson {
  const collection_address = optionalAddress(fields.collection);
  const owner_address = optionalAddress(fields.owner);
  return {
    '@type': 'ext.tokens.nftItemData',
    address,
    contract_type: 'nft_item',
    init: fields.init,
    index: fields.index.toString(),
    ...(collection_address ? { collection_address } : {}),
    ...(owner_address ? { owner_address } : {}),
    content,
  };
}
