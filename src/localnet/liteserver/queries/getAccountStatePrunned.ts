import { loadAccount } from '@ton/core';
import { serializeProofs } from '../../../cells';
import { LocalChain } from '../../ledger/LocalChain';
import { prunedAccountProof } from '../../ledger/proofs';
import { LiteHandler } from '../dispatcher';
import { toTlBlockId } from './common';
import { accountProofs, accountStateWithoutShard, resolveAccountContext } from './accountContext';

/** Like getAccountState, but `state` is a Merkle proof of the Account with code, data and libraries pruned. */
export function getAccountStatePrunned(chain: LocalChain): LiteHandler<'liteServer.getAccountStatePrunned'> {
  return async (query) => {
    const ctx = resolveAccountContext(chain, query.id, query.account);
    if (!ctx.shard) return accountStateWithoutShard(ctx);
    const { proof, account } = accountProofs(ctx.shard, query.account.id);
    let state: Buffer = Buffer.alloc(0);
    if (account) {
      const s = account.beginParse();
      const hasExtraCurrencies = s.loadBit() && (loadAccount(s).storage.balance.other?.size ?? 0) > 0;
      state = serializeProofs([prunedAccountProof(account, hasExtraCurrencies)]);
    }
    return {
      kind: 'liteServer.accountState',
      id: toTlBlockId(ctx.base.id),
      shardblk: toTlBlockId(ctx.shard.id),
      shardProof: ctx.shardProof,
      proof,
      state,
    };
  };
}
