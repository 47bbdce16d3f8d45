import { beginCell, Builder, Cell, HashUpdate, loadHashUpdate, Slice, storeHashUpdate } from '@ton/core';
import { BlockInfo, loadBlockInfo, storeBlockInfo } from './blockInfo';
import {
  AugDictRoot,
  CurrencyCollection,
  DictRoot,
  expectTag,
  loadCurrencyCollection,
  loadHashmapAugE,
  loadHashmapE,
  storeCurrencyCollection,
  storeHashmapAugE,
  storeHashmapE,
} from './common';
import { ConfigParams, loadConfigParams, storeConfigParams } from './shardState';
import { loadValueFlow, storeValueFlow, ValueFlow } from './valueFlow';

/** `block#11ef55aa global_id:int32 info:^BlockInfo value_flow:^ValueFlow state_update:^(MERKLE_UPDATE ShardState) extra:^BlockExtra` */
export interface Block {
  globalId: number;
  info: BlockInfo;
  valueFlow: ValueFlow;
  /** The exotic MERKLE_UPDATE cell (see cells/merkle `merkleUpdate`). */
  stateUpdate: Cell;
  extra: BlockExtra;
}

export function storeBlock(src: Block) {
  return (b: Builder) => {
    b.storeUint(0x11ef55aa, 32)
      .storeInt(src.globalId, 32)
      .storeRef(beginCell().store(storeBlockInfo(src.info)))
      .storeRef(beginCell().store(storeValueFlow(src.valueFlow)))
      .storeRef(src.stateUpdate)
      .storeRef(beginCell().store(storeBlockExtra(src.extra)));
  };
}

export function loadBlock(s: Slice): Block {
  expectTag(s, 0x11ef55aa, 32, 'Block');
  return {
    globalId: s.loadInt(32),
    info: loadBlockInfo(s.loadRef().beginParse()),
    valueFlow: loadValueFlow(s.loadRef().beginParse()),
    stateUpdate: s.loadRef(),
    extra: loadBlockExtra(s.loadRef().beginParse()),
  };
}

/** The header fields of `!merkle_update#04`. */
export interface MerkleUpdateHeader {
  oldHash: Buffer;
  newHash: Buffer;
  oldDepth: number;
  newDepth: number;
}

export function loadMerkleUpdateHeader(cell: Cell): MerkleUpdateHeader {
  if (!cell.isExotic) throw new Error('MERKLE_UPDATE must be an exotic cell');
  const s = cell.beginParse(true);
  expectTag(s, 4, 8, 'MERKLE_UPDATE');
  return { oldHash: s.loadBuffer(32), newHash: s.loadBuffer(32), oldDepth: s.loadUint(16), newDepth: s.loadUint(16) };
}

/** `block_extra#4a33f6fd in_msg_descr:^InMsgDescr out_msg_descr:^OutMsgDescr account_blocks:^ShardAccountBlocks rand_seed:bits256 created_by:bits256 custom:(Maybe ^McBlockExtra)` */
export interface BlockExtra {
  /** Cell holding an `InMsgDescr` (HashmapAugE 256 InMsg ImportFees). */
  inMsgDescr: Cell;
  /** Cell holding an `OutMsgDescr` (HashmapAugE 256 OutMsg CurrencyCollection). */
  outMsgDescr: Cell;
  /** Cell holding `ShardAccountBlocks` (HashmapAugE 256 AccountBlock CurrencyCollection). */
  accountBlocks: Cell;
  randSeed: Buffer;
  createdBy: Buffer;
  custom: McBlockExtra | null;
}

export function storeBlockExtra(src: BlockExtra) {
  return (b: Builder) => {
    b.storeUint(0x4a33f6fd, 32)
      .storeRef(src.inMsgDescr)
      .storeRef(src.outMsgDescr)
      .storeRef(src.accountBlocks)
      .storeBuffer(src.randSeed, 32)
      .storeBuffer(src.createdBy, 32)
      .storeMaybeRef(src.custom ? beginCell().store(storeMcBlockExtra(src.custom)).endCell() : null);
  };
}

export function loadBlockExtra(s: Slice): BlockExtra {
  expectTag(s, 0x4a33f6fd, 32, 'BlockExtra');
  const inMsgDescr = s.loadRef();
  const outMsgDescr = s.loadRef();
  const accountBlocks = s.loadRef();
  const randSeed = s.loadBuffer(32);
  const createdBy = s.loadBuffer(32);
  const custom = s.loadMaybeRef();
  return {
    inMsgDescr,
    outMsgDescr,
    accountBlocks,
    randSeed,
    createdBy,
    custom: custom ? loadMcBlockExtra(custom.beginParse()) : null,
  };
}

/** `_ fees:CurrencyCollection create:CurrencyCollection = ShardFeeCreated` */
export interface ShardFeeCreated {
  fees: CurrencyCollection;
  create: CurrencyCollection;
}

