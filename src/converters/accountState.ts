import { Account, Address, Cell, ShardAccount } from '@ton/core';
import { AccountAddressJson, friendlyAddress, FriendlyFlags, rawAddressUpper, tonlibAddress, toAccountAddress } from './address';
import { optionalBocBase64 } from '../cells';
import { BlockIdExtInput, hashToBuffer, InternalTransactionIdJson, toBlockIdExt, toLastTransactionId, TonBlockIdExtJson } from './blockId';
import { ExtraCurrencyJson, toExtraCurrencies } from './message';
import { SUSPENDED_ACCOUNTS, SUSPENSION_END_UTIME } from './suspendedAccounts';
import { detectTonlibContract, detectWallet } from './wallet';

/**
 * Account states: getAddressInformation (`raw.fullAccountState`), getExtendedAddressInformation
 * (`fullAccountState`), getWalletInformation, getAddressBalance, getAddressState.
 */

export type AccountStateName = 'active' | 'uninitialized' | 'frozen';

/** What a lite-server account query yields. */
export interface AccountStateInput {
  address: Address;
  /** null when the account does not exist in the shard state (tonlib's balance −1). */
  account: Account | null;
  /** The ShardAccount's last transaction; null or lt 0 means none. */
  lastTransaction: { lt: bigint; hash: Buffer | bigint } | null;
  /** The (masterchain) block the state was read at: `block_id`. */
  block: BlockIdExtInput;
  /** Generation time of the state: `sync_utime`. */
  syncUtime: number;
}

export function accountStateFromShardAccount(
  address: Address,
  shardAccount: ShardAccount,
  block: BlockIdExtInput,
  syncUtime: number,
): AccountStateInput {
  const account = shardAccount.account ?? null;
  const hasLast = shardAccount.lastTransactionLt !== 0n || shardAccount.lastTransactionHash !== 0n;
  return {
    address,
    account,
    lastTransaction: hasLast ? { lt: shardAccount.lastTransactionLt, hash: shardAccount.lastTransactionHash } : null,
    block,
    syncUtime,
  };
}

/** The account reduced to what every account endpoint reports. */
export interface AccountSummary {
  exists: boolean;
  /** −1 for a non-existent account, as tonlib reports it. */
  balance: bigint;
  extraCurrencies: ExtraCurrencyJson[];
  code: Cell | null;
  data: Cell | null;
  frozenHash: Buffer | null;
  state: AccountStateName;
}

export function summarizeAccount(account: Account | null): AccountSummary {
  if (!account) {
    return {
      exists: false,
      balance: -1n,
      extraCurrencies: [],
      code: null,
      data: null,
      frozenHash: null,
      state: 'uninitialized',
    };
  }
  const storageState = account.storage.state;
  const code = storageState.type === 'active' ? (storageState.state.code ?? null) : null;
  const data = storageState.type === 'active' ? (storageState.state.data ?? null) : null;
  const frozenHash = storageState.type === 'frozen' ? hashToBuffer(storageState.stateHash) : null;
  return {
    exists: true,
    balance: account.storage.balance.coins,
    extraCurrencies: toExtraCurrencies(account.storage.balance),
    code,
    data,
    frozenHash,
    state: accountStateName(code, frozenHash),
  };
}

/** toncenter's rule: no code → (frozen hash ? frozen : uninitialized), else active. */
export function accountStateName(code: Cell | null, frozenHash: Buffer | null): AccountStateName {
  if (code) return 'active';
  return frozenHash ? 'frozen' : 'uninitialized';
}

/**
 * Balance as the C++ server prints it in every account answer: always a decimal string, tonlib's −1
 * for an account that does not exist clamped to "0" (the 2023 Python recordings had the JSON number
 * 0 there; TonClient and tonweb accept either).
 */
export function toBalanceField(summary: AccountSummary): string {
  return summary.exists && summary.balance > 0n ? summary.balance.toString(10) : '0';
}

