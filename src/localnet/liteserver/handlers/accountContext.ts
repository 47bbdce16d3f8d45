import { LiteServerError } from '../../../errors';
import { serializeProofs } from '../../cells';
import { MASTERCHAIN } from '../../chain/ids';
import { LocalChain } from '../../chain/LocalChain';
import { shardInfoProof, stateRootProof } from '../../chain/proofs';
import { StoredBlock } from '../../chain/store';
import { AccountState, BlockIdExt } from '../../../tl';
import { ERR_FATAL, INVALID_BLOCK_ID, requireBlock, toTlBlockId } from './common';

/** Where an account is read from for a reference block, and the proof linking the two. */
export interface AccountContext {
  base: StoredBlock;
  /** The block whose state holds the account; null when no shard holds that workchain. */
  shard: StoredBlock | null;
  /** For a masterchain reference and a basechain account: [mc state root proof, shard hashes proof]. */
  shardProof: Buffer;
}

export function resolveAccountContext(chain: LocalChain, id: BlockIdExt, workchain: number): AccountContext {
  const base = requireBlock(chain, id);
  if (base.id.workchain !== MASTERCHAIN && base.id.workchain !== workchain) {
    throw new LiteServerError(ERR_FATAL, 'reference block for a getAccountState() must belong to the masterchain');
  }
  if (base.id.workchain !== MASTERCHAIN || workchain === MASTERCHAIN) {
    return { base, shard: base, shardProof: Buffer.alloc(0) };
  }
  const info = shardInfoProof(base.state, workchain);
  const shardProof = serializeProofs([stateRootProof(base.root), info.proof]);
  return { base, shard: info.leaf ? chain.shardTopOf(base) : null, shardProof };
}

/** The answer for an account of a workchain no shard holds: the shard proof, no state. */
export function accountStateWithoutShard(ctx: AccountContext): AccountState {
  return {
    kind: 'liteServer.accountState',
    id: toTlBlockId(ctx.base.id),
    shardblk: INVALID_BLOCK_ID,
    shardProof: ctx.shardProof,
    proof: Buffer.alloc(0),
    state: Buffer.alloc(0),
  };
}
