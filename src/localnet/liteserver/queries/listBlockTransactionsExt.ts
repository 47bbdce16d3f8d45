import { serializeBoc, serializeProofs } from '../../../cells';
import { LocalChain } from '../../ledger/LocalChain';
import { blockTransactionsProof } from '../../ledger/proofs';
import { LiteHandler } from '../dispatcher';
import { pageBlockTransactions } from './blockTransactionList';
import { requireBlock, toTlBlockId } from './common';

/** Like listBlockTransactions, with the transactions themselves as one multi-root BoC. */
export function listBlockTransactionsExt(chain: LocalChain): LiteHandler<'liteServer.listBlockTransactionsExt'> {
  return async (query) => {
    const block = requireBlock(chain, query.id);
    const mode = query.mode & ~256;
    const page = pageBlockTransactions(block, mode, query.count, query.after);
    return {
      kind: 'liteServer.blockTransactionsExt',
      id: toTlBlockId(block.id),
      reqCount: query.count,
      incomplete: page.incomplete,
      transactions: page.transactions.length > 0 ? serializeBoc(page.transactions.map((t) => t.cell)) : Buffer.alloc(0),
      proof: mode & 32 ? serializeProofs([blockTransactionsProof(block.root, page.transactions, query.mode & 128 ? query.after : null)]) : Buffer.alloc(0),
    };
  };
}
