/**
 * Pure construction of states and blocks. Nothing here talks to sandbox: the chain hands in
 * the executed transactions and the new account leaves, and gets back cells.
 */
import { beginCell, Builder, Cell, CurrencyCollection, loadShardAccount } from '@ton/core';
import { createHash } from 'crypto';
import { merkleUpdate, PersistentDict, serializeBoc } from '../../cells';
import {
  addCurrency,
  BlkPrevInfo,
  BlockExtra,
  ExtBlkRef,
  GlobalVersion,
  KeyExtBlkRef,
  KeyMaxLt,
  McBlockExtra,
  McStateExtra,
  ShardDescr,
  storeAccountBlock,
  storeBinTreeLeaf,
  storeBlock,
  storeCurrencyCollection,
  storeDepthBalanceInfo,
  storeHashmapAugE,
  storeImportFees,
  storeKeyExtBlkRef,
  storeKeyMaxLt,
  storeLibDescr,
  storeOutMsgQueueInfo,
  storeShardDescr,
  storeShardStateUnsplit,
  ValueFlow,
  zeroCurrency,
} from '../../tlb';
import { ExecutedTransaction } from './sandboxAdapter';
import { BlockId, MASTERCHAIN, shardIdent } from './ids';

const currencyAug = {
  zero: zeroCurrency(),
  combine: addCurrency,
  store: (e: CurrencyCollection, b: Builder) => {
    b.store(storeCurrencyCollection(e));
  },
};

/** `ShardAccounts`: leaves are the emulator's exact ShardAccount cells, extra DepthBalanceInfo. */
export type AccountsDict = PersistentDict<Cell, CurrencyCollection>;

export function emptyAccounts(): AccountsDict {
  return PersistentDict.empty({
    keyBits: 256,
    storeValue: (shardAccount: Cell, b) => {
      b.storeSlice(shardAccount.beginParse());
    },
    aug: {
      zero: zeroCurrency(),
      combine: addCurrency,
      store: (balance: CurrencyCollection, b: Builder) => {
        b.store(storeDepthBalanceInfo({ splitDepth: 0, balance }));
      },
    },
  });
}

/** Balance of a ShardAccount, or null when the account does not exist (`account_none`). */
export function shardAccountBalance(shardAccount: Cell): CurrencyCollection | null {
  const parsed = loadShardAccount(shardAccount.beginParse());
  return parsed.account ? parsed.account.storage.balance : null;
}

export function accountsCell(accounts: AccountsDict): Cell {
  return beginCell()
    .store((b) => accounts.storeHashmapAugE(b))
    .endCell();
}

/** `OldMcBlocksInfo`: previous masterchain blocks by seqno. */
export type PrevBlocksDict = PersistentDict<KeyExtBlkRef, KeyMaxLt>;

export function emptyPrevBlocks(): PrevBlocksDict {
  return PersistentDict.empty({
    keyBits: 32,
    storeValue: (v: KeyExtBlkRef, b) => {
      b.store(storeKeyExtBlkRef(v));
    },
    aug: {
      zero: { key: false, maxEndLt: 0n },
      combine: (a: KeyMaxLt, b: KeyMaxLt) => ({ key: a.key || b.key, maxEndLt: a.maxEndLt > b.maxEndLt ? a.maxEndLt : b.maxEndLt }),
      store: (e: KeyMaxLt, b: Builder) => {
        b.store(storeKeyMaxLt(e));
      },
    },
  });
}

/** `HashmapE 256 LibDescr` of the masterchain state, from sandbox's library dictionary. */
export function buildLibraries(libs: ReadonlyMap<string, Cell>, publisher: Buffer): Cell | null {
  if (libs.size === 0) return null;
  const publishers = PersistentDict.empty({ keyBits: 256, storeValue: () => undefined })
    .set(BigInt('0x' + publisher.toString('hex')), null, null)
    .rootCell() as Cell;
  let dict = PersistentDict.empty({
    keyBits: 256,
    storeValue: (lib: Cell, b: Builder) => {
      b.store(storeLibDescr({ lib, publishers }));
    },
  });
  for (const [hash, lib] of libs) dict = dict.set(BigInt('0x' + hash), lib, null);
  return dict.rootCell();
}

// Constant parts: empty message descriptors and queues.
export const EMPTY_IN_MSG_DESCR = beginCell()
  .store(storeHashmapAugE({ root: null, extra: { feesCollected: 0n, valueImported: zeroCurrency() } }, storeImportFees))
  .endCell();
