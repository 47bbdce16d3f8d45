import { Builder, Cell, CellType, Slice } from '@ton/core';

/**
 * TL-B of a block's header part (block.tlb): `BlockInfo`, `ShardIdent`, `ExtBlkRef`, `GlobalVersion`,
 * and the `Block` prefix that carries `global_id`. Only what getBlockHeader needs; the rest of the
 * block (value flow, state update, extra) is left untouched.
 */

export interface ShardIdent {
  /** shard_pfx_bits, 0..60. */
  prefixBits: number;
  workchain: number;
  /** shard_prefix: the prefix bits left-aligned in 64 bits, without the terminating 1 bit. */
  prefix: bigint;
}

export interface ExtBlkRef {
  endLt: bigint;
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
}

export interface GlobalVersion {
  version: number;
  capabilities: bigint;
}

export type BlkPrevInfo = { type: 'single'; prev: ExtBlkRef } | { type: 'merged'; prev1: ExtBlkRef; prev2: ExtBlkRef };

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
  /** Present when `flags & 1`. */
  genSoftware: GlobalVersion | null;
  /** Present for shardchain blocks. */
  masterRef: ExtBlkRef | null;
  prevRef: BlkPrevInfo;
  /** Present when `vertSeqnoIncr`. */
  prevVertRef: ExtBlkRef | null;
}

const BLOCK_INFO_TAG = 0x9bc7a987;
const BLOCK_TAG = 0x11ef55aa;
const GLOBAL_VERSION_TAG = 0xc4;

export function loadShardIdent(slice: Slice): ShardIdent {
  if (slice.loadUint(2) !== 0) throw new Error('invalid ShardIdent tag');
  const prefixBits = slice.loadUint(6);
  if (prefixBits > 60) throw new Error(`invalid shard_pfx_bits ${prefixBits}`);
  return { prefixBits, workchain: slice.loadInt(32), prefix: slice.loadUintBig(64) };
}

export function storeShardIdent(shard: ShardIdent): (builder: Builder) => void {
  return (builder) => {
    builder.storeUint(0, 2).storeUint(shard.prefixBits, 6).storeInt(shard.workchain, 32).storeUint(shard.prefix, 64);
  };
}

/** The 64-bit shard id (prefix plus its terminating 1 bit), unsigned. */
export function shardIdentToShardId(shard: ShardIdent): bigint {
  return BigInt.asUintN(64, shard.prefix | (1n << BigInt(63 - shard.prefixBits)));
}

export function loadExtBlkRef(slice: Slice): ExtBlkRef {
  return {
    endLt: slice.loadUintBig(64),
    seqno: slice.loadUint(32),
    rootHash: slice.loadBuffer(32),
    fileHash: slice.loadBuffer(32),
  };
}

export function storeExtBlkRef(ref: ExtBlkRef): (builder: Builder) => void {
  return (builder) => {
    builder.storeUint(ref.endLt, 64).storeUint(ref.seqno, 32).storeBuffer(ref.rootHash, 32).storeBuffer(ref.fileHash, 32);
  };
}

export function loadGlobalVersion(slice: Slice): GlobalVersion {
  if (slice.loadUint(8) !== GLOBAL_VERSION_TAG) throw new Error('invalid GlobalVersion tag');
  return { version: slice.loadUint(32), capabilities: slice.loadUintBig(64) };
}

export function storeGlobalVersion(value: GlobalVersion): (builder: Builder) => void {
  return (builder) => {
    builder.storeUint(GLOBAL_VERSION_TAG, 8).storeUint(value.version, 32).storeUint(value.capabilities, 64);
  };
}

