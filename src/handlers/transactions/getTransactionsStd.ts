import { emptyTransactionId, toRawTransaction, toTransactionId } from '../../converters';
import { lastTransactionOf, walkHistory } from '../accountTransactions';
import { accountTransactionsParams } from '../sharedParams';
import { defineHandler } from '../define';
import { READ_VERBS } from '../types';
import { accountTransactionsPaging } from '../validation';

export default defineHandler({
  name: 'getTransactionsStd',
  category: 'transactions',
  verbs: READ_VERBS,
  summary: 'Transactions of an account in tonlib form (raw.transactions).',
  params: accountTransactionsParams,
  validate: (p) => {
    accountTransactionsPaging(p);
  },
  run: async (ctx, p) => {
    const address = p.address.address;
    const page = await ctx.lite({ archival: p.archival }).run(async (client) => {
      // Unlike getTransactions, an explicit lt = 0 is a start before all history: nothing.
      if (p.lt === 0n) return { transactions: [], next: null };
      const start = p.lt !== undefined && p.hash ? { lt: p.lt, hash: p.hash } : await lastTransactionOf(client, address);
      return start ? walkHistory(client, address, start, { limit: p.limit, toLt: p.to_lt }) : { transactions: [], next: null };
    });
    return {
      '@type': 'raw.transactions',
      transactions: page.transactions.map((tx) => toRawTransaction(tx, address.workChain)),
      previous_transaction_id: page.next ? toTransactionId(page.next.lt, page.next.hash) : emptyTransactionId(),
    };
  },
});
