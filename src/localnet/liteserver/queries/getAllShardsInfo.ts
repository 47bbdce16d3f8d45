import { beginCell } from '@ton/core';
import { serializeBoc, serializeProofs } from '../../../cells';
import { LocalChain } from '../../ledger/LocalChain';
import { allShardsProof, mcBlockExtraCell } from '../../ledger/proofs';
import { loadMcBlockExtra } from '../../../tlb';
import { LiteHandler } from '../dispatcher';
import { requireMasterchainBlock, toTlBlockId } from './common';

/** `data` is the ShardHashes dictionary stored as a HashmapE (a `1` bit and the root). */
export function getAllShardsInfo(chain: LocalChain): LiteHandler<'liteServer.getAllShardsInfo'> {
  return async (query) => {
    const block = requireMasterchainBlock(chain, query.id);
    const extra = loadMcBlockExtra((mcBlockExtraCell(block.root) ?? block.root).beginParse());
    const data = beginCell().storeMaybeRef(extra.shardHashes.root).endCell();
    return {
      kind: 'liteServer.allShardsInfo',
      id: toTlBlockId(block.id),
      proof: serializeProofs([allShardsProof(block.root)]),
      data: serializeBoc([data]),
    };
  };
}
