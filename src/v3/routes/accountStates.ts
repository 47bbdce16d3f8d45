import { ValidationError } from '../../errors';
import { toAccountStateFullJson, toWalletStateJson } from '../models/account';
import { parseGroup, type V3Query } from '../params/query';
import { readSingle, toBool } from '../params/rules';
import { queryLatestStates } from '../sql/accounts';
import { accountList, addressBookFor, hashList, metadataFor } from './common';
import { defineRoute, type RouteContext } from './route';

/** models.AccountRequest; no address is ton-index-go's 422 `address of account is required`. */
function accountRequest(query: V3Query) {
  const request = parseGroup((field) => ({
    accounts: field(() => accountList(query, 'address')) ?? [],
    codeHashes: field(() => hashList(query, 'code_hash')) ?? [],
    includeBoc: field(() => readSingle(query, 'include_boc', toBool)) ?? true,
  }));
  if (request.accounts.length === 0) throw new ValidationError('address of account is required');
  return request;
}

async function latestStates(context: RouteContext, request: ReturnType<typeof accountRequest>) {
  const rows = await queryLatestStates(context.db, {
    accounts: request.accounts.map((a) => a.raw),
    codeHashes: request.codeHashes,
    includeBoc: request.includeBoc,
  });
  const addressBook = rows.length === 0 ? {} : await addressBookFor(context, rows.map((r) => r.account));
  const metadata = await metadataFor(context, rows.map((r) => r.account));
  return { rows, addressBook, metadata };
}

const ACCOUNT_PARAMETERS = [
  { name: 'address', type: 'string', list: true, required: true },
  { name: 'include_boc', type: 'boolean' },
] as const;

/** GetAccountStates: the latest state of each account the index has seen. */
export const accountStates = defineRoute({
  path: '/accountStates',
  summary: 'Latest account states',
  parameters: ACCOUNT_PARAMETERS,
  parse: accountRequest,
  async run(context, request) {
    const { rows, addressBook, metadata } = await latestStates(context, request);
    return { accounts: rows.map(toAccountStateFullJson), address_book: addressBook, metadata };
  },
});

/** GetWalletStates: the same states read as wallets (type, seqno, wallet id by the code's hash). */
export const walletStates = defineRoute({
  path: '/walletStates',
  summary: 'Latest wallet states',
  parameters: ACCOUNT_PARAMETERS.slice(0, 1),
  parse: (query) => ({ ...accountRequest(query), includeBoc: true }),
  async run(context, request) {
    const { rows, addressBook, metadata } = await latestStates(context, request);
    return { wallets: rows.map(toWalletStateJson), address_book: addressBook, metadata };
  },
});
