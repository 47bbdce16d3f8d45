import { LiteServerError } from '../../../errors';
import { serializeProofs } from '../../../cells';
import { BASECHAIN, longToShard, MASTERCHAIN } from '../../ledger/ids';
import { LocalChain } from '../../ledger/LocalChain';
import { blockHeaderProof } from '../../ledger/proofs';
import { StoredBlock } from '../../ledger/store';
import { LiteHandler } from '../dispatcher';
import { toTlBlockId } from './common';
import { LITE_ERROR } from '../../../constants';

/**
 * In the shard chain holding the requested shard (the shard itself or, for an account's deepest
 * prefix, the shard containing it). By seqno (mode 1): exact. By lt (mode 2): the first block whose end_lt >= lt. By utime
 * (mode 4): the first block generated at or after utime. Bits 4+ are the header proof mode.
 */
export function lookupBlock(chain: LocalChain): LiteHandler<'liteServer.lookupBlock'> {
  return async (query) => {
    const mode = query.mode;
    if (!((1 << (mode & 7)) & 0x16)) {
      throw new LiteServerError(LITE_ERROR.fatal, 'exactly one of mode.0, mode.1 and mode.2 bits must be set');
    }
    const workchain = query.id.workchain;
    let block: StoredBlock | undefined;
    const shard =
      workchain === MASTERCHAIN || workchain === BASECHAIN ? chain.store.resolveShard(workchain, longToShard(query.id.shard)) : undefined;
    if (shard !== undefined) {
      if (mode & 1) block = chain.store.bySeqno(workchain, query.id.seqno, shard);
      else if (mode & 2) block = chain.store.byLt(workchain, BigInt(query.lt ?? '0'), shard);
      else block = chain.store.byUtime(workchain, query.utime ?? 0, shard);
    }
    if (!block) throw new LiteServerError(LITE_ERROR.notReady, 'block not found');
    const headerMode = mode >> 4;
    return {
      kind: 'liteServer.blockHeader',
      id: toTlBlockId(block.id),
      mode: headerMode,
      headerProof: serializeProofs([blockHeaderProof(block.root, headerMode)]),
    };
  };
}
