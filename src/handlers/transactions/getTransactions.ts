import { toTransactionJson } from '../../converters';
import { lastTransactionOf, walkHistory } from '../accountTransactions';
import { accountTransactionsParams } from '../sharedParams';
import { defineHandler } from '../define';
import { READ_VERBS } from '../types';
import { accountTransactionsPaging } from '../validation';

export default defineHandler({
  name: 'getTransactions',
  category: 'transactions',
  verbs: READ_VERBS,
  summary: 'Transactions of an account, newest first, from (lt, hash) inclusive down to to_lt exclusive.',
  params: accountTransactionsParams,
  validate: (p) => {
    accountTransactionsPaging(p);
  },
  run: async (ctx, p) => {
    const address = p.address.address;
    const transactions = await ctx.lite({ archival: p.archival }).run(async (client) => {
      // lt = 0 means "not given" (validation already paired lt and hash).
      const start = p.lt && p.hash ? { lt: p.lt, hash: p.hash } : await lastTransactionOf(client, address);
      return start ? (await walkHistory(client, address, start, { limit: p.limit, toLt: p.to_lt })).transactions : [];
    });
    return transactions.map((tx) => toTransactionJson(tx, address.workChain));
  },
});
