import { param } from '../../params/schema';
import { defineHandler } from '../define';
import { READ_VERBS } from '../types';
import { accountTransactionsPaging } from '../validation';

export default defineHandler({
  name: 'getTransactions',
  category: 'transactions',
  verbs: READ_VERBS,
  summary: 'Transactions of an account, newest first, from (lt, hash) inclusive down to to_lt exclusive.',
  params: {
    address: param.address(),
    limit: param.int32().withDefault(10),
    lt: param.int64().optional(),
    hash: param.hash().optional(),
    to_lt: param.int64().optional(),
    archival: param.bool().optional(),
  },
  validate: (p) => {
    accountTransactionsPaging(p);
  },
});
