import { blockTransactionsCursor, listBlockTransactionsExt, resolveBlock } from '../../chain';
import { toBlockTransactionsExt } from '../../converters';
import { blockTransactionsParams } from '../sharedParams';
import { atHead, defineHandler } from '../define';
import { ref, int, bool, tagged, transactionList } from '../resultSchema';
import { READ_VERBS } from '../types';
import { blockTransactionsPaging } from '../validation';

export default defineHandler({
  name: 'getBlockTransactionsExt',
  category: 'transactions',
  verbs: READ_VERBS,
  summary: 'Full transactions of a block, paged by (after_lt, after_hash).',
  cache: 'head',
  session: atHead,
  result: tagged('blocks.transactionsExt', {
    id: ref('BlockIdExt'),
    req_count: int,
    incomplete: bool,
    transactions: transactionList,
  }),
  params: blockTransactionsParams,
  validate: (p) => {
    blockTransactionsPaging(p);
  },
  run: async (ctx, p) => {
    const session = ctx.lite();
    const block = await resolveBlock(session, p);
    const page = await listBlockTransactionsExt(session, block, p.count, blockTransactionsCursor(p.after_hash, p.after_lt));
    return toBlockTransactionsExt({ id: block, reqCount: p.count, incomplete: page.incomplete, transactions: page.transactions });
  },
});
