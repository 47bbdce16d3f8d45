/**
 * Sealing: turns the transactions executed since the last seal (one round) into one block per
 * basechain shard and the masterchain block that registers them, with their states. Pure
 * construction over the chain's current read model; the caller stores the result.
 */
import { Cell, CurrencyCollection } from '@ton/core';
import { randomBytes } from 'crypto';
import { addCurrency, ExtBlkRef, loadShardStateAccounting, loadShardStateHeader, McStateExtra, ValueFlow, zeroCurrency } from '../../tlb';
import {
  AccountsDict,
  buildAccountBlocks,
  buildBlock,
  buildShardHashes,
  buildState,
  EMPTY_IN_MSG_DESCR,
  EMPTY_OUT_MSG_DESCR,
  EMPTY_SHARD_FEES,
  PrevBlocksDict,
  shardDescrFor,
} from './builder';
import { LocalConfig } from './config';
import { MasterchainHistory } from './history';
import { accountPrefix, BASECHAIN, BlockId, extBlkRef, FULL_SHARD, MASTERCHAIN, shardContains } from './ids';
import { buildMessageDescriptors, MessageDescriptors } from './messages';
import { ExecutedTransaction } from './sandboxAdapter';
import { BlockTransaction } from './blockBytes';
import { BlockStore, StoredBlock, StoredTransaction } from './store';
import { LocalValidator } from './validator';

/**
 * Global balance reported in McStateExtra. ton-lite-client's `getConfig` can only parse it in
 * [2^56, 2^62) nanotons (a @ton/core parser defect), so it is a fixed 5e17 rather than a sum.
 */
export const GLOBAL_BALANCE = 500_000_000_000_000_000n;

/** Key of a shard chain in maps of per-shard data. */
export function shardKey(workchain: number, shard: bigint): string {
  return `${workchain}:${shard}`;
}

/** The basechain shard (of `shards`) holding an account. */
export function shardOfAccount(shards: readonly bigint[], address: Buffer): bigint {
  const prefix = accountPrefix(address);
  const shard = shards.find((s) => shardContains(s, prefix));
  if (shard === undefined) throw new Error('no shard holds the account');
  return shard;
}

export interface SealInput {
  store: BlockStore;
  validator: LocalValidator;
  config: LocalConfig;
  history: MasterchainHistory;
  /** Basechain shards, left to right. */
  shards: readonly bigint[];
  /** Accounts per shard chain (`shardKey`). */
  accounts: ReadonlyMap<string, AccountsDict>;
  librariesRoot: Cell | null;
  txs: readonly ExecutedTransaction[];
  /** Make the masterchain block a key block (the first block always is one). */
  keyBlock?: boolean;
  genUtime: number;
  startLt: bigint;
  endLt: bigint;
}

export interface SealedBlocks {
  /** One block per basechain shard, in shard order. */
  shards: StoredBlock[];
  masterchain: StoredBlock;
}

