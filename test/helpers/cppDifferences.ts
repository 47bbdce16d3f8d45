import { Address } from '@ton/core';

/**
 * The documented differences between the 2023 recordings (Python toncenter 2.0) and what the C++
 * server 2.1 (and so ton-http-bridge) answers (docs/api.md, "Differences from ton-http-api-cpp 2.1").
 * Tests compare our output with `recordedAsCpp(recording)`: every value (BoCs, hashes, amounts)
 * must still equal the recording; only these shapes change. Each rewrite names its reason.
 */

type Json = unknown;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const ACCOUNT_TYPES = new Set(['raw.fullAccountState', 'fullAccountState', 'ext.accounts.walletInformation']);
const TONLIB_WALLET_STATES = new Set([
  'wallet.v3.accountState',
  'wallet.v4.accountState',
  'wallet.highload.v1.accountState',
  'wallet.highload.v2.accountState',
  'dns.accountState',
]);

/** C++: balance is always a string, tonlib's -1 clamped to "0" (Python: the number 0 / "-1"). */
export function cppBalance(balance: Json): Json {
  return balance === 0 || balance === '-1' ? '0' : balance;
}

/** C++ prints a raw message body's `message` base64 on one line plus "\n" (Python: MIME lines). */
export function cppMessageText(text: string): string {
  const joined = text.replace(/\n/g, '');
  return joined.length > 0 ? joined + '\n' : '';
}

/** A getTransactions / tryLocate* message: `ext.message`, one-line `message` for raw bodies. */
function cppMessage(message: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(message)) {
    if (key === '@type') out[key] = 'ext.message';
    else if (
      key === 'message' &&
      typeof value === 'string' &&
      isObject(message['msg_data']) &&
      message['msg_data']['@type'] === 'msg.dataRaw'
    ) {
      out[key] = cppMessageText(value);
    } else out[key] = value;
  }
  return out;
}

/**
 * A getTransactions / tryLocate* item as C++ prints it: `ext.transaction` with `account` (raw
 * `wc:HEX`, uppercase) right after `address`, messages as `cppMessage`. The caller passes the
 * account, since the 2022 recordings have no `address`.
 */
export function cppTransaction(recorded: Record<string, unknown>, account: Address): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const rawUpper = `${account.workChain}:${account.hash.toString('hex').toUpperCase()}`;
  if ('@type' in recorded) out['@type'] = 'ext.transaction';
  for (const [key, value] of Object.entries(recorded)) {
    if (key === '@type') continue;
    if (key === 'in_msg' && isObject(value)) out[key] = cppMessage(value);
    else if (key === 'out_msgs' && Array.isArray(value)) out[key] = value.map((m) => (isObject(m) ? cppMessage(m) : m));
    else out[key] = value;
    if (key === 'address') out['account'] = rawUpper;
  }
  if (!('address' in recorded)) out['account'] = rawUpper;
  return out;
}

/**
 * Account answers (getAddressInformation, getExtendedAddressInformation, getWalletInformation):
 * string balances, and tonlib wallet states' `wallet_id` as an integer (Python: a string).
 */
export function recordedAsCpp(value: Json): Json {
  if (Array.isArray(value)) return value.map(recordedAsCpp);
  if (!isObject(value)) return value;
  const type = value['@type'];
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === 'balance' && typeof type === 'string' && ACCOUNT_TYPES.has(type)) out[key] = cppBalance(v);
    else if (key === 'wallet_id' && typeof type === 'string' && TONLIB_WALLET_STATES.has(type) && typeof v === 'string')
      out[key] = Number(v);
    else out[key] = recordedAsCpp(v);
  }
  return out;
}
