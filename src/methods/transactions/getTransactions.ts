import { accountHistory } from '../../chain';
import { toTransactionJson } from '../../converters';
import { accountTransactionsParams } from '../sharedParams';
import { defineHandler } from '../define';
import { transactionList } from '../resultSchema';
import { READ_VERBS } from '../types';
import { accountTransactionsPaging } from '../validation';

export default defineHandler({
  name: 'getTransactions',
  category: 'transactions',
  verbs: READ_VERBS,
  summary: 'Transactions of an account, newest first, from (lt, hash) inclusive down to to_lt exclusive.',
  cache: 'head',
  session: (p) => ({ archival: p.archival }),
  result: transactionList,
  params: accountTransactionsParams,
  validate: (p) => {
    accountTransactionsPaging(p);
  },
  run: async (ctx, p) => {
    const address = p.address.address;
    const session = ctx.lite();
    // lt = 0 means "not given" (validation already paired lt and hash).
    const start = p.lt && p.hash ? { lt: p.lt, hash: p.hash } : null;
    const page = await accountHistory(session, (await session.head()).last, address, start, { limit: p.limit, toLt: p.to_lt });
    return page.transactions.map((tx) => toTransactionJson(tx, address.workChain));
  },
});