export function loadBlockInfo(slice: Slice): BlockInfo {
  if (slice.loadUint(32) !== BLOCK_INFO_TAG) throw new Error('invalid BlockInfo tag');
  const version = slice.loadUint(32);
  const notMaster = slice.loadBit();
  const afterMerge = slice.loadBit();
  const beforeSplit = slice.loadBit();
  const afterSplit = slice.loadBit();
  const wantSplit = slice.loadBit();
  const wantMerge = slice.loadBit();
  const keyBlock = slice.loadBit();
  const vertSeqnoIncr = slice.loadBit();
  const flags = slice.loadUint(8);
  const seqno = slice.loadUint(32);
  const vertSeqno = slice.loadUint(32);
  const shard = loadShardIdent(slice);
  const genUtime = slice.loadUint(32);
  const startLt = slice.loadUintBig(64);
  const endLt = slice.loadUintBig(64);
  const genValidatorListHashShort = slice.loadUint(32);
  const genCatchainSeqno = slice.loadUint(32);
  const minRefMcSeqno = slice.loadUint(32);
  const prevKeyBlockSeqno = slice.loadUint(32);
  const genSoftware = flags & 1 ? loadGlobalVersion(slice) : null;
  const masterRef = notMaster ? loadExtBlkRef(slice.loadRef().beginParse()) : null;
  const prevSlice = slice.loadRef().beginParse();
  const prevRef: BlkPrevInfo = afterMerge
    ? {
        type: 'merged',
        prev1: loadExtBlkRef(prevSlice.loadRef().beginParse()),
        prev2: loadExtBlkRef(prevSlice.loadRef().beginParse()),
      }
    : { type: 'single', prev: loadExtBlkRef(prevSlice) };
  const prevVertRef = vertSeqnoIncr ? loadExtBlkRef(slice.loadRef().beginParse()) : null;
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

export function storeBlockInfo(info: BlockInfo): (builder: Builder) => void {
  return (builder) => {
    builder
      .storeUint(BLOCK_INFO_TAG, 32)
      .storeUint(info.version, 32)
      .storeBit(info.notMaster)
      .storeBit(info.afterMerge)
      .storeBit(info.beforeSplit)
      .storeBit(info.afterSplit)
      .storeBit(info.wantSplit)
      .storeBit(info.wantMerge)
      .storeBit(info.keyBlock)
      .storeBit(info.vertSeqnoIncr)
      .storeUint(info.flags, 8)
      .storeUint(info.seqno, 32)
      .storeUint(info.vertSeqno, 32)
      .store(storeShardIdent(info.shard))
      .storeUint(info.genUtime, 32)
      .storeUint(info.startLt, 64)
      .storeUint(info.endLt, 64)
      .storeUint(info.genValidatorListHashShort, 32)
      .storeUint(info.genCatchainSeqno, 32)
      .storeUint(info.minRefMcSeqno, 32)
      .storeUint(info.prevKeyBlockSeqno, 32);
    if (info.flags & 1) {
      if (!info.genSoftware) throw new Error('flags bit 0 requires gen_software');
      builder.store(storeGlobalVersion(info.genSoftware));
    }
    if (info.notMaster) {
      if (!info.masterRef) throw new Error('a shardchain block requires master_ref');
      const masterRef = info.masterRef;
      builder.storeRef(new Builder().store(storeExtBlkRef(masterRef)).endCell());
    }
    const prevRef = info.prevRef;
    const prevCell =
      prevRef.type === 'merged'
        ? new Builder()
            .storeRef(new Builder().store(storeExtBlkRef(prevRef.prev1)).endCell())
            .storeRef(new Builder().store(storeExtBlkRef(prevRef.prev2)).endCell())
            .endCell()
        : new Builder().store(storeExtBlkRef(prevRef.prev)).endCell();
    builder.storeRef(prevCell);
    if (info.vertSeqnoIncr) {
      if (!info.prevVertRef) throw new Error('vert_seqno_incr requires prev_vert_ref');
      builder.storeRef(new Builder().store(storeExtBlkRef(info.prevVertRef)).endCell());
    }
  };
}

export interface BlockHeaderPart {
  globalId: number;
  info: BlockInfo;
}

/**
 * `global_id` and `BlockInfo` of a block root. Accepts the block root itself or a Merkle proof of it
 * (liteServer.blockHeader's header_proof), whose pruned branches are never touched here.
 */
export function loadBlockHeaderPart(root: Cell): BlockHeaderPart {
  const block = root.type === CellType.MerkleProof ? root.refs[0] : root;
  const slice = block.beginParse();
  if (slice.loadUint(32) !== BLOCK_TAG) throw new Error('invalid Block tag');
  const globalId = slice.loadInt(32);
  const info = loadBlockInfo(slice.loadRef().beginParse());
  return { globalId, info };
}