export const EMPTY_OUT_MSG_DESCR = beginCell()
  .store(storeHashmapAugE({ root: null, extra: zeroCurrency() }, storeCurrencyCollection))
  .endCell();
const EMPTY_OUT_MSG_QUEUE_INFO = beginCell()
  .store(
    storeOutMsgQueueInfo({
      outQueue: { root: null, extra: 0n },
      procInfo: { root: null },
      extra: { dispatchQueue: { root: null, extra: 0n }, outQueueSize: 0n },
    }),
  )
  .endCell();

export interface AccountBlocksResult {
  /** Cell holding ShardAccountBlocks. */
  cell: Cell;
  /** Transactions ordered by (account, lt): the order block transaction lists use. */
  ordered: ExecutedTransaction[];
  /** Sum of the transactions' total fees (the dictionary's root extra). */
  fees: CurrencyCollection;
}

/** `ShardAccountBlocks` for the transactions of one shard block. */
export function buildAccountBlocks(txs: readonly ExecutedTransaction[]): AccountBlocksResult {
  const byAccount = new Map<string, ExecutedTransaction[]>();
  for (const tx of txs) {
    const key = tx.address.toString('hex');
    const list = byAccount.get(key);
    if (list) list.push(tx);
    else byAccount.set(key, [tx]);
  }
  const ordered: ExecutedTransaction[] = [];
  let dict = PersistentDict.empty({
    keyBits: 256,
    storeValue: (accountBlock: (b: Builder) => void, b: Builder) => {
      accountBlock(b);
    },
    aug: currencyAug,
  });
  for (const key of [...byAccount.keys()].sort()) {
    const list = (byAccount.get(key) as ExecutedTransaction[]).sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0));
    ordered.push(...list);
    let txDict = PersistentDict.empty({
      keyBits: 64,
      storeValue: (cell: Cell, b: Builder) => {
        b.storeRef(cell);
      },
      aug: currencyAug,
    });
    for (const tx of list) txDict = txDict.set(tx.lt, tx.cell, tx.totalFees);
    const accountBlock = storeAccountBlock({
      accountAddr: list[0].address,
      storeTransactions: (b) => txDict.storeInline(b),
      stateUpdate: { oldHash: list[0].oldStateHash, newHash: list[list.length - 1].newStateHash },
    });
    dict = dict.set(BigInt('0x' + key), accountBlock, txDict.extra);
  }
  return {
    cell: beginCell()
      .store((b) => dict.storeHashmapAugE(b))
      .endCell(),
    ordered,
    fees: dict.extra,
  };
}

/** Everything that differs between two consecutive blocks of one shard chain. */
export interface BlockParams {
  globalId: number;
  workchain: number;
  shard: bigint;
  seqno: number;
  genUtime: number;
  startLt: bigint;
  endLt: bigint;
  prev: ExtBlkRef;
  /** First block of a shard split off its parent (here: off the basechain zerostate). */
  afterSplit: boolean;
  /** Last masterchain block known when this block was made (shard blocks only). */
  masterRef: ExtBlkRef | null;
  minRefMcSeqno: number;
  prevKeyBlockSeqno: number;
  keyBlock: boolean;
  genSoftware: GlobalVersion;
  validatorListHashShort: number;
  catchainSeqno: number;
  createdBy: Buffer;
  randSeed: Buffer;
  prevState: Cell;
  newState: Cell;
  valueFlow: ValueFlow;
  inMsgDescr: Cell;
  outMsgDescr: Cell;
  accountBlocks: Cell;
  mcExtra: McBlockExtra | null;
}

export interface BuiltBlock {
  root: Cell;
  boc: Buffer;
  fileHash: Buffer;
}

