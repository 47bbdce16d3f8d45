import { LiteHandler } from '../dispatcher';
import { LocalChain } from '../../ledger/LocalChain';
import { LS_CAPABILITIES, LS_VERSION } from './common';

export function getVersion(chain: LocalChain): LiteHandler<'liteServer.getVersion'> {
  return async () => ({ kind: 'liteServer.version', mode: 0, version: LS_VERSION, capabilities: LS_CAPABILITIES, now: chain.now });
}
