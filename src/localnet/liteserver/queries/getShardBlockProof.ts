import { serializeProofs } from '../../../cells';
import { MASTERCHAIN } from '../../ledger/ids';
import { LocalChain } from '../../ledger/LocalChain';
import { mcBlockShardProof } from '../../ledger/proofs';
import { LiteHandler } from '../dispatcher';
import { requireBlock, toTlBlockId } from './common';

/**
 * Links from the masterchain block that registered a shard block down to it. Each masterchain
 * block registers the block of every shard made in its round, so there is exactly one link.
 */
export function getShardBlockProof(chain: LocalChain): LiteHandler<'liteServer.getShardBlockProof'> {
  return async (query) => {
    const block = requireBlock(chain, query.id);
    if (block.id.workchain === MASTERCHAIN) {
      return { kind: 'liteServer.shardBlockProof', masterchainId: toTlBlockId(block.id), links: [] };
    }
    const mc = chain.store.bySeqno(MASTERCHAIN, block.masterchainSeqno);
    if (!mc) throw new Error('masterchain block of a shard block is missing');
    return {
      kind: 'liteServer.shardBlockProof',
      masterchainId: toTlBlockId(mc.id),
      links: [
        {
          kind: 'liteServer.shardBlockLink',
          id: toTlBlockId(block.id),
          proof: serializeProofs([mcBlockShardProof(mc.root, block.id.workchain, block.id.shard)]),
        },
      ],
    };
  };
}
