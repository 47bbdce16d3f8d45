import {
  beginCell,
  Builder,
  Cell,
  CurrencyCollection,
  Dictionary,
  loadCurrencyCollection,
  Slice,
  storeCurrencyCollection,
} from '@ton/core';

export { loadCurrencyCollection, storeCurrencyCollection };
export type { CurrencyCollection };

/** `depth_balance$_ split_depth:(#<= 30) balance:CurrencyCollection`: the extra of ShardAccounts. */
export interface DepthBalanceInfo {
  splitDepth: number;
  balance: CurrencyCollection;
}

/** `#<= 30` takes 5 bits. */
const SPLIT_DEPTH_BITS = 5;

export function storeDepthBalanceInfo(src: DepthBalanceInfo) {
  return (b: Builder) => {
    b.storeUint(src.splitDepth, SPLIT_DEPTH_BITS).store(storeCurrencyCollection(src.balance));
  };
}

export function loadDepthBalanceInfo(s: Slice): DepthBalanceInfo {
  const splitDepth = s.loadUint(SPLIT_DEPTH_BITS);
  if (splitDepth > 30) throw new Error(`DepthBalanceInfo: split_depth ${splitDepth} > 30`);
  return { splitDepth, balance: loadCurrencyCollection(s) };
}

/** `ext_blk_ref$_ end_lt:uint64 seq_no:uint32 root_hash:bits256 file_hash:bits256` */
export interface ExtBlkRef {
  endLt: bigint;
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
}

export function storeExtBlkRef(src: ExtBlkRef) {
  return (b: Builder) => {
    b.storeUint(src.endLt, 64).storeUint(src.seqno, 32).storeBuffer(src.rootHash, 32).storeBuffer(src.fileHash, 32);
  };
}

export function loadExtBlkRef(s: Slice): ExtBlkRef {
  return { endLt: s.loadUintBig(64), seqno: s.loadUint(32), rootHash: s.loadBuffer(32), fileHash: s.loadBuffer(32) };
}

/** `prev_blk_info$_ prev:ExtBlkRef = BlkPrevInfo 0;  prev_blks_info$_ prev1:^ExtBlkRef prev2:^ExtBlkRef = BlkPrevInfo 1;` */
export type BlkPrevInfo = { kind: 'single'; prev: ExtBlkRef } | { kind: 'merged'; prev1: ExtBlkRef; prev2: ExtBlkRef };

export function storeBlkPrevInfo(src: BlkPrevInfo) {
  return (b: Builder) => {
    if (src.kind === 'single') {
      b.store(storeExtBlkRef(src.prev));
    } else {
      b.storeRef(beginCell().store(storeExtBlkRef(src.prev1)));
      b.storeRef(beginCell().store(storeExtBlkRef(src.prev2)));
    }
  };
}

export function loadBlkPrevInfo(s: Slice, afterMerge: boolean): BlkPrevInfo {
  if (!afterMerge) return { kind: 'single', prev: loadExtBlkRef(s) };
  return { kind: 'merged', prev1: loadExtBlkRef(s.loadRef().beginParse()), prev2: loadExtBlkRef(s.loadRef().beginParse()) };
}

/** `capabilities#c4 version:uint32 capabilities:uint64 = GlobalVersion` */
export interface GlobalVersion {
  version: number;
  capabilities: bigint;
}

export function storeGlobalVersion(src: GlobalVersion) {
  return (b: Builder) => {
    b.storeUint(0xc4, 8).storeUint(src.version, 32).storeUint(src.capabilities, 64);
  };
}

export function loadGlobalVersion(s: Slice): GlobalVersion {
  expectTag(s, 0xc4, 8, 'GlobalVersion');
  return { version: s.loadUint(32), capabilities: s.loadUintBig(64) };
}

/** `_ key:Bool blk_ref:ExtBlkRef = KeyExtBlkRef` */
export interface KeyExtBlkRef {
  key: boolean;
  blkRef: ExtBlkRef;
}

export function storeKeyExtBlkRef(src: KeyExtBlkRef) {
  return (b: Builder) => {
    b.storeBit(src.key).store(storeExtBlkRef(src.blkRef));
  };
}

export function loadKeyExtBlkRef(s: Slice): KeyExtBlkRef {
  return { key: s.loadBit(), blkRef: loadExtBlkRef(s) };
}

/** `_ key:Bool max_end_lt:uint64 = KeyMaxLt` */
export interface KeyMaxLt {
  key: boolean;
  maxEndLt: bigint;
}

export function storeKeyMaxLt(src: KeyMaxLt) {
  return (b: Builder) => {
    b.storeBit(src.key).storeUint(src.maxEndLt, 64);
  };
}

export function loadKeyMaxLt(s: Slice): KeyMaxLt {
  return { key: s.loadBit(), maxEndLt: s.loadUintBig(64) };
}

/** A `HashmapE`/`HashmapAugE` as stored: the root edge cell (null when empty). */
export interface DictRoot {
  root: Cell | null;
}

/** A `HashmapAugE n X Y` as stored: root edge cell and the extra of the whole dictionary. */
export interface AugDictRoot<E> extends DictRoot {
  extra: E;
}

export function storeHashmapE(src: DictRoot) {
  return (b: Builder) => {
    b.storeMaybeRef(src.root);
  };
}

export function loadHashmapE(s: Slice): DictRoot {
  return { root: s.loadMaybeRef() };
}

export function storeHashmapAugE<E>(src: AugDictRoot<E>, storeExtra: (e: E) => (b: Builder) => void) {
  return (b: Builder) => {
    b.storeMaybeRef(src.root).store(storeExtra(src.extra));
  };
}

export function loadHashmapAugE<E>(s: Slice, loadExtra: (s: Slice) => E): AugDictRoot<E> {
  const root = s.loadMaybeRef();
  return { root, extra: loadExtra(s) };
}

export function zeroCurrency(): CurrencyCollection {
  return { coins: 0n };
}

/** Sum of two CurrencyCollections, extra currencies included. */
export function addCurrency(a: CurrencyCollection, b: CurrencyCollection): CurrencyCollection {
  const coins = a.coins + b.coins;
  const ao = a.other && a.other.size > 0 ? a.other : null;
  const bo = b.other && b.other.size > 0 ? b.other : null;
  if (!ao && !bo) return { coins };
  const other = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.BigVarUint(5));
  for (const src of [ao, bo]) {
    if (!src) continue;
    for (const [id, amount] of src) other.set(id, (other.get(id) ?? 0n) + amount);
  }
  return { coins, other };
}

export function expectTag(s: Slice, tag: number, bits: number, what: string): void {
  const got = s.loadUint(bits);
  if (got !== tag) {
    throw new Error(`${what}: expected tag 0x${tag.toString(16)}, got 0x${got.toString(16)}`);
  }
}
