import { LiteServerError } from '../../../errors';
import { BlockId, blockIdString, longToShard, MASTERCHAIN, shardToLong } from '../../ledger/ids';
import { LocalChain } from '../../ledger/LocalChain';
import { StoredBlock } from '../../ledger/store';
import { BlockIdExt } from '../../../tl';
import { LITE_ERROR } from '../../../constants';

/** TON's lite-server constants (liteserver.hpp). */
export const LS_VERSION = 0x101;
export const LS_CAPABILITIES = '7';
export const MAX_TRANSACTION_COUNT = 16;
export const MAX_BLOCK_TRANSACTIONS = 256;
/** Collator::get_skip_externals_queue_size(), reported by getOutMsgQueueSizes. */
export const EXT_MSG_QUEUE_SIZE_LIMIT = 8000;

export function toTlBlockId(id: BlockId): BlockIdExt {
  return {
    kind: 'tonNode.blockIdExt',
    workchain: id.workchain,
    shard: shardToLong(id.shard),
    seqno: id.seqno,
    rootHash: id.rootHash,
    fileHash: id.fileHash,
  };
}

export function fromTlBlockId(id: BlockIdExt): BlockId {
  return { workchain: id.workchain, shard: longToShard(id.shard), seqno: id.seqno, rootHash: id.rootHash, fileHash: id.fileHash };
}

/** `BlockIdExt::invalidate_clear()` as TL: what the real server answers for "no such shard". */
export const INVALID_BLOCK_ID: BlockIdExt = {
  kind: 'tonNode.blockIdExt',
  workchain: -0x80000000,
  shard: '0',
  seqno: 0,
  rootHash: Buffer.alloc(32),
  fileHash: Buffer.alloc(32),
};

/** The stored block with exactly this id; 651 `block not found` otherwise. */
export function requireBlock(chain: LocalChain, id: BlockIdExt): StoredBlock {
  const block = chain.store.byId(fromTlBlockId(id));
  if (!block) throw new LiteServerError(LITE_ERROR.notReady, `block ${blockIdString(fromTlBlockId(id))} not found`);
  return block;
}

export function requireMasterchainBlock(
  chain: LocalChain,
  id: BlockIdExt,
  what = 'reference block must belong to the masterchain',
): StoredBlock {
  if (id.workchain !== MASTERCHAIN) throw new LiteServerError(LITE_ERROR.fatal, what);
  return requireBlock(chain, id);
}
