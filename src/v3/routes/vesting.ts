import { ValidationError } from '../../errors';
import { toVestingJson } from '../models/multisigVesting';
import { parseGroup } from '../params/query';
import { readSingle, toBool } from '../params/rules';
import { queryVestingContracts, queryVestingWhitelists } from '../sql/multisigVesting';
import { bookOf, pagingGroup, raws } from './common';
import { defineRoute } from './route';

/** GetVestingContracts: by contract, or by a wallet (owner or sender; whitelisted with `check_whitelist`), exactly one of the two. */
export const vestingContracts = defineRoute({
  path: '/vesting',
  summary: 'Vesting contracts',
  parameters: [
    { name: 'contract_address', type: 'string', list: true, description: 'Vesting contract address in any form. Max: 1000.' },
    { name: 'wallet_address', type: 'string', list: true, description: 'Wallet address to filter by owner or sender. Max: 1000.' },
    { name: 'check_whitelist', type: 'boolean', description: 'Check if wallet address is in whitelist (default false).' },
    { name: 'limit', type: 'integer', description: 'Rows to return, 1..1000.' },
    { name: 'offset', type: 'integer', description: 'Rows to skip.' },
  ],
  parse(query) {
    const request = parseGroup((field) => ({
      contracts: field(() => raws(query, 'contract_address')) ?? [],
      wallets: field(() => raws(query, 'wallet_address')) ?? [],
      checkWhitelist: field(() => readSingle(query, 'check_whitelist', toBool)) ?? false,
    }));
    const paging = pagingGroup(query);
    if (request.contracts.length === 0 && request.wallets.length === 0) throw new ValidationError('at least one of contract_address or wallet_address is required');
    if (request.contracts.length > 0 && request.wallets.length > 0) throw new ValidationError('only one of contract_address or wallet_address should be specified');
    return { ...request, paging };
  },
  async run(context, { paging, ...filter }) {
    const rows = await queryVestingContracts(context.db, filter, paging);
    const whitelists = await queryVestingWhitelists(context.db, rows.map((r) => r.address));
    const vesting_contracts = rows.map((row) => toVestingJson(row, whitelists.get(row.address) ?? []));
    const named = vesting_contracts.flatMap((v) => [v.address, v.sender_address, v.owner_address, ...v.whitelist]);
    return { vesting_contracts, address_book: await bookOf(context, named) };
  },
});
