import { beginCell, Builder, Cell, loadShardIdent, ShardIdent, Slice, storeShardIdent } from '@ton/core';
import {
  AugDictRoot,
  CurrencyCollection,
  DictRoot,
  expectTag,
  ExtBlkRef,
  KeyMaxLt,
  loadCurrencyCollection,
  loadExtBlkRef,
  loadHashmapAugE,
  loadHashmapE,
  loadKeyMaxLt,
  storeCurrencyCollection,
  storeExtBlkRef,
  storeHashmapAugE,
  storeHashmapE,
  storeKeyMaxLt,
} from './common';

/** `shard_state#9023afe2 ...` (block.tlb). */
export interface ShardStateUnsplit {
  globalId: number;
  shardId: ShardIdent;
  seqno: number;
  vertSeqno: number;
  genUtime: number;
  genLt: bigint;
  minRefMcSeqno: number;
  /** Cell holding OutMsgQueueInfo. */
  outMsgQueueInfo: Cell;
  beforeSplit: boolean;
  /** Cell holding ShardAccounts (HashmapAugE 256 ShardAccount DepthBalanceInfo). */
  accounts: Cell;
  overloadHistory: bigint;
  underloadHistory: bigint;
  totalBalance: CurrencyCollection;
  totalValidatorFees: CurrencyCollection;
  /** HashmapE 256 LibDescr. */
  libraries: DictRoot;
  masterRef: ExtBlkRef | null;
  custom: McStateExtra | null;
}

export function storeShardStateUnsplit(src: ShardStateUnsplit) {
  return (b: Builder) => {
    b.storeUint(0x9023afe2, 32)
      .storeInt(src.globalId, 32)
      .store(storeShardIdent(src.shardId))
      .storeUint(src.seqno, 32)
      .storeUint(src.vertSeqno, 32)
      .storeUint(src.genUtime, 32)
      .storeUint(src.genLt, 64)
      .storeUint(src.minRefMcSeqno, 32)
      .storeRef(src.outMsgQueueInfo)
      .storeBit(src.beforeSplit)
      .storeRef(src.accounts);
    const r = beginCell()
      .storeUint(src.overloadHistory, 64)
      .storeUint(src.underloadHistory, 64)
      .store(storeCurrencyCollection(src.totalBalance))
      .store(storeCurrencyCollection(src.totalValidatorFees))
      .store(storeHashmapE(src.libraries));
    if (src.masterRef) r.storeBit(true).store(storeExtBlkRef(src.masterRef));
    else r.storeBit(false);
    b.storeRef(r);
    b.storeMaybeRef(src.custom ? beginCell().store(storeMcStateExtra(src.custom)).endCell() : null);
  };
}

/**
 * The fields of a ShardStateUnsplit before its second-level cell. Reads no reference's contents,
 * so it works on Merkle proofs of a state whose other branches are pruned.
 */
export type ShardStateHeader = Pick<
  ShardStateUnsplit,
  'globalId' | 'shardId' | 'seqno' | 'vertSeqno' | 'genUtime' | 'genLt' | 'minRefMcSeqno' | 'outMsgQueueInfo' | 'beforeSplit' | 'accounts'
>;

export function loadShardStateHeader(s: Slice): ShardStateHeader {
  expectTag(s, 0x9023afe2, 32, 'ShardStateUnsplit');
  return {
    globalId: s.loadInt(32),
    shardId: loadShardIdent(s),
    seqno: s.loadUint(32),
    vertSeqno: s.loadUint(32),
    genUtime: s.loadUint(32),
    genLt: s.loadUintBig(64),
    minRefMcSeqno: s.loadUint(32),
    outMsgQueueInfo: s.loadRef(),
    beforeSplit: s.loadBit(),
    accounts: s.loadRef(),
  };
}

/**
 * The config dictionary of a masterchain state, read through a proof that may prune everything
 * else: header, skip the second-level cell, then McStateExtra up to `config`.
 */
export function loadStateConfigRoot(s: Slice): Cell {
  loadShardStateHeader(s);
  s.loadRef(); // ^[overload_history ... master_ref]
  const custom = s.loadMaybeRef();
  if (!custom) throw new Error('the state has no McStateExtra (not a masterchain state)');
  const extra = custom.beginParse();
  expectTag(extra, 0xcc26, 16, 'McStateExtra');
  loadHashmapE(extra); // shard_hashes
  return loadConfigParams(extra).config;
}

