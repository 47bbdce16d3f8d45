import { toBlockTransactionsExt } from '../../converters/blockTransactions';
import { resolveBlock } from '../blockRefs';
import { blockTransactionsCursor, listBlockTransactionsExt } from '../blockTransactions';
import { blockTransactionsParams } from '../sharedParams';
import { defineHandler } from '../define';
import { READ_VERBS } from '../types';
import { blockTransactionsPaging } from '../validation';

export default defineHandler({
  name: 'getBlockTransactionsExt',
  category: 'transactions',
  verbs: READ_VERBS,
  summary: 'Full transactions of a block, paged by (after_lt, after_hash).',
  params: blockTransactionsParams,
  validate: (p) => {
    blockTransactionsPaging(p);
  },
  run: async (ctx, p) => {
    return ctx.lite().run(async (client) => {
      const block = await resolveBlock(client, p);
      const page = await listBlockTransactionsExt(client, block, p.count, blockTransactionsCursor(p.after_hash, p.after_lt));
      return toBlockTransactionsExt({ id: block, reqCount: p.count, incomplete: page.incomplete, transactions: page.transactions });
    });
  },
});
