import { serializeProofs } from '../../../cells';
import { LocalChain } from '../../ledger/LocalChain';
import { blockHeaderProof } from '../../ledger/proofs';
import { LiteHandler } from '../dispatcher';
import { requireBlock, toTlBlockId } from './common';

export function getBlockHeader(chain: LocalChain): LiteHandler<'liteServer.getBlockHeader'> {
  return async (query) => {
    const block = requireBlock(chain, query.id);
    return {
      kind: 'liteServer.blockHeader',
      id: toTlBlockId(block.id),
      mode: query.mode,
      headerProof: serializeProofs([blockHeaderProof(block.root, query.mode)]),
    };
  };
}
