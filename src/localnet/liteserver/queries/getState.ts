import { createHash } from 'crypto';
import { LiteServerError } from '../../../errors';
import { serializeBoc } from '../../../cells';
import { fromTlBlockId, requireBlock, toTlBlockId } from './common';
import { sameBlockId } from '../../ledger/ids';
import { LocalChain } from '../../ledger/LocalChain';
import { LiteHandler } from '../dispatcher';
import { LITE_ERROR } from '../../../constants';

/** Whole state BoC, as TON's server: zerostates and blocks up to seqno 1000 only. */
export function getState(chain: LocalChain): LiteHandler<'liteServer.getState'> {
  return async (query) => {
    if (query.id.seqno === 0) {
      const zero = chain.store.zeroState(query.id.workchain);
      if (!sameBlockId(zero.id, fromTlBlockId(query.id))) requireBlock(chain, query.id);
      return { kind: 'liteServer.blockState', id: query.id, rootHash: zero.id.rootHash, fileHash: zero.id.fileHash, data: zero.boc };
    }
    if (query.id.seqno > 1000) throw new LiteServerError(LITE_ERROR.fatal, 'cannot request total state: possibly too large');
    const block = requireBlock(chain, query.id);
    const data = serializeBoc([block.state]);
    return {
      kind: 'liteServer.blockState',
      id: toTlBlockId(block.id),
      rootHash: block.state.hash(),
      fileHash: createHash('sha256').update(data).digest(),
      data,
    };
  };
}
