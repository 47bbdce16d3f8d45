import { LocalChain } from '../../ledger/LocalChain';
import { LiteHandler } from '../dispatcher';
import { configInfo } from './configInfo';

export function getConfigParams(chain: LocalChain): LiteHandler<'liteServer.getConfigParams'> {
  return async (query) => configInfo(chain, query.id, query.mode, query.paramList);
}
