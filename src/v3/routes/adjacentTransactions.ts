import { NotFoundError } from '../../errors';
import { parseGroup } from '../params/query';
import { readSingle, toHash } from '../params/rules';
import { buildAdjacentTransactionsQuery } from '../sql/transactions';
import { transactionsText } from './common';
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
    const { answer, count } = await transactionsText(context, buildAdjacentTransactionsQuery(hash, direction));
    if (count === 0) throw new NotFoundError('adjacent transactions not found');
    return answer;
  },
});
