import { LocalChain } from '../../ledger/LocalChain';
import { LiteHandler } from '../dispatcher';
import { requireBlock, toTlBlockId } from './common';

/** The block's BoC as sealed (kept with the block): its SHA-256 is the block's file hash. */
export function getBlock(chain: LocalChain): LiteHandler<'liteServer.getBlock'> {
  return async (query) => {
    const block = requireBlock(chain, query.id);
    return { kind: 'liteServer.blockData', id: toTlBlockId(block.id), data: block.boc };
  };
}