export function buildBlock(p: BlockParams): BuiltBlock {
  const prevRef: BlkPrevInfo = { kind: 'single', prev: p.prev };
  const extra: BlockExtra = {
    inMsgDescr: p.inMsgDescr,
    outMsgDescr: p.outMsgDescr,
    accountBlocks: p.accountBlocks,
    randSeed: p.randSeed,
    createdBy: p.createdBy,
    custom: p.mcExtra,
  };
  const root = beginCell()
    .store(
      storeBlock({
        globalId: p.globalId,
        info: {
          version: 0,
          notMaster: p.workchain !== MASTERCHAIN,
          afterMerge: false,
          beforeSplit: false,
          afterSplit: p.afterSplit,
          wantSplit: false,
          wantMerge: false,
          keyBlock: p.keyBlock,
          vertSeqnoIncr: false,
          flags: 1,
          seqno: p.seqno,
          vertSeqno: 0,
          shard: shardIdent(p.workchain, p.shard),
          genUtime: p.genUtime,
          startLt: p.startLt,
          endLt: p.endLt,
          genValidatorListHashShort: p.validatorListHashShort,
          genCatchainSeqno: p.catchainSeqno,
          minRefMcSeqno: p.minRefMcSeqno,
          prevKeyBlockSeqno: p.prevKeyBlockSeqno,
          genSoftware: p.genSoftware,
          masterRef: p.masterRef,
          prevRef,
          prevVertRef: null,
        },
        valueFlow: p.valueFlow,
        stateUpdate: merkleUpdate(p.prevState, p.newState),
        extra,
      }),
    )
    .endCell();
  const boc = serializeBoc([root]);
  return { root, boc, fileHash: sha256(boc) };
}

export interface StateParams {
  globalId: number;
  workchain: number;
  shard: bigint;
  seqno: number;
  genUtime: number;
  genLt: bigint;
  minRefMcSeqno: number;
  accounts: AccountsDict;
  libraries: Cell | null;
  masterRef: ExtBlkRef | null;
  mcExtra: McStateExtra | null;
}

export function buildState(p: StateParams): Cell {
  return beginCell()
    .store(
      storeShardStateUnsplit({
        globalId: p.globalId,
        shardId: shardIdent(p.workchain, p.shard),
        seqno: p.seqno,
        vertSeqno: 0,
        genUtime: p.genUtime,
        genLt: p.genLt,
        minRefMcSeqno: p.minRefMcSeqno,
        outMsgQueueInfo: EMPTY_OUT_MSG_QUEUE_INFO,
        beforeSplit: false,
        accounts: accountsCell(p.accounts),
        overloadHistory: 0n,
        underloadHistory: 0n,
        totalBalance: p.accounts.extra,
        totalValidatorFees: zeroCurrency(),
        libraries: { root: p.libraries },
        masterRef: p.masterRef,
        custom: p.mcExtra,
      }),
    )
    .endCell();
}

/**
 * `ShardHashes` of the basechain: a BinTree whose leaves are the shard tops, `tops` given
 * left to right with their shard ids (a full binary tree: all shards of equal depth).
 */
export function buildShardHashes(tops: readonly { shard: bigint; descr: ShardDescr }[]): Cell {
  const tree = (from: number, to: number): Cell => {
    if (to - from === 1)
      return beginCell()
        .store(storeBinTreeLeaf(storeShardDescr(tops[from].descr)))
        .endCell();
    const mid = (from + to) >> 1;
    return beginCell().storeBit(true).storeRef(tree(from, mid)).storeRef(tree(mid, to)).endCell();
  };
  const dict = PersistentDict.empty({
    keyBits: 32,
    storeValue: (root: Cell, b: Builder) => {
      b.storeRef(root);
    },
  }).set(0n, tree(0, tops.length), null);
  return dict.rootCell() as Cell;
}

export function shardDescrFor(
  id: BlockId,
  info: { startLt: bigint; endLt: bigint; genUtime: number; minRefMcSeqno: number },
  regMcSeqno: number,
): ShardDescr {
  return {
    seqno: id.seqno,
    regMcSeqno,
    startLt: info.startLt,
    endLt: info.endLt,
    rootHash: id.rootHash,
    fileHash: id.fileHash,
    beforeSplit: false,
    beforeMerge: false,
    wantSplit: false,
    wantMerge: false,
    nxCcUpdated: false,
    flags: 0,
    nextCatchainSeqno: 0,
    nextValidatorShard: id.shard,
    minRefMcSeqno: info.minRefMcSeqno,
    genUtime: info.genUtime,
    splitMergeAt: { kind: 'none' },
    feesCollected: zeroCurrency(),
    fundsCreated: zeroCurrency(),
  };
}

export const EMPTY_SHARD_FEES = { root: null, extra: { fees: zeroCurrency(), create: zeroCurrency() } };
export function sha256(data: Buffer): Buffer {
  return createHash('sha256').update(data).digest();
}