/** The second-level cell of a ShardStateUnsplit: `^[ overload_history ... master_ref ]`. */
export type ShardStateAccounting = Pick<
  ShardStateUnsplit,
  'overloadHistory' | 'underloadHistory' | 'totalBalance' | 'totalValidatorFees' | 'libraries' | 'masterRef'
>;

export function loadShardStateAccounting(r: Slice): ShardStateAccounting {
  return {
    overloadHistory: r.loadUintBig(64),
    underloadHistory: r.loadUintBig(64),
    totalBalance: loadCurrencyCollection(r),
    totalValidatorFees: loadCurrencyCollection(r),
    libraries: loadHashmapE(r),
    masterRef: r.loadBit() ? loadExtBlkRef(r) : null,
  };
}

export function loadShardStateUnsplit(s: Slice): ShardStateUnsplit {
  const header = loadShardStateHeader(s);
  const accounting = loadShardStateAccounting(s.loadRef().beginParse());
  const customCell = s.loadMaybeRef();
  return { ...header, ...accounting, custom: customCell ? loadMcStateExtra(customCell.beginParse()) : null };
}

/**
 * The cells a masterchain state's McStateExtra is made of, read without opening any of them:
 * what a proof builder needs to choose which cells to reveal. Null for a shard state.
 */
export interface McStateExtraCells {
  /** The McStateExtra cell itself (`custom`). */
  custom: Cell;
  /** ShardHashes root (`HashmapE 32`), null when empty. */
  shardHashes: Cell | null;
  /** The config dictionary root (`Hashmap 32 ^Cell`). */
  config: Cell;
  /** `^[ flags validator_info prev_blocks after_key_block last_key_block block_create_stats ]`. */
  more: Cell;
}

export function loadMcStateExtraCells(state: Slice): McStateExtraCells | null {
  loadShardStateHeader(state);
  state.loadRef(); // ^[overload_history ... master_ref]
  const custom = state.loadMaybeRef();
  if (!custom) return null;
  const s = custom.beginParse();
  expectTag(s, 0xcc26, 16, 'McStateExtra');
  const shardHashes = loadHashmapE(s).root;
  const config = loadConfigParams(s).config;
  return { custom, shardHashes, config, more: s.loadRef() };
}

/** The start of McStateExtra's `more` cell up to prev_blocks (OldMcBlocksInfo), whose extras are not read. */
export function loadMcStateExtraPrevBlocks(more: Slice): { flags: number; validatorInfo: ValidatorInfo; prevBlocks: Cell | null } {
  const flags = more.loadUint(16);
  const validatorInfo = loadValidatorInfo(more);
  return { flags, validatorInfo, prevBlocks: more.loadMaybeRef() };
}

/** `_ config_addr:bits256 config:^(Hashmap 32 ^Cell) = ConfigParams` */
export interface ConfigParams {
  configAddr: Buffer;
  /** Root edge cell of the `Hashmap 32 ^Cell`. */
  config: Cell;
}

export function storeConfigParams(src: ConfigParams) {
  return (b: Builder) => {
    b.storeBuffer(src.configAddr, 32).storeRef(src.config);
  };
}

export function loadConfigParams(s: Slice): ConfigParams {
  return { configAddr: s.loadBuffer(32), config: s.loadRef() };
}

/** `validator_info$_ validator_list_hash_short:uint32 catchain_seqno:uint32 nx_cc_updated:Bool` */
export interface ValidatorInfo {
  validatorListHashShort: number;
  catchainSeqno: number;
  nxCcUpdated: boolean;
}

export function storeValidatorInfo(src: ValidatorInfo) {
  return (b: Builder) => {
    b.storeUint(src.validatorListHashShort, 32).storeUint(src.catchainSeqno, 32).storeBit(src.nxCcUpdated);
  };
}

export function loadValidatorInfo(s: Slice): ValidatorInfo {
  return { validatorListHashShort: s.loadUint(32), catchainSeqno: s.loadUint(32), nxCcUpdated: s.loadBit() };
}

/** `masterchain_state_extra#cc26 ...` without block_create_stats (flags = 0). */
export interface McStateExtra {
  /** ShardHashes: HashmapE 32 ^(BinTree ShardDescr). */
  shardHashes: DictRoot;
  config: ConfigParams;
  flags: number;
  validatorInfo: ValidatorInfo;
  /** OldMcBlocksInfo: HashmapAugE 32 KeyExtBlkRef KeyMaxLt. */
  prevBlocks: AugDictRoot<KeyMaxLt>;
  afterKeyBlock: boolean;
  lastKeyBlock: ExtBlkRef | null;
  globalBalance: CurrencyCollection;
}

