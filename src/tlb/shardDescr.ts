import { Builder, Slice, beginCell } from '@ton/core';
import { CurrencyCollection, loadCurrencyCollection, storeCurrencyCollection } from './common';

/** `fsm_none$0 | fsm_split$10 | fsm_merge$11` */
export type FutureSplitMerge =
  { kind: 'none' } | { kind: 'split'; splitUtime: number; interval: number } | { kind: 'merge'; mergeUtime: number; interval: number };

export function storeFutureSplitMerge(src: FutureSplitMerge) {
  return (b: Builder) => {
    if (src.kind === 'none') b.storeBit(false);
    else if (src.kind === 'split') b.storeUint(0b10, 2).storeUint(src.splitUtime, 32).storeUint(src.interval, 32);
    else b.storeUint(0b11, 2).storeUint(src.mergeUtime, 32).storeUint(src.interval, 32);
  };
}

export function loadFutureSplitMerge(s: Slice): FutureSplitMerge {
  if (!s.loadBit()) return { kind: 'none' };
  if (!s.loadBit()) return { kind: 'split', splitUtime: s.loadUint(32), interval: s.loadUint(32) };
  return { kind: 'merge', mergeUtime: s.loadUint(32), interval: s.loadUint(32) };
}

/** `shard_descr_new#a` (written) / `shard_descr#b` (also read). */
export interface ShardDescr {
  seqno: number;
  regMcSeqno: number;
  startLt: bigint;
  endLt: bigint;
  rootHash: Buffer;
  fileHash: Buffer;
  beforeSplit: boolean;
  beforeMerge: boolean;
  wantSplit: boolean;
  wantMerge: boolean;
  nxCcUpdated: boolean;
  flags: number;
  nextCatchainSeqno: number;
  nextValidatorShard: bigint;
  minRefMcSeqno: number;
  genUtime: number;
  splitMergeAt: FutureSplitMerge;
  feesCollected: CurrencyCollection;
  fundsCreated: CurrencyCollection;
}

export function storeShardDescr(src: ShardDescr) {
  return (b: Builder) => {
    b.storeUint(0xa, 4)
      .storeUint(src.seqno, 32)
      .storeUint(src.regMcSeqno, 32)
      .storeUint(src.startLt, 64)
      .storeUint(src.endLt, 64)
      .storeBuffer(src.rootHash, 32)
      .storeBuffer(src.fileHash, 32)
      .storeBit(src.beforeSplit)
      .storeBit(src.beforeMerge)
      .storeBit(src.wantSplit)
      .storeBit(src.wantMerge)
      .storeBit(src.nxCcUpdated)
      .storeUint(src.flags, 3)
      .storeUint(src.nextCatchainSeqno, 32)
      .storeUint(src.nextValidatorShard, 64)
      .storeUint(src.minRefMcSeqno, 32)
      .storeUint(src.genUtime, 32)
      .store(storeFutureSplitMerge(src.splitMergeAt))
      .storeRef(beginCell().store(storeCurrencyCollection(src.feesCollected)).store(storeCurrencyCollection(src.fundsCreated)));
  };
}

export function loadShardDescr(s: Slice): ShardDescr {
  const tag = s.loadUint(4);
  if (tag !== 0xa && tag !== 0xb) throw new Error(`ShardDescr: bad tag 0x${tag.toString(16)}`);
  const head = {
    seqno: s.loadUint(32),
    regMcSeqno: s.loadUint(32),
    startLt: s.loadUintBig(64),
    endLt: s.loadUintBig(64),
    rootHash: s.loadBuffer(32),
    fileHash: s.loadBuffer(32),
    beforeSplit: s.loadBit(),
    beforeMerge: s.loadBit(),
    wantSplit: s.loadBit(),
    wantMerge: s.loadBit(),
    nxCcUpdated: s.loadBit(),
    flags: s.loadUint(3),
    nextCatchainSeqno: s.loadUint(32),
    nextValidatorShard: s.loadUintBig(64),
    minRefMcSeqno: s.loadUint(32),
    genUtime: s.loadUint(32),
    splitMergeAt: loadFutureSplitMerge(s),
  };
  const fees = tag === 0xa ? s.loadRef().beginParse() : s;
  return { ...head, feesCollected: loadCurrencyCollection(fees), fundsCreated: loadCurrencyCollection(fees) };
}

/** `bt_leaf$0 leaf:X = BinTree X` for a single-leaf tree (one shard per workchain). */
export function storeBinTreeLeaf(store: (b: Builder) => void) {
  return (b: Builder) => {
    b.storeBit(false);
    store(b);
  };
}

/** Leaves of a `BinTree X`, left to right, each with its shard path bits. */
export function loadBinTreeLeaves<X>(s: Slice, loadLeaf: (s: Slice) => X): { path: string; leaf: X }[] {
  const out: { path: string; leaf: X }[] = [];
  const walk = (slice: Slice, path: string) => {
    if (!slice.loadBit()) {
      out.push({ path, leaf: loadLeaf(slice) });
      return;
    }
    walk(slice.loadRef().beginParse(), path + '0');
    walk(slice.loadRef().beginParse(), path + '1');
  };
  walk(s, '');
  return out;
}