export function storeShardFeeCreated(src: ShardFeeCreated) {
  return (b: Builder) => {
    b.store(storeCurrencyCollection(src.fees)).store(storeCurrencyCollection(src.create));
  };
}

export function loadShardFeeCreated(s: Slice): ShardFeeCreated {
  return { fees: loadCurrencyCollection(s), create: loadCurrencyCollection(s) };
}

/** `import_fees$_ fees_collected:Grams value_imported:CurrencyCollection = ImportFees` */
export interface ImportFees {
  feesCollected: bigint;
  valueImported: CurrencyCollection;
}

export function storeImportFees(src: ImportFees) {
  return (b: Builder) => {
    b.storeCoins(src.feesCollected).store(storeCurrencyCollection(src.valueImported));
  };
}

export function loadImportFees(s: Slice): ImportFees {
  return { feesCollected: s.loadCoins(), valueImported: loadCurrencyCollection(s) };
}

/** `masterchain_block_extra#cca5 key_block:(## 1) shard_hashes:ShardHashes shard_fees:ShardFees ^[...] config:key_block?ConfigParams` */
export interface McBlockExtra {
  keyBlock: boolean;
  shardHashes: DictRoot;
  shardFees: AugDictRoot<ShardFeeCreated>;
  prevBlkSignatures: DictRoot;
  recoverCreateMsg: Cell | null;
  mintMsg: Cell | null;
  config: ConfigParams | null;
}

export function storeMcBlockExtra(src: McBlockExtra) {
  return (b: Builder) => {
    if (src.keyBlock !== (src.config !== null)) throw new Error('McBlockExtra: config must match key_block');
    b.storeUint(0xcca5, 16)
      .storeBit(src.keyBlock)
      .store(storeHashmapE(src.shardHashes))
      .store(storeHashmapAugE(src.shardFees, storeShardFeeCreated))
      .storeRef(beginCell().store(storeHashmapE(src.prevBlkSignatures)).storeMaybeRef(src.recoverCreateMsg).storeMaybeRef(src.mintMsg));
    if (src.config) b.store(storeConfigParams(src.config));
  };
}

/**
 * The head of McBlockExtra (tag, key_block, shard_hashes): all a Merkle proof of a masterchain
 * block keeps when it proves the shard list (the references after it may be pruned).
 */
export function loadMcBlockExtraHead(s: Slice): Pick<McBlockExtra, 'keyBlock' | 'shardHashes'> {
  expectTag(s, 0xcca5, 16, 'McBlockExtra');
  const keyBlock = s.loadBit();
  return { keyBlock, shardHashes: loadHashmapE(s) };
}

export function loadMcBlockExtra(s: Slice): McBlockExtra {
  const { keyBlock, shardHashes } = loadMcBlockExtraHead(s);
  const shardFees = loadHashmapAugE(s, loadShardFeeCreated);
  const r = s.loadRef().beginParse();
  const prevBlkSignatures = loadHashmapE(r);
  const recoverCreateMsg = r.loadMaybeRef();
  const mintMsg = r.loadMaybeRef();
  const config = keyBlock ? loadConfigParams(s) : null;
  return { keyBlock, shardHashes, shardFees, prevBlkSignatures, recoverCreateMsg, mintMsg, config };
}

/**
 * `acc_trans#5 account_addr:bits256 transactions:(HashmapAug 64 ^Transaction CurrencyCollection) state_update:^(HASH_UPDATE Account)`.
 * The transactions dictionary is inline (never empty); `storeTransactions` writes its root edge.
 */
export interface AccountBlock {
  accountAddr: Buffer;
  storeTransactions: (b: Builder) => void;
  stateUpdate: HashUpdate;
}

export function storeAccountBlock(src: AccountBlock) {
  return (b: Builder) => {
    b.storeUint(5, 4).storeBuffer(src.accountAddr, 32);
    src.storeTransactions(b);
    b.storeRef(beginCell().store(storeHashUpdate(src.stateUpdate)));
  };
}

/** Reads the address of an AccountBlock and leaves `s` at the inline transactions dictionary. */
export function loadAccountBlockHead(s: Slice): { accountAddr: Buffer } {
  expectTag(s, 5, 4, 'AccountBlock');
  return { accountAddr: s.loadBuffer(32) };
}

/** The `HASH_UPDATE Account` of an AccountBlock: its last reference. */
export function loadAccountBlockStateUpdate(accountBlockSlice: Slice): HashUpdate {
  const refs = accountBlockSlice.remainingRefs;
  let last: Cell | null = null;
  for (let i = 0; i < refs; i++) last = accountBlockSlice.loadRef();
  if (!last) throw new Error('AccountBlock without state_update');
  return loadHashUpdate(last.beginParse());
}
