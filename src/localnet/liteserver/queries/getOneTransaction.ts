import { LiteServerError } from '../../../errors';
import { serializeBoc, serializeProofs } from '../../../cells';
import { accountPrefix, shardContains } from '../../ledger/ids';
import { LocalChain } from '../../ledger/LocalChain';
import { transactionProof } from '../../ledger/proofs';
import { LiteHandler } from '../dispatcher';
import { requireBlock, toTlBlockId } from './common';
import { LITE_ERROR } from '../../../constants';

export function getOneTransaction(chain: LocalChain): LiteHandler<'liteServer.getOneTransaction'> {
  return async (query) => {
    const block = requireBlock(chain, query.id);
    const inShard = shardContains(block.id.shard, accountPrefix(query.account.id) | 1n);
    if (block.id.workchain !== query.account.workchain || !inShard) {
      throw new LiteServerError(LITE_ERROR.fatal, 'requested account id is not contained in the shard of the specified block');
    }
    const lt = BigInt(query.lt);
    const tx = block.transactions.find((t) => t.lt === lt && t.address.equals(query.account.id));
    return {
      kind: 'liteServer.transactionInfo',
      id: toTlBlockId(block.id),
      proof: serializeProofs([transactionProof(block.root, query.account.id, lt)]),
      transaction: tx ? serializeBoc([tx.cell]) : Buffer.alloc(0),
    };
  };
}
