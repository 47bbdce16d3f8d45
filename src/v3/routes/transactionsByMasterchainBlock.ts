import { NotFoundError } from '../../errors';
import { masterchainBlockExists } from '../sql/blocks';
import { buildTransactionsQuery } from '../sql/transactions';
import { PAGING_PARAMETERS, pagingGroup, queryIntOrZero, transactionsPageAnswer } from './common';
import { defineRoute } from './route';

/** GetTransactionsByMasterchainBlock: every transaction of an mc block and its shard blocks. */
export const transactionsByMasterchainBlock = defineRoute({
  path: '/transactionsByMasterchainBlock',
  summary: 'Transactions of a masterchain block and its shard blocks',
  parameters: [{ name: 'seqno', type: 'integer', required: true }, ...PAGING_PARAMETERS],
  parse: (query) => ({ seqno: queryIntOrZero(query, 'seqno'), paging: pagingGroup(query) }),
  // The address book reads accounts' latest code (their friendly form), so only without it.
  immutableAt: ({ seqno }, settings) => (settings.noAddressBook ? seqno : undefined),
  async run(context, { seqno, paging }) {
    if (!(await masterchainBlockExists(context.db, seqno))) throw new NotFoundError(`masterchain block ${seqno} not found`);
    return transactionsPageAnswer(context, buildTransactionsQuery({ mcSeqno: seqno }, paging), paging.limit);
  },
});
