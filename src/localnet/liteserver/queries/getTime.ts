import { LocalChain } from '../../ledger/LocalChain';
import { LiteHandler } from '../dispatcher';

/** The chain's clock (which POST /localnet/time moves), not the wall clock. */
export function getTime(chain: LocalChain): LiteHandler<'liteServer.getTime'> {
  return async () => ({ kind: 'liteServer.currentTime', now: chain.now });
}
