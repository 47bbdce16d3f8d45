import { beginCell, Builder, loadShardIdent, ShardIdent, Slice, storeShardIdent } from '@ton/core';
import {
  BlkPrevInfo,
  ExtBlkRef,
  expectTag,
  GlobalVersion,
  loadBlkPrevInfo,
  loadExtBlkRef,
  loadGlobalVersion,
  storeBlkPrevInfo,
  storeExtBlkRef,
  storeGlobalVersion,
} from './common';

/** `block_info#9bc7a987 ...` (block.tlb). */
export interface BlockInfo {
  version: number;
  notMaster: boolean;
  afterMerge: boolean;
  beforeSplit: boolean;
  afterSplit: boolean;
  wantSplit: boolean;
  wantMerge: boolean;
  keyBlock: boolean;
  vertSeqnoIncr: boolean;
  flags: number;
  seqno: number;
  vertSeqno: number;
  shard: ShardIdent;
  genUtime: number;
  startLt: bigint;
  endLt: bigint;
  genValidatorListHashShort: number;
  genCatchainSeqno: number;
  minRefMcSeqno: number;
  prevKeyBlockSeqno: number;
  /** Present iff `flags & 1`. */
  genSoftware: GlobalVersion | null;
  /** `master_ref:not_master?^BlkMasterInfo` */
  masterRef: ExtBlkRef | null;
  prevRef: BlkPrevInfo;
  prevVertRef: BlkPrevInfo | null;
}

export function storeBlockInfo(src: BlockInfo) {
  return (b: Builder) => {
    if ((src.flags & 1) !== (src.genSoftware ? 1 : 0)) throw new Error('BlockInfo: flags.0 must match gen_software');
    if (src.notMaster !== (src.masterRef !== null)) throw new Error('BlockInfo: master_ref must match not_master');
    b.storeUint(0x9bc7a987, 32)
      .storeUint(src.version, 32)
      .storeBit(src.notMaster)
      .storeBit(src.afterMerge)
      .storeBit(src.beforeSplit)
      .storeBit(src.afterSplit)
      .storeBit(src.wantSplit)
      .storeBit(src.wantMerge)
      .storeBit(src.keyBlock)
      .storeBit(src.vertSeqnoIncr)
      .storeUint(src.flags, 8)
      .storeUint(src.seqno, 32)
      .storeUint(src.vertSeqno, 32)
      .store(storeShardIdent(src.shard))
      .storeUint(src.genUtime, 32)
      .storeUint(src.startLt, 64)
      .storeUint(src.endLt, 64)
      .storeUint(src.genValidatorListHashShort, 32)
      .storeUint(src.genCatchainSeqno, 32)
      .storeUint(src.minRefMcSeqno, 32)
      .storeUint(src.prevKeyBlockSeqno, 32);
    if (src.genSoftware) b.store(storeGlobalVersion(src.genSoftware));
    if (src.masterRef) b.storeRef(beginCell().store(storeExtBlkRef(src.masterRef)));
    b.storeRef(beginCell().store(storeBlkPrevInfo(src.prevRef)));
    if (src.vertSeqnoIncr) {
      if (!src.prevVertRef) throw new Error('BlockInfo: prev_vert_ref required');
      b.storeRef(beginCell().store(storeBlkPrevInfo(src.prevVertRef)));
    }
  };
}

export function loadBlockInfo(s: Slice): BlockInfo {
  expectTag(s, 0x9bc7a987, 32, 'BlockInfo');
  const version = s.loadUint(32);
  const notMaster = s.loadBit();
  const afterMerge = s.loadBit();
  const beforeSplit = s.loadBit();
  const afterSplit = s.loadBit();
  const wantSplit = s.loadBit();
  const wantMerge = s.loadBit();
  const keyBlock = s.loadBit();
  const vertSeqnoIncr = s.loadBit();
  const flags = s.loadUint(8);
  const seqno = s.loadUint(32);
  const vertSeqno = s.loadUint(32);
  const shard = loadShardIdent(s);
  const genUtime = s.loadUint(32);
  const startLt = s.loadUintBig(64);
  const endLt = s.loadUintBig(64);
  const genValidatorListHashShort = s.loadUint(32);
  const genCatchainSeqno = s.loadUint(32);
  const minRefMcSeqno = s.loadUint(32);
  const prevKeyBlockSeqno = s.loadUint(32);
  const genSoftware = flags & 1 ? loadGlobalVersion(s) : null;
  const masterRef = notMaster ? loadExtBlkRef(s.loadRef().beginParse()) : null;
  const prevRef = loadBlkPrevInfo(s.loadRef().beginParse(), afterMerge);
  const prevVertRef = vertSeqnoIncr ? loadBlkPrevInfo(s.loadRef().beginParse(), false) : null;
  return {
    version,
    notMaster,
    afterMerge,
    beforeSplit,
    afterSplit,
    wantSplit,
    wantMerge,
    keyBlock,
    vertSeqnoIncr,
    flags,
    seqno,
    vertSeqno,
    shard,
    genUtime,
    startLt,
    endLt,
    genValidatorListHashShort,
    genCatchainSeqno,
    minRefMcSeqno,
    prevKeyBlockSeqno,
    genSoftware,
    masterRef,
    prevRef,
    prevVertRef,
  };
}
