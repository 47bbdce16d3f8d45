import { LiteServerError } from '../../../errors';
import { serializeBoc } from '../../../cells';
import { LocalChain } from '../../ledger/LocalChain';
import { LiteHandler } from '../dispatcher';
import { MAX_TRANSACTION_COUNT, toTlBlockId } from './common';
import { LITE_ERROR } from '../../../constants';

/** Follows prev_trans_lt/prev_trans_hash back from (lt, hash), at most 16 transactions. */
export function getTransactions(chain: LocalChain): LiteHandler<'liteServer.getTransactions'> {
  return async (query) => {
    const count = Math.min(query.count, MAX_TRANSACTION_COUNT);
    const { workchain, id: address } = query.account;
    const history = chain.store.transactionsOf(workchain, address);
    let lt = BigInt(query.lt);
    let hash = query.hash;
    const picked = [];
    let index = -1;
    for (let i = history.length - 1; i >= 0; i--) {
      if (history[i].lt === lt) {
        index = i;
        break;
      }
    }
    if (index < 0 && count > 0 && lt > 0n) {
      throw new LiteServerError(LITE_ERROR.notReady, 'cannot locate transaction in block with specified logical time');
    }
    while (picked.length < count && lt > 0n && index >= 0) {
      const tx = history[index];
      if (tx.lt !== lt) break;
      if (!tx.hash.equals(hash)) {
        if (picked.length === 0) throw new LiteServerError(LITE_ERROR.fatal, 'transaction hash mismatch');
        break;
      }
      picked.push(tx);
      lt = tx.prevLt;
      hash = tx.prevHash;
      index--;
    }
    return {
      kind: 'liteServer.transactionList',
      ids: picked.map((t) => toTlBlockId(t.block)),
      transactions: picked.length > 0 ? serializeBoc(picked.map((t) => t.cell)) : Buffer.alloc(0),
    };
  };
}
