import { LiteServerError } from '../../../errors';
import { serializeProofs } from '../../../cells';
import { LRUCache } from 'lru-cache';
import { accountPrefix, BASECHAIN, MASTERCHAIN, shardContains } from '../../ledger/ids';
import { LocalChain } from '../../ledger/LocalChain';
import { accountInState, shardInfoProof, stateRootProof } from '../../ledger/proofs';
import { StoredBlock } from '../../ledger/store';
import type { Cell } from '@ton/core';
import { AccountState, BlockIdExt } from '../../../tl';
import { INVALID_BLOCK_ID, requireBlock, toTlBlockId } from './common';
import { LITE_ERROR } from '../../../constants';

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
    throw new LiteServerError(LITE_ERROR.fatal, 'reference block for a getAccountState() must belong to the masterchain');
  }
  // The account's deepest shard: its 64-bit prefix with the lowest bit as the tag.
  const accountShard = accountPrefix(account.id) | 1n;
  if (base.id.workchain !== MASTERCHAIN && !shardContains(base.id.shard, accountShard)) {
    throw new LiteServerError(LITE_ERROR.fatal, 'requested account id is not contained in the shard of the reference block');
  }
  if (base.id.workchain !== MASTERCHAIN || workchain === MASTERCHAIN) {
    return { base, shard: base, shardProof: Buffer.alloc(0) };
  }
  // Every account of one shard gets the same shard proof at a given block: made once.
  const chainShard = workchain === BASECHAIN ? chain.shards.find((s) => shardContains(s, accountShard)) : undefined;
  const key = chainShard === undefined ? null : `${base.id.rootHash.toString('hex')}:${chainShard}`;
  const cache = key ? shardProofCache(chain) : null;
  const cached = key ? cache?.get(key) : undefined;
  if (cached) return { base, shard: cached.shard, shardProof: cached.shardProof };
  const info = shardInfoProof(base.state, workchain, accountShard);
  const shardProof = serializeProofs([stateRootProof(base.root), info.proof]);
  const shard = info.shard !== null ? chain.shardTopOf(base, info.shard) : null;
  if (key && cache) cache.set(key, { shard, shardProof });
  return { base, shard, shardProof };
}

const shardProofCaches = new WeakMap<LocalChain, LRUCache<string, { shard: StoredBlock | null; shardProof: Buffer }>>();

/** Shard proofs of the latest few blocks (clients read at the head), per chain. */
function shardProofCache(chain: LocalChain): LRUCache<string, { shard: StoredBlock | null; shardProof: Buffer }> {
  let cache = shardProofCaches.get(chain);
  if (!cache) {
    cache = new LRUCache({ max: 64 });
    shardProofCaches.set(chain, cache);
  }
  return cache;
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

/**
 * The `proof` of an account answer (two roots, as TON's: the shard block's state-root proof and
 * the state proof of the accounts dictionary path) and the Account cell, from one dictionary walk.
 */
export function accountProofs(shard: StoredBlock, accountId: Buffer): { proof: Buffer; account: Cell | null } {
  const inState = accountInState(shard.state, accountId);
  return { proof: serializeProofs([stateRootProof(shard.root), inState.proof]), account: inState.account };
}