/** C++ toncenter's `suspended` flag. */
export function isSuspended(address: Address, syncUtime: number): boolean {
  return syncUtime < SUSPENSION_END_UTIME && SUSPENDED_ACCOUNTS.has(rawAddressUpper(address));
}

export interface RawFullAccountStateJson {
  '@type': 'raw.fullAccountState';
  balance: string;
  extra_currencies: ExtraCurrencyJson[];
  last_transaction_id: InternalTransactionIdJson;
  block_id: TonBlockIdExtJson;
  code: string;
  data: string;
  frozen_hash: string;
  sync_utime: number;
  state: AccountStateName;
  suspended: boolean;
}

/** getAddressInformation, keys in the newest recorded order (block_id before code/data, then state, suspended). */
export function toRawFullAccountState(input: AccountStateInput): RawFullAccountStateJson {
  const summary = summarizeAccount(input.account);
  return {
    '@type': 'raw.fullAccountState',
    balance: toBalanceField(summary),
    extra_currencies: summary.extraCurrencies,
    last_transaction_id: toLastTransactionId(input.lastTransaction),
    block_id: toBlockIdExt(input.block),
    code: optionalBocBase64(summary.code),
    data: optionalBocBase64(summary.data),
    frozen_hash: summary.frozenHash ? summary.frozenHash.toString('base64') : '',
    sync_utime: input.syncUtime,
    state: summary.state,
    suspended: isSuspended(input.address, input.syncUtime),
  };
}

/** getAddressBalance: always a string; a non-existent account has "0". */
export function toAddressBalance(account: Account | null): string {
  return toBalanceField(summarizeAccount(account));
}

/** getAddressState. */
export function toAddressState(account: Account | null): AccountStateName {
  return summarizeAccount(account).state;
}

export interface RawAccountStateJson {
  '@type': 'raw.accountState';
  code: string;
  data: string;
  frozen_hash: string;
}
export interface WalletV3AccountStateJson {
  '@type': 'wallet.v3.accountState';
  /** int64 in tonlib JSON, hence a string (as recorded). */
  wallet_id: number;
  seqno: number;
}
export interface WalletV4AccountStateJson {
  '@type': 'wallet.v4.accountState';
  wallet_id: number;
  seqno: number;
}
export interface WalletHighloadV1AccountStateJson {
  '@type': 'wallet.highload.v1.accountState';
  wallet_id: number;
  seqno: number;
}
export interface WalletHighloadV2AccountStateJson {
  '@type': 'wallet.highload.v2.accountState';
  wallet_id: number;
}
export interface DnsAccountStateJson {
  '@type': 'dns.accountState';
  wallet_id: number;
}
export interface UninitedAccountStateJson {
  '@type': 'uninited.accountState';
  frozen_hash: string;
}

export type AccountStateJson =
  | RawAccountStateJson
  | WalletV3AccountStateJson
  | WalletV4AccountStateJson
  | WalletHighloadV1AccountStateJson
  | WalletHighloadV2AccountStateJson
  | DnsAccountStateJson
  | UninitedAccountStateJson;

export interface FullAccountStateJson {
  '@type': 'fullAccountState';
  address: AccountAddressJson;
  /** tonlib's −1 for a non-existent account clamped to "0", as the C++ server does. */
  balance: string;
  extra_currencies: ExtraCurrencyJson[];
  last_transaction_id: InternalTransactionIdJson;
  block_id: TonBlockIdExtJson;
  sync_utime: number;
  account_state: AccountStateJson;
  revision: number;
}

/** Reads a uint32 at a bit offset of the data cell, or undefined if the cell is too short. */
function dataUint32(data: Cell | null, offset: number): number | undefined {
  if (!data || data.bits.length < offset + 32) return undefined;
  const slice = data.beginParse(true);
  slice.skip(offset);
  return slice.loadUint(32);
}

/**
 * tonlib's `account_state` and `revision`. Accounts without code are `uninited.accountState`;
 * recognised contracts get their typed state when their data decodes, anything else (and a recognised
 * contract with undecodable data, where tonlib would fail the whole request) is `raw.accountState`.
 */
