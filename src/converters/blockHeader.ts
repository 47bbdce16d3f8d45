import { BlockIdExtInput, toBlockIdExt, TonBlockIdExtJson, toSignedShard } from './blockId';
import { shardChild, shardParent, type BlockInfo, type ExtBlkRef } from '../tlb';

/** getBlockHeader's `blocks.header`. */

export interface BlockHeaderJson {
  '@type': 'blocks.header';
  id: TonBlockIdExtJson;
  global_id: number;
  version: number;
  flags: number;
  after_merge: boolean;
  after_split: boolean;
  before_split: boolean;
  want_merge: boolean;
  want_split: boolean;
  /** int32: printed signed. */
  validator_list_hash_short: number;
  catchain_seqno: number;
  min_ref_mc_seqno: number;
  is_key_block: boolean;
  prev_key_block_seqno: number;
  start_lt: string;
  end_lt: string;
  gen_utime: number;
  vert_seqno: number;
  prev_blocks: TonBlockIdExtJson[];
}

export interface BlockHeaderInput {
  id: BlockIdExtInput;
  globalId: number;
  info: BlockInfo;
}

function prevId(workchain: number, shard: bigint, ref: ExtBlkRef): BlockIdExtInput {
  return { workchain, shard, seqno: ref.seqno, rootHash: ref.rootHash, fileHash: ref.fileHash };
}

/**
 * The previous blocks as tonlib derives them from `prev_ref`: after a merge the two children of this
 * shard, after a split the parent shard, otherwise the same shard.
 */
export function previousBlockIds(id: BlockIdExtInput, info: BlockInfo): BlockIdExtInput[] {
  const shard = BigInt.asUintN(64, toSignedShard(id.shard));
  if (info.prevRef.kind === 'merged') {
    return [
      prevId(id.workchain, shardChild(shard, true), info.prevRef.prev1),
      prevId(id.workchain, shardChild(shard, false), info.prevRef.prev2),
    ];
  }
  return [prevId(id.workchain, info.afterSplit ? shardParent(shard) : shard, info.prevRef.prev)];
}

/** Field order as recorded (Py/tonlib form, which also has `flags` and `vert_seqno`). */
export function toBlockHeader(input: BlockHeaderInput): BlockHeaderJson {
  const info = input.info;
  return {
    '@type': 'blocks.header',
    id: toBlockIdExt(input.id),
    global_id: input.globalId,
    version: info.version | 0,
    flags: info.flags,
    after_merge: info.afterMerge,
    after_split: info.afterSplit,
    before_split: info.beforeSplit,
    want_merge: info.wantMerge,
    want_split: info.wantSplit,
    validator_list_hash_short: info.genValidatorListHashShort | 0,
    catchain_seqno: info.genCatchainSeqno | 0,
    min_ref_mc_seqno: info.minRefMcSeqno | 0,
    is_key_block: info.keyBlock,
    // tonlib reports it for masterchain blocks only; shardchain headers say 0.
    prev_key_block_seqno: info.notMaster ? 0 : info.prevKeyBlockSeqno | 0,
    start_lt: info.startLt.toString(10),
    end_lt: info.endLt.toString(10),
    gen_utime: info.genUtime,
    vert_seqno: info.vertSeqno,
    prev_blocks: previousBlockIds(input.id, info).map(toBlockIdExt),
  };
}
