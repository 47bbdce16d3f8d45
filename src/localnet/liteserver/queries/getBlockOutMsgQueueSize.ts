import { serializeProofs } from '../../../cells';
import { LocalChain } from '../../ledger/LocalChain';
import { outMsgQueueProof, stateRootProof } from '../../ledger/proofs';
import { LiteHandler } from '../dispatcher';
import { requireBlock, toTlBlockId } from './common';

/** Every state stores `out_queue_size = 0`; mode 1 adds [state-root proof, OutMsgQueueInfo proof]. */
export function getBlockOutMsgQueueSize(chain: LocalChain): LiteHandler<'liteServer.getBlockOutMsgQueueSize'> {
  return async (query) => {
    const block = requireBlock(chain, query.id);
    return {
      kind: 'liteServer.blockOutMsgQueueSize',
      mode: query.mode,
      id: toTlBlockId(block.id),
      size: '0',
      proof: query.mode & 1 ? serializeProofs([stateRootProof(block.root), outMsgQueueProof(block.state)]) : null,
    };
  };
}
