import { accountHistory } from '../../chain';
import { emptyTransactionId, toRawTransaction, toTransactionId } from '../../converters';
import { accountTransactionsParams } from '../sharedParams';
import { defineHandler } from '../define';
import { ref, tagged, transactionList } from '../resultSchema';
import { READ_VERBS } from '../types';
import { accountTransactionsPaging } from '../validation';

export default defineHandler({
  name: 'getTransactionsStd',
  category: 'transactions',
  verbs: READ_VERBS,
  summary: 'Transactions of an account in tonlib form (raw.transactions).',
  cache: 'head',
  session: (p) => ({ archival: p.archival }),
  result: tagged('raw.transactions', { transactions: transactionList, previous_transaction_id: ref('TransactionId') }),
  params: accountTransactionsParams,
  validate: (p) => {
    accountTransactionsPaging(p);
  },
  run: async (ctx, p) => {
    const address = p.address.address;
    const session = ctx.lite();
    // Unlike getTransactions, an explicit lt = 0 is a start before all history: nothing.
    const page =
      p.lt === 0n
        ? { transactions: [], next: null }
        : await accountHistory(
            session,
            (await session.head()).last,
            address,
            p.lt !== undefined && p.hash ? { lt: p.lt, hash: p.hash } : null,
            {
              limit: p.limit,
              toLt: p.to_lt,
            },
          );
    return {
      '@type': 'raw.transactions',
      transactions: page.transactions.map((tx) => toRawTransaction(tx, address.workChain)),
      previous_transaction_id: page.next ? toTransactionId(page.next.lt, page.next.hash) : emptyTransactionId(),
    };
  },
});