export function sealBlocks(input: SealInput): SealedBlocks {
  const { store, validator, history, txs, genUtime, startLt, endLt, shards } = input;
  const cfg = input.config;
  const prevMc = store.last(MASTERCHAIN);
  const mcZero = store.zeroState(MASTERCHAIN);
  const shardZero = store.zeroState(BASECHAIN);
  const mcSeqno = (prevMc?.id.seqno ?? 0) + 1;
  const keyBlock = mcSeqno === 1 || input.keyBlock === true;
  const lastKeyBlock = history.lastKeyBlock;
  const prevMcRef = prevMc ? extBlkRef(prevMc.id, prevMc.endLt) : extBlkRef(mcZero.id, 0n);
  const common = {
    globalId: cfg.globalId,
    genUtime,
    startLt,
    endLt,
    genSoftware: cfg.globalVersion,
    validatorListHashShort: validator.validatorSetHash(0),
    catchainSeqno: 0,
    createdBy: validator.publicKey,
    prevKeyBlockSeqno: lastKeyBlock.seqno,
    minRefMcSeqno: mcSeqno - 1,
  };
  const blockOf = (tx: ExecutedTransaction): string =>
    tx.workchain === MASTERCHAIN ? shardKey(MASTERCHAIN, FULL_SHARD) : shardKey(tx.workchain, shardOfAccount(shards, tx.address));
  const descriptors = buildMessageDescriptors(txs, blockOf);
  const txsOf = new Map<string, ExecutedTransaction[]>();
  for (const tx of txs) {
    const key = blockOf(tx);
    const list = txsOf.get(key);
    if (list) list.push(tx);
    else txsOf.set(key, [tx]);
  }

  // Shard blocks first: the masterchain block registers them.
  const shardBlocks: StoredBlock[] = [];
  const tops: { shard: bigint; descr: ReturnType<typeof shardDescrFor> }[] = [];
  for (const shard of shards) {
    const key = shardKey(BASECHAIN, shard);
    const prev = store.last(BASECHAIN, shard);
    const seqno = (prev?.id.seqno ?? 0) + 1;
    const accounts = input.accounts.get(key) as AccountsDict;
    const state = buildState({
      globalId: cfg.globalId,
      workchain: BASECHAIN,
      shard,
      seqno,
      genUtime,
      genLt: endLt,
      minRefMcSeqno: mcSeqno - 1,
      accounts,
      libraries: null,
      masterRef: prevMcRef,
      mcExtra: null,
    });
    const accountBlocks = buildAccountBlocks(txsOf.get(key) ?? []);
    const prevState = prev ? prev.state : shardZero.state;
    const msgs = descriptors.get(key);
    const built = buildBlock({
      ...common,
      workchain: BASECHAIN,
      shard,
      seqno,
      prev: prev ? extBlkRef(prev.id, prev.endLt) : extBlkRef(shardZero.id, 0n),
      afterSplit: !prev && shard !== FULL_SHARD,
      masterRef: prevMcRef,
      keyBlock: false,
      randSeed: randomBytes(32),
      prevState,
      newState: state,
      valueFlow: valueFlowOf(totalBalanceOf(prevState), accounts.extra, accountBlocks.fees, msgs),
      inMsgDescr: msgs?.inMsgDescr ?? EMPTY_IN_MSG_DESCR,
      outMsgDescr: msgs?.outMsgDescr ?? EMPTY_OUT_MSG_DESCR,
      accountBlocks: accountBlocks.cell,
      mcExtra: null,
    });
    const id: BlockId = { workchain: BASECHAIN, shard, seqno, rootHash: built.root.hash(), fileHash: built.fileHash };
    shardBlocks.push({
      id,
      root: built.root,
      boc: built.boc,
      genUtime,
      startLt,
      endLt,
      keyBlock: false,
      prevKeyBlockSeqno: lastKeyBlock.seqno,
      state,
      transactions: accountBlocks.ordered.map((t) => storedTx(t, id)),
      masterchainSeqno: mcSeqno,
      shardTops: [],
      signature: null,
    });
    tops.push({ shard, descr: shardDescrFor(id, { startLt, endLt, genUtime, minRefMcSeqno: mcSeqno - 1 }, mcSeqno) });
  }

  const shardHashes = buildShardHashes(tops);
  const mcKey = shardKey(MASTERCHAIN, FULL_SHARD);
  const mcAccounts = input.accounts.get(mcKey) as AccountsDict;
  const mcState = buildState({
    globalId: cfg.globalId,
    workchain: MASTERCHAIN,
    shard: FULL_SHARD,
    seqno: mcSeqno,
    genUtime,
    genLt: endLt,
    minRefMcSeqno: mcSeqno - 1,
    accounts: mcAccounts,
    libraries: input.librariesRoot,
    masterRef: null,
    mcExtra: mcStateExtra(cfg, validator, history.prevBlocks, shardHashes, keyBlock, lastKeyBlock.ref),
  });
  const mcAccountBlocks = buildAccountBlocks(txsOf.get(mcKey) ?? []);
  const mcPrevState = prevMc ? prevMc.state : mcZero.state;
  const mcMsgs = descriptors.get(mcKey);
  const mcBlock = buildBlock({
    ...common,
    workchain: MASTERCHAIN,
    shard: FULL_SHARD,
    seqno: mcSeqno,
    prev: prevMcRef,
    afterSplit: false,
    masterRef: null,
    keyBlock,
    randSeed: randomBytes(32),
    prevState: mcPrevState,
    newState: mcState,
    valueFlow: valueFlowOf(totalBalanceOf(mcPrevState), mcAccounts.extra, mcAccountBlocks.fees, mcMsgs),
    inMsgDescr: mcMsgs?.inMsgDescr ?? EMPTY_IN_MSG_DESCR,
    outMsgDescr: mcMsgs?.outMsgDescr ?? EMPTY_OUT_MSG_DESCR,
    accountBlocks: mcAccountBlocks.cell,
    mcExtra: {
      keyBlock,
      shardHashes: { root: shardHashes },
      shardFees: EMPTY_SHARD_FEES,
      prevBlkSignatures: { root: null },
      recoverCreateMsg: null,
      mintMsg: null,
      config: keyBlock ? { configAddr: cfg.configAddr, config: cfg.root } : null,
    },
  });
  const mcId: BlockId = {
    workchain: MASTERCHAIN,
    shard: FULL_SHARD,
    seqno: mcSeqno,
    rootHash: mcBlock.root.hash(),
    fileHash: mcBlock.fileHash,
  };
  const masterchain: StoredBlock = {
    id: mcId,
    root: mcBlock.root,
    boc: mcBlock.boc,
    genUtime,
    startLt,
    endLt,
    keyBlock,
    prevKeyBlockSeqno: lastKeyBlock.seqno,
    state: mcState,
    transactions: mcAccountBlocks.ordered.map((t) => storedTx(t, mcId)),
    masterchainSeqno: mcSeqno,
    shardTops: shardBlocks.map((b) => b.id),
    signature: validator.signBlock(mcId.rootHash, mcId.fileHash),
  };
  return { shards: shardBlocks, masterchain };
}