export function toTonlibAccountState(summary: AccountSummary): { state: AccountStateJson; revision: number } {
  const frozenHash = summary.frozenHash ? summary.frozenHash.toString('base64') : '';
  if (!summary.code) {
    return { state: { '@type': 'uninited.accountState', frozen_hash: frozenHash }, revision: 0 };
  }
  const raw: RawAccountStateJson = {
    '@type': 'raw.accountState',
    code: optionalBocBase64(summary.code),
    data: optionalBocBase64(summary.data),
    frozen_hash: frozenHash,
  };
  const contract = detectTonlibContract(summary.code);
  if (!contract) return { state: raw, revision: 0 };
  const first = dataUint32(summary.data, 0);
  const second = dataUint32(summary.data, 32);
  const typed = ((): AccountStateJson | undefined => {
    switch (contract.type) {
      case 'wallet.v3':
      case 'wallet.v4':
      case 'wallet.highload.v1':
        if (first === undefined || second === undefined) return undefined;
        return { '@type': `${contract.type}.accountState`, wallet_id: second, seqno: first };
      case 'wallet.highload.v2':
        return first === undefined ? undefined : { '@type': 'wallet.highload.v2.accountState', wallet_id: first };
      case 'dns':
        return first === undefined ? undefined : { '@type': 'dns.accountState', wallet_id: first };
    }
  })();
  return typed ? { state: typed, revision: contract.revision } : { state: raw, revision: 0 };
}

export interface ExtendedAccountOptions {
  /**
   * Flags of the address the caller passed, echoed in `address` (tonlib re-encodes the given
   * address URL-safe with its own bounceable/test flags; a raw address counts as bounceable).
   * Default: bounceable, not test-only.
   */
  addressFlags?: FriendlyFlags;
}

/** getExtendedAddressInformation. */
export function toFullAccountState(input: AccountStateInput, options: ExtendedAccountOptions = {}): FullAccountStateJson {
  const summary = summarizeAccount(input.account);
  const { state, revision } = toTonlibAccountState(summary);
  const address = options.addressFlags ? friendlyAddress(input.address, options.addressFlags) : tonlibAddress(input.address);
  return {
    '@type': 'fullAccountState',
    address: toAccountAddress(address),
    balance: toBalanceField(summary),
    extra_currencies: summary.extraCurrencies,
    last_transaction_id: toLastTransactionId(input.lastTransaction),
    block_id: toBlockIdExt(input.block),
    sync_utime: input.syncUtime,
    account_state: state,
    revision,
  };
}

export interface WalletInformationJson {
  '@type': 'ext.accounts.walletInformation';
  wallet: boolean;
  balance: string;
  extra_currencies: ExtraCurrencyJson[];
  account_state: AccountStateName;
  wallet_type?: string;
  seqno?: number;
  last_transaction_id: InternalTransactionIdJson;
  wallet_id?: number;
  is_signature_allowed?: boolean;
}

/**
 * getWalletInformation. Keys: C++'s `@type` first, then the recorded Py order (wallet, balance,
 * account_state, wallet_type, seqno, last_transaction_id, wallet_id) with Py's `extra_currencies`
 * after balance and v5's is_signature_allowed last; wallet_type/seqno/wallet_id are omitted unless the
 * code is a known wallet.
 */
export function toWalletInformation(input: AccountStateInput): WalletInformationJson {
  const summary = summarizeAccount(input.account);
  const detected = detectWallet(summary.code, summary.data);
  return {
    '@type': 'ext.accounts.walletInformation',
    wallet: detected !== undefined,
    balance: toBalanceField(summary),
    extra_currencies: summary.extraCurrencies,
    account_state: summary.state,
    ...(detected ? { wallet_type: detected.walletType, seqno: detected.seqno } : {}),
    last_transaction_id: toLastTransactionId(input.lastTransaction),
    ...(detected?.walletId !== undefined ? { wallet_id: detected.walletId } : {}),
    ...(detected?.isSignatureAllowed !== undefined ? { is_signature_allowed: detected.isSignatureAllowed } : {}),
  };
}
