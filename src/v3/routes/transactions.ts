import { parseGroup } from '../params/query';
import { readSingle, toUint64 } from '../params/rules';
import { buildTransactionsQuery } from '../sql/transactions';
import {
  accountList,
  blockGroup,
  hashList,
  ltGroup,
  PAGING_PARAMETERS,
  pagingGroup,
  RANGE_PARAMETERS,
  transactionsPageAnswer,
  utimeGroup,
} from './common';
import { defineRoute } from './route';

/** GetTransactions: by block, mc block, accounts, hashes, lt, time and lt ranges. */
export const transactions = defineRoute({
  path: '/transactions',
  summary: 'Transactions by filters',
  parameters: [
    { name: 'workchain', type: 'integer' },
    { name: 'shard', type: 'string' },
    { name: 'seqno', type: 'integer' },
    { name: 'mc_seqno', type: 'integer' },
    { name: 'account', type: 'string', list: true },
    { name: 'exclude_account', type: 'string', list: true },
    { name: 'hash', type: 'string', list: true },
    { name: 'lt', type: 'integer' },
    ...RANGE_PARAMETERS,
    ...PAGING_PARAMETERS,
  ],
  parse(query) {
    const block = blockGroup(query);
    const tx = parseGroup((field) => ({
      accounts: field(() => accountList(query, 'account')) ?? [],
      excludeAccounts: field(() => accountList(query, 'exclude_account')) ?? [],
      hashes: field(() => hashList(query, 'hash')) ?? [],
      lt: field(() => readSingle(query, 'lt', toUint64)),
    }));
    return { block, tx, utime: utimeGroup(query), lt: ltGroup(query), paging: pagingGroup(query) };
  },
  async run(context, { block, tx, utime, lt, paging }) {
    const { workchain, shard, seqno, mcSeqno } = block;
    return transactionsPageAnswer(context, buildTransactionsQuery({ workchain, shard, seqno, mcSeqno, ...tx, ...utime, ...lt }, paging), paging.limit);
  },
});