/**
 * ValueFlow of a block without minting or fee distribution:
 * from_prev + imported = to_next + exported + fees_collected, where fees_collected is the
 * transactions' fees plus the forwarding fees collected on import.
 */
function valueFlowOf(
  fromPrev: CurrencyCollection,
  toNext: CurrencyCollection,
  transactionFees: CurrencyCollection,
  msgs: MessageDescriptors | undefined,
): ValueFlow {
  return {
    fromPrevBlk: fromPrev,
    toNextBlk: toNext,
    imported: msgs?.importFees.valueImported ?? zeroCurrency(),
    exported: msgs?.exported ?? zeroCurrency(),
    feesCollected: addCurrency(transactionFees, { coins: msgs?.importFees.feesCollected ?? 0n }),
    burned: null,
    feesImported: zeroCurrency(),
    recovered: zeroCurrency(),
    created: zeroCurrency(),
    minted: zeroCurrency(),
  };
}

export function mcStateExtra(
  config: LocalConfig,
  validator: LocalValidator,
  prevBlocks: PrevBlocksDict,
  shardHashes: Cell,
  afterKeyBlock: boolean,
  lastKeyBlock: ExtBlkRef | null,
): McStateExtra {
  return {
    shardHashes: { root: shardHashes },
    config: { configAddr: config.configAddr, config: config.root },
    flags: 0,
    validatorInfo: { validatorListHashShort: validator.validatorSetHash(0), catchainSeqno: 0, nxCcUpdated: false },
    prevBlocks: { root: prevBlocks.rootCell(), extra: prevBlocks.extra },
    afterKeyBlock,
    lastKeyBlock,
    globalBalance: { coins: GLOBAL_BALANCE },
  };
}

function storedTx(t: ExecutedTransaction, block: BlockId): StoredTransaction {
  return BlockTransaction.of(t.workchain, t.address, t.lt, t.hash, t.cell, t.prevLt, t.prevHash, block);
}

/** `total_balance` of a ShardStateUnsplit (in its second-level cell). */
function totalBalanceOf(state: Cell): CurrencyCollection {
  const s = state.beginParse();
  loadShardStateHeader(s);
  return loadShardStateAccounting(s.loadRef().beginParse()).totalBalance;
}
