import { serializeBoc } from '../../../cells';
import { LocalChain } from '../../ledger/LocalChain';
import { LiteHandler } from '../dispatcher';
import { toTlBlockId } from './common';
import { accountProofs, accountStateWithoutShard, resolveAccountContext } from './accountContext';

/**
 * `proof` has two roots like TON's: the shard block's state-root proof and the state proof with
 * the accounts dictionary path (Account pruned). `state` is the full Account BoC.
 */
export function getAccountState(chain: LocalChain): LiteHandler<'liteServer.getAccountState'> {
  return async (query) => {
    const ctx = resolveAccountContext(chain, query.id, query.account);
    if (!ctx.shard) return accountStateWithoutShard(ctx);
    const { proof, account } = accountProofs(ctx.shard, query.account.id);
    return {
      kind: 'liteServer.accountState',
      id: toTlBlockId(ctx.base.id),
      shardblk: toTlBlockId(ctx.shard.id),
      shardProof: ctx.shardProof,
      proof,
      state: account ? serializeBoc([account]) : Buffer.alloc(0),
    };
  };
}