export function storeMcStateExtra(src: McStateExtra) {
  return (b: Builder) => {
    if (src.flags !== 0) throw new Error('McStateExtra: block_create_stats is not supported');
    const r = beginCell()
      .storeUint(src.flags, 16)
      .store(storeValidatorInfo(src.validatorInfo))
      .store(storeHashmapAugE(src.prevBlocks, storeKeyMaxLt))
      .storeBit(src.afterKeyBlock);
    if (src.lastKeyBlock) r.storeBit(true).store(storeExtBlkRef(src.lastKeyBlock));
    else r.storeBit(false);
    b.storeUint(0xcc26, 16)
      .store(storeHashmapE(src.shardHashes))
      .store(storeConfigParams(src.config))
      .storeRef(r)
      .store(storeCurrencyCollection(src.globalBalance));
  };
}

export function loadMcStateExtra(s: Slice): McStateExtra {
  expectTag(s, 0xcc26, 16, 'McStateExtra');
  const shardHashes = loadHashmapE(s);
  const config = loadConfigParams(s);
  const r = s.loadRef().beginParse();
  const flags = r.loadUint(16);
  if (flags > 1) throw new Error('McStateExtra: flags must be <= 1');
  const validatorInfo = loadValidatorInfo(r);
  const prevBlocks = loadHashmapAugE(r, loadKeyMaxLt);
  const afterKeyBlock = r.loadBit();
  const lastKeyBlock = r.loadBit() ? loadExtBlkRef(r) : null;
  if (flags & 1) throw new Error('McStateExtra: block_create_stats is not supported');
  return {
    shardHashes,
    config,
    flags,
    validatorInfo,
    prevBlocks,
    afterKeyBlock,
    lastKeyBlock,
    globalBalance: loadCurrencyCollection(s),
  };
}

/**
 * `_ out_queue:OutMsgQueue proc_info:ProcessedInfo extra:(Maybe OutMsgQueueExtra) = OutMsgQueueInfo`
 * with `out_msg_queue_extra#0 dispatch_queue:DispatchQueue out_queue_size:(Maybe uint48)`.
 * Queues are dictionaries: OutMsgQueue and DispatchQueue are aug with a uint64 extra.
 */
export interface OutMsgQueueInfo {
  outQueue: AugDictRoot<bigint>;
  procInfo: DictRoot;
  extra: { dispatchQueue: AugDictRoot<bigint>; outQueueSize: bigint | null } | null;
}

const storeUint64 = (v: bigint) => (b: Builder) => {
  b.storeUint(v, 64);
};
const loadUint64 = (s: Slice) => s.loadUintBig(64);

export function storeOutMsgQueueInfo(src: OutMsgQueueInfo) {
  return (b: Builder) => {
    b.store(storeHashmapAugE(src.outQueue, storeUint64)).store(storeHashmapE(src.procInfo));
    if (!src.extra) {
      b.storeBit(false);
      return;
    }
    b.storeBit(true).storeUint(0, 4).store(storeHashmapAugE(src.extra.dispatchQueue, storeUint64));
    if (src.extra.outQueueSize === null) b.storeBit(false);
    else b.storeBit(true).storeUint(src.extra.outQueueSize, 48);
  };
}

export function loadOutMsgQueueInfo(s: Slice): OutMsgQueueInfo {
  const outQueue = loadHashmapAugE(s, loadUint64);
  const procInfo = loadHashmapE(s);
  if (!s.loadBit()) return { outQueue, procInfo, extra: null };
  expectTag(s, 0, 4, 'OutMsgQueueExtra');
  const dispatchQueue = loadHashmapAugE(s, loadUint64);
  const outQueueSize = s.loadBit() ? s.loadUintBig(48) : null;
  return { outQueue, procInfo, extra: { dispatchQueue, outQueueSize } };
}

/** `shared_lib_descr$00 lib:^Cell publishers:(Hashmap 256 True)` */
export interface LibDescr {
  lib: Cell;
  /** Root edge cell of the (non-empty) publishers Hashmap 256 True. */
  publishers: Cell;
}

export function storeLibDescr(src: LibDescr) {
  return (b: Builder) => {
    b.storeUint(0, 2).storeRef(src.lib).storeSlice(src.publishers.beginParse());
  };
}

export function loadLibDescr(s: Slice): LibDescr {
  expectTag(s, 0, 2, 'LibDescr');
  const lib = s.loadRef();
  // The publishers Hashmap is stored inline; keep what remains as its root edge.
  return { lib, publishers: s.asCell() };
}
