import { LiteServerError } from '../../../errors';
import { serializeBoc, serializeProofs } from '../../cells';
import { BASECHAIN } from '../../chain/ids';
import { LocalChain } from '../../chain/LocalChain';
import { shardInfoProof, stateRootProof } from '../../chain/proofs';
import { LiteHandler } from '../dispatcher';
import { ERR_FATAL, INVALID_BLOCK_ID, requireMasterchainBlock, toTlBlockId } from './common';

/** The shard holding `workchain:shard` as of a masterchain block; one shard per workchain here. */
export function getShardInfo(chain: LocalChain): LiteHandler<'liteServer.getShardInfo'> {
  return async (query) => {
    if (BigInt(query.shard) === 0n) throw new LiteServerError(ERR_FATAL, 'requested shard is invalid');
    const block = requireMasterchainBlock(chain, query.id);
    const info = shardInfoProof(block.state, query.workchain);
    const shardProof = serializeProofs([stateRootProof(block.root), info.proof]);
    // The only shard of a workchain is the full one: an exact request must name it.
    const exactMismatch = query.exact && BigInt.asUintN(64, BigInt(query.shard)) !== 0x8000000000000000n;
    if (!info.leaf || exactMismatch || query.workchain !== BASECHAIN) {
      return {
        kind: 'liteServer.shardInfo',
        id: toTlBlockId(block.id),
        shardblk: INVALID_BLOCK_ID,
        shardProof,
        shardDescr: Buffer.alloc(0),
      };
    }
    return {
      kind: 'liteServer.shardInfo',
      id: toTlBlockId(block.id),
      shardblk: toTlBlockId(chain.shardTopOf(block).id),
      shardProof,
      shardDescr: serializeBoc([info.leaf]),
    };
  };
}
