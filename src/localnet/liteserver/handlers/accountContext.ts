import { LiteServerError } from '../../../errors';
import { serializeProofs } from '../../cells';
import { MASTERCHAIN } from '../../chain/ids';
import { LocalChain } from '../../chain/LocalChain';
import { shardInfoProof, stateRootProof } from '../../chain/proofs';
import { StoredBlock } from '../../chain/store';
import { BlockIdExt } from '../../../tl';
import { ERR_FATAL, requireBlock } from './common';

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
