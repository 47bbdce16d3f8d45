import { LocalChain } from '../../ledger/LocalChain';
import { LiteHandler } from '../dispatcher';
import { configInfo } from './configInfo';

export function getConfigAll(chain: LocalChain): LiteHandler<'liteServer.getConfigAll'> {
  return async (query) => configInfo(chain, query.id, query.mode, 'all');
}
