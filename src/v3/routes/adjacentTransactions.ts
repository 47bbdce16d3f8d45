import { NotFoundError } from '../../errors';
import { parseGroup } from '../params/query';
import { readSingle, toHash } from '../params/rules';
import { queryAdjacentTransactionsText } from '../sql/transactions';
import { loadOptions, transactionsAnswer } from './common';
import { defineRoute } from './route';

/**
 * GetAdjacentTransactions: the transactions at the other end of a transaction's messages. A
 * direction other than in/out is ignored as ton-index-go ignores it; none found is its 404.
 */
export const adjacentTransactions = defineRoute({
  path: '/adjacentTransactions',
  summary: 'Parent and children of a transaction',
  parameters: [
    { name: 'hash', type: 'string', required: true },
    { name: 'direction', type: 'string' },
  ],
  parse(query) {
    return parseGroup((field) => {
      const direction = query.single('direction');
      return {
        hash: field(() => readSingle(query, 'hash', toHash)),
        direction: direction === 'in' || direction === 'out' ? (direction as 'in' | 'out') : undefined,
      };
    });
  },
  async run(context, { hash, direction }) {
    // No hash: ton-index-go queries with an empty one and finds nothing.
    if (!hash) throw new NotFoundError('adjacent transactions not found');
    const text = await queryAdjacentTransactionsText(context.db, hash, direction, loadOptions(context));
    // No row: json_agg of none is null.
    if (text.txs === null) throw new NotFoundError('adjacent transactions not found');
    return transactionsAnswer(context, text);
  },
});
