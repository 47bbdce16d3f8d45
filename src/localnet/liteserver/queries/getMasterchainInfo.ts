import { LocalChain } from '../../ledger/LocalChain';
import { LiteHandler } from '../dispatcher';
import { toTlBlockId } from './common';

export function getMasterchainInfo(chain: LocalChain): LiteHandler<'liteServer.getMasterchainInfo'> {
  return async () => {
    const last = chain.lastMasterchainBlock();
    const zero = chain.zeroState.id;
    return {
      kind: 'liteServer.masterchainInfo',
      last: toTlBlockId(last.id),
      stateRootHash: last.state.hash(),
      init: { kind: 'tonNode.zeroStateIdExt', workchain: zero.workchain, rootHash: zero.rootHash, fileHash: zero.fileHash },
    };
  };
}
