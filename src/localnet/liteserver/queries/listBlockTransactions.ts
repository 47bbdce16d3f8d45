import { serializeProofs } from '../../../cells';
import { LocalChain } from '../../ledger/LocalChain';
import { blockTransactionsProof } from '../../ledger/proofs';
import { LiteHandler } from '../dispatcher';
import { pageBlockTransactions } from './blockTransactionList';
import { requireBlock, toTlBlockId } from './common';

/** Transaction ids of a block: mode bits 0/1/2 select account/lt/hash, 32 adds a proof. */
export function listBlockTransactions(chain: LocalChain): LiteHandler<'liteServer.listBlockTransactions'> {
  return async (query) => {
    const block = requireBlock(chain, query.id);
    // Transaction metadata (mode 256) is not modelled: message descriptors are empty.
    const mode = query.mode & ~256;
    const page = pageBlockTransactions(block, mode, query.count, query.after);
    return {
      kind: 'liteServer.blockTransactions',
      id: toTlBlockId(block.id),
      reqCount: query.count,
      incomplete: page.incomplete,
      ids: page.transactions.map((tx) => ({
        kind: 'liteServer.transactionId' as const,
        mode,
        account: mode & 1 ? tx.address : null,
        lt: mode & 2 ? tx.lt.toString() : null,
        hash: mode & 4 ? tx.hash : null,
        metadata: null,
      })),
      proof: mode & 32 ? serializeProofs([blockTransactionsProof(block.root, page.transactions, query.mode & 128 ? query.after : null)]) : Buffer.alloc(0),
    };
  };
}
