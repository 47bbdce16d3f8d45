import { Cell } from '@ton/core';
import { decodeWalletData, walletKindByCodeHash } from '../../converters';
import { b64, interfacesOfCode, str64 } from './format';

/** A `latest_account_states` row as sql/accounts.ts selects it. */
export interface LatestStateRow {
  account: string;
  hash: Buffer;
  balance: string | null;
  balance_extra_currencies: Record<string, string> | null;
  account_status: string | null;
  frozen_hash: Buffer | null;
  last_trans_hash: Buffer | null;
  last_trans_lt: string | null;
  data_hash: Buffer | null;
  code_hash: Buffer | null;
  data_boc: Buffer | null;
  code_boc: Buffer | null;
}

function withoutUndefined(object: Record<string, unknown>): Record<string, unknown> {
  for (const key of Object.keys(object)) if (object[key] === undefined) delete object[key];
  return object;
}

/**
 * models.AccountStateFull. `contract_methods` stays null (the index keeps no contract_methods
 * table); `interfaces` is MarkAccountStates' detection by the code hash alone: a wallet's name, else
 * `[]` (docs/v3.md).
 */
export function toAccountStateFullJson(row: LatestStateRow): Record<string, unknown> {
  return withoutUndefined({
    address: row.account,
    account_state_hash: b64(row.hash),
    balance: str64(row.balance),
    extra_currencies: row.balance_extra_currencies ?? null,
    status: row.account_status,
    frozen_hash: row.frozen_hash ? b64(row.frozen_hash) : undefined,
    last_transaction_hash: b64(row.last_trans_hash),
    last_transaction_lt: str64(row.last_trans_lt),
    data_hash: row.data_hash ? b64(row.data_hash) : undefined,
    code_hash: row.code_hash ? b64(row.code_hash) : undefined,
    data_boc: row.data_boc ? b64(row.data_boc) : undefined,
    code_boc: row.code_boc ? b64(row.code_boc) : undefined,
    contract_methods: null,
    interfaces: interfacesOfCode(row.code_hash),
  });
}

/** The wallet fields of a data BoC by the code's hash (parse.ParseWalletState); none when unknown. */
function walletFields(row: LatestStateRow): Record<string, unknown> {
  if (!row.code_hash || !row.data_boc) return { is_wallet: false };
  const kind = walletKindByCodeHash(row.code_hash);
  if (!kind) return { is_wallet: false };
  let data;
  try {
    data = decodeWalletData(kind.layout, Cell.fromBoc(row.data_boc)[0]!);
  } catch {
    data = undefined;
  }
  if (!data) return { is_wallet: true, wallet_type: kind.name };
  return {
    is_wallet: true,
    wallet_type: kind.name,
    seqno: data.seqno,
    wallet_id: data.walletId,
    is_signature_allowed: data.isSignatureAllowed,
  };
}

/** models.WalletState (omitempty fields left out when unknown). */
export function toWalletStateJson(row: LatestStateRow): Record<string, unknown> {
  const currencies = row.balance_extra_currencies;
  return withoutUndefined({
    address: row.account,
    ...walletFields(row),
    balance: row.balance ?? undefined,
    extra_currencies: currencies && Object.keys(currencies).length > 0 ? currencies : undefined,
    status: row.account_status ?? undefined,
    code_hash: row.code_hash ? b64(row.code_hash) : undefined,
    last_transaction_hash: b64(row.last_trans_hash),
    last_transaction_lt: str64(row.last_trans_lt),
  });
}
