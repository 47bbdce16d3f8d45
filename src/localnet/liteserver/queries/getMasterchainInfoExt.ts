import { LiteServerError } from '../../../errors';
import { LocalChain } from '../../ledger/LocalChain';
import { LiteHandler } from '../dispatcher';
import { LS_CAPABILITIES, LS_VERSION, toTlBlockId } from './common';
import { LITE_ERROR } from '../../../constants';

export function getMasterchainInfoExt(chain: LocalChain): LiteHandler<'liteServer.getMasterchainInfoExt'> {
  return async (query) => {
    const mode = query.mode & 0x7fffffff;
    if (mode > 0) throw new LiteServerError(LITE_ERROR.fatal, 'unsupported getMasterchainInfo mode');
    const last = chain.lastMasterchainBlock();
    const zero = chain.zeroState.id;
    return {
      kind: 'liteServer.masterchainInfoExt',
      mode,
      version: LS_VERSION,
      capabilities: LS_CAPABILITIES,
      last: toTlBlockId(last.id),
      lastUtime: last.genUtime,
      now: chain.now,
      stateRootHash: last.state.hash(),
      init: { kind: 'tonNode.zeroStateIdExt', workchain: zero.workchain, rootHash: zero.rootHash, fileHash: zero.fileHash },
    };
  };
}
