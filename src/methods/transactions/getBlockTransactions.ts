import { blockTransactionsCursor, listBlockShortTxIds, resolveBlock } from '../../chain';
import { toBlockTransactions } from '../../converters';
import { blockTransactionsParams } from '../sharedParams';
import { atHead, defineHandler } from '../define';
import { ref, int, bool, arrayOf, tagged } from '../resultSchema';
import { READ_VERBS } from '../types';
import { blockTransactionsPaging } from '../validation';

export default defineHandler({
  name: 'getBlockTransactions',
  category: 'transactions',
  verbs: READ_VERBS,
  summary: 'Short ids of the transactions of a block, paged by (after_lt, after_hash).',
  cache: 'head',
  session: atHead,
  result: tagged('blocks.transactions', {
    id: ref('BlockIdExt'),
    req_count: int,
    incomplete: bool,
    transactions: arrayOf(ref('ShortTxId')),
  }),
  params: blockTransactionsParams,
  validate: (p) => {
    blockTransactionsPaging(p);
  },
  run: async (ctx, p) => {
    const session = ctx.lite();
    const block = await resolveBlock(session, p);
    const page = await listBlockShortTxIds(session, block, p.count, blockTransactionsCursor(p.after_hash, p.after_lt));
    return toBlockTransactions({ id: block, reqCount: p.count, incomplete: page.incomplete, transactions: page.transactions });
  },
});
