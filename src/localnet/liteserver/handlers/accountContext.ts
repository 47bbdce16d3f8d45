import { LiteServerError } from '../../../errors';
import { serializeProofs } from '../../cells';
import { accountPrefix, MASTERCHAIN, shardContains } from '../../chain/ids';
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

export function resolveAccountContext(chain: LocalChain, id: BlockIdExt, account: { workchain: number; id: Buffer }): AccountContext {
  const base = requireBlock(chain, id);
  const workchain = account.workchain;
  if (base.id.workchain !== MASTERCHAIN && base.id.workchain !== workchain) {
    throw new LiteServerError(ERR_FATAL, 'reference block for a getAccountState() must belong to the masterchain');
  }
  // The account's deepest shard: its 64-bit prefix with the lowest bit as the tag.
  const accountShard = accountPrefix(account.id) | 1n;
  if (base.id.workchain !== MASTERCHAIN && !shardContains(base.id.shard, accountShard)) {
    throw new LiteServerError(ERR_FATAL, 'requested account id is not contained in the shard of the reference block');
  }
  if (base.id.workchain !== MASTERCHAIN || workchain === MASTERCHAIN) {
    return { base, shard: base, shardProof: Buffer.alloc(0) };
  }
  const info = shardInfoProof(base.state, workchain, accountShard);
  const shardProof = serializeProofs([stateRootProof(base.root), info.proof]);
  return { base, shard: info.shard !== null ? chain.shardTopOf(base, info.shard) : null, shardProof };
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
