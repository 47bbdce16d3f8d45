import { LiteServerError } from '../../../errors';
import { serializeProofs } from '../../../cells';
import { MASTERCHAIN } from '../../ledger/ids';
import { LocalChain } from '../../ledger/LocalChain';
import { configStateProof, keyBlockConfigProof, mcStateExtraParts, stateRootProof } from '../../ledger/proofs';
import { ConfigInfo, BlockIdExt } from '../../../tl';
import { requireBlock, toTlBlockId } from './common';
import { LITE_ERROR } from '../../../constants';

/**
 * Shared by getConfigAll and getConfigParams. Mode 0x8000 reads the configuration of the
 * previous key block from its McBlockExtra (no state proof); otherwise from the masterchain
 * state, with the state-root proof of the block. Mode bits 1 (shard hashes) and 128 (previous
 * blocks) add those parts of McStateExtra.
 */
export function configInfo(chain: LocalChain, id: BlockIdExt, mode: number, params: readonly number[] | 'all'): ConfigInfo {
  if (id.workchain !== MASTERCHAIN) {
    throw new LiteServerError(LITE_ERROR.fatal, 'configuration parameters can be loaded with respect to a masterchain block only');
  }
  const block = requireBlock(chain, id);
  if (mode & 0x8000) {
    const keySeqno = block.keyBlock ? block.id.seqno : block.prevKeyBlockSeqno;
    const keyBlock = chain.store.bySeqno(MASTERCHAIN, keySeqno);
    if (!keyBlock) throw new LiteServerError(LITE_ERROR.fatal, 'no key block with a configuration before this block');
    return {
      kind: 'liteServer.configInfo',
      mode: mode & 0xffff,
      id: toTlBlockId(keyBlock.id),
      stateProof: Buffer.alloc(0),
      configProof: serializeProofs([keyBlockConfigProof(keyBlock.root, params)]),
    };
  }
  const parts = mcStateExtraParts(block.state);
  const extra = [];
  if (parts && mode & 1 && parts.shardHashes) extra.push(parts.shardHashes);
  if (parts && mode & 128) extra.push(parts.more);
  return {
    kind: 'liteServer.configInfo',
    mode: mode & 0xffff,
    id: toTlBlockId(block.id),
    stateProof: serializeProofs([stateRootProof(block.root)]),
    configProof: serializeProofs([configStateProof(block.state, params, extra)]),
  };
}
