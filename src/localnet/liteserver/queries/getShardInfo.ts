import { LiteServerError } from '../../../errors';
import { serializeBoc, serializeProofs } from '../../../cells';
import { BASECHAIN, longToShard, shardContains } from '../../ledger/ids';
import { LocalChain } from '../../ledger/LocalChain';
import { shardInfoProof, stateRootProof } from '../../ledger/proofs';
import { LiteHandler } from '../dispatcher';
import { INVALID_BLOCK_ID, requireMasterchainBlock, toTlBlockId } from './common';
import { LITE_ERROR } from '../../../constants';

/** The shard holding `workchain:shard` as of a masterchain block (with `exact`, that very shard). */
export function getShardInfo(chain: LocalChain): LiteHandler<'liteServer.getShardInfo'> {
  return async (query) => {
    if (BigInt(query.shard) === 0n) throw new LiteServerError(LITE_ERROR.fatal, 'requested shard is invalid');
    const block = requireMasterchainBlock(chain, query.id);
    const shard = longToShard(query.shard);
    const info = shardInfoProof(block.state, query.workchain, shard);
    const shardProof = serializeProofs([stateRootProof(block.root), info.proof]);
    const exactMismatch = query.exact && info.shard !== shard;
    // A non-exact request names a shard inside the leaf's, or the leaf's own.
    const outside = info.shard !== null && info.shard !== shard && !shardContains(info.shard, shard);
    if (!info.leaf || info.shard === null || exactMismatch || outside || query.workchain !== BASECHAIN) {
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
      shardblk: toTlBlockId(chain.shardTopOf(block, info.shard).id),
      shardProof,
      shardDescr: serializeBoc([info.leaf]),
    };
  };
}
