/**
 * toncenter v3's legacy endpoints (ton-index-go `models/v2.go`, `index/proxy.go`): the v3 server
 * answers them from a v2 server, so these are pure functions from our v2 results to its shapes.
 */

/** ton-index-go's account status words (its default path); `use_v2` keeps the v2 words. */
export type V3StatusWords = 'index' | 'v2';

const INDEX_STATUS: Readonly<Record<string, string>> = { active: 'active', uninitialized: 'uninit', frozen: 'frozen' };

function statusWord(v2State: string, words: V3StatusWords): string {
  return words === 'v2' ? v2State : (INDEX_STATUS[v2State] ?? v2State);
}

/** `""` (the v2 form of "none") becomes null. */
function nullIfEmpty(value: string): string | null {
  return value.length > 0 ? value : null;
}

export interface V2TransactionIdLike {
  lt: string;
  hash: string;
}

export interface V2AddressInformationLike {
  balance: string;
  code: string;
  data: string;
  frozen_hash: string;
  last_transaction_id: V2TransactionIdLike;
  state: string;
}

export interface V3AddressInformationJson {
  balance: string;
  code: string | null;
  data: string | null;
  last_transaction_lt: string | null;
  last_transaction_hash: string | null;
  frozen_hash: string | null;
  status: string;
}

/**
 * `GET /api/v3/addressInformation`. A never-used account comes out as the indexer prints one it
 * has no row for: balance "0", lt "0", the zero hash, status `uninit`.
 */
export function toV3AddressInformation(info: V2AddressInformationLike, words: V3StatusWords = 'index'): V3AddressInformationJson {
  return {
    balance: info.balance,
    code: nullIfEmpty(info.code),
    data: nullIfEmpty(info.data),
    last_transaction_lt: nullIfEmpty(info.last_transaction_id.lt),
    last_transaction_hash: nullIfEmpty(info.last_transaction_id.hash),
    frozen_hash: nullIfEmpty(info.frozen_hash),
    status: statusWord(info.state, words),
  };
}

export interface V2WalletInformationLike {
  wallet: boolean;
  balance: string;
  account_state: string;
  wallet_type?: string;
  seqno?: number;
  wallet_id?: number;
  last_transaction_id: V2TransactionIdLike;
}

export interface V3WalletInformationJson {
  balance: string;
  wallet_type?: string;
  seqno?: number;
  wallet_id?: number;
  last_transaction_lt: string;
  last_transaction_hash: string;
  status: string;
}

/** `GET /api/v3/walletInformation`; undefined = 409 `not a wallet` (a contract that is no wallet). */
export function toV3WalletInformation(info: V2WalletInformationLike, words: V3StatusWords = 'index'): V3WalletInformationJson | undefined {
  if (!info.wallet && info.account_state !== 'uninitialized') return undefined;
  return {
    balance: info.balance,
    ...(info.wallet_type ? { wallet_type: info.wallet_type } : {}),
    ...(info.seqno !== undefined ? { seqno: info.seqno } : {}),
    ...(info.wallet_id !== undefined ? { wallet_id: info.wallet_id } : {}),
    last_transaction_lt: info.last_transaction_id.lt,
    last_transaction_hash: info.last_transaction_id.hash,
    status: statusWord(info.account_state, words),
  };
}

export interface V3SendMessageJson {
  message_hash: string;
  message_hash_norm: string;
}

/** `POST /api/v3/message` from sendBocReturnHash's `raw.extMessageInfo`. */
export function toV3SendMessageResult(info: { hash: string; hash_norm: string }): V3SendMessageJson {
  return { message_hash: info.hash, message_hash_norm: info.hash_norm };
}

export interface V3FeesJson {
  in_fwd_fee: number;
  storage_fee: number;
  gas_fee: number;
  fwd_fee: number;
}

export interface V3EstimateFeeJson {
  source_fees: V3FeesJson;
  destination_fees: V3FeesJson[];
}

interface V2FeesLike {
  in_fwd_fee: number;
  storage_fee: number;
  gas_fee: number;
  fwd_fee: number;
}

function fees(value: V2FeesLike): V3FeesJson {
  return { in_fwd_fee: value.in_fwd_fee, storage_fee: value.storage_fee, gas_fee: value.gas_fee, fwd_fee: value.fwd_fee };
}

/** `POST /api/v3/estimateFee`: v2's `query.fees` without the `@type` tags. */
export function toV3EstimateFee(result: { source_fees: V2FeesLike; destination_fees: V2FeesLike[] }): V3EstimateFeeJson {
  return { source_fees: fees(result.source_fees), destination_fees: result.destination_fees.map(fees) };
}
