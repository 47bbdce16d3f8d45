/**
 * Sealing: turns the transactions executed since the last seal into one basechain block and
 * the masterchain block that registers it, with their states. Pure construction over the
 * chain's current read model; the caller stores the result.
 */
import { Cell, CurrencyCollection } from '@ton/core';
import { randomBytes } from 'crypto';
import { ExtBlkRef, McStateExtra } from '../../tlb';
import {
  AccountsDict,
  buildAccountBlocks,
  buildBlock,
  buildShardHashes,
  buildState,
  EMPTY_SHARD_FEES,
  PrevBlocksDict,
  shardDescrFor,
} from './builder';
import { LocalConfig } from './config';
import { MasterchainHistory } from './history';
import { BASECHAIN, BlockId, extBlkRef, FULL_SHARD, MASTERCHAIN } from './ids';
import { ExecutedTransaction } from './sandboxAdapter';
import { BlockStore, StoredBlock, StoredTransaction, ZeroState } from './store';
import { LocalValidator } from './validator';

/**
 * Global balance reported in McStateExtra. ton-lite-client's `getConfig` can only parse it in
 * [2^56, 2^62) nanotons (a @ton/core parser defect), so it is a fixed 5e17 rather than a sum.
 */
export const GLOBAL_BALANCE = 500_000_000_000_000_000n;

export interface SealInput {
  store: BlockStore;
  validator: LocalValidator;
  config: LocalConfig;
  history: MasterchainHistory;
  accounts: ReadonlyMap<number, AccountsDict>;
  librariesRoot: Cell | null;
  txs: readonly ExecutedTransaction[];
  genUtime: number;
  startLt: bigint;
  endLt: bigint;
}

export interface SealedBlocks {
  shard: StoredBlock;
  masterchain: StoredBlock;
}

export function sealBlocks(input: SealInput): SealedBlocks {
  const { store, validator, history, txs, genUtime, startLt, endLt } = input;
  const cfg = input.config;
  const prevMc = store.last(MASTERCHAIN);
  const prevShard = store.last(BASECHAIN);
  const mcZero = store.zeroState(MASTERCHAIN);
  const shardZero = store.zeroState(BASECHAIN);
  const seqno = (prevMc?.id.seqno ?? 0) + 1;
  const keyBlock = seqno === 1;
  const lastKeyBlock = history.lastKeyBlock;
  const prevMcRef = prevMc ? extBlkRef(prevMc.id, prevMc.endLt) : extBlkRef(mcZero.id, 0n);
  const common = {
    globalId: cfg.globalId,
    seqno,
    genUtime,
    startLt,
    endLt,
    genSoftware: cfg.globalVersion,
    validatorListHashShort: validator.validatorSetHash(0),
    catchainSeqno: 0,
    createdBy: validator.publicKey,
    prevKeyBlockSeqno: lastKeyBlock.seqno,
  };

  // Basechain block first: the masterchain block registers it.
  const shardAccounts = input.accounts.get(BASECHAIN) as AccountsDict;
  const shardState = buildState({
    globalId: cfg.globalId,
    workchain: BASECHAIN,
    seqno,
    genUtime,
    genLt: endLt,
    minRefMcSeqno: seqno - 1,
    accounts: shardAccounts,
    libraries: null,
    masterRef: prevMcRef,
    mcExtra: null,
  });
  const shardTxs = buildAccountBlocks(txs.filter((t) => t.workchain === BASECHAIN));
  const shardBlock = buildBlock({
    ...common,
    workchain: BASECHAIN,
    prev: prevShard ? extBlkRef(prevShard.id, prevShard.endLt) : extBlkRef(shardZero.id, 0n),
    masterRef: prevMcRef,
    minRefMcSeqno: seqno - 1,
    keyBlock: false,
    randSeed: randomBytes(32),
    prevState: prevShard ? prevShard.state : shardZero.state,
    newState: shardState,
    prevTotalBalance: totalBalanceOf(prevShard, shardZero),
    newTotalBalance: shardAccounts.extra,
    accountBlocks: shardTxs.cell,
    mcExtra: null,
  });
  const shardId: BlockId = {
    workchain: BASECHAIN,
    shard: FULL_SHARD,
    seqno,
    rootHash: shardBlock.root.hash(),
    fileHash: shardBlock.fileHash,
  };

  const shardHashes = buildShardHashes(shardDescrFor(shardId, { startLt, endLt, genUtime, minRefMcSeqno: seqno - 1 }, seqno));
  const mcAccounts = input.accounts.get(MASTERCHAIN) as AccountsDict;
  const mcState = buildState({
    globalId: cfg.globalId,
    workchain: MASTERCHAIN,
    seqno,
    genUtime,
    genLt: endLt,
    minRefMcSeqno: seqno - 1,
    accounts: mcAccounts,
    libraries: input.librariesRoot,
    masterRef: null,
    mcExtra: mcStateExtra(cfg, validator, history.prevBlocks, shardHashes, keyBlock, lastKeyBlock.ref),
  });
  const mcTxs = buildAccountBlocks(txs.filter((t) => t.workchain === MASTERCHAIN));
  const mcBlock = buildBlock({
    ...common,
    workchain: MASTERCHAIN,
    prev: prevMcRef,
    masterRef: null,
    minRefMcSeqno: seqno - 1,
    keyBlock,
    randSeed: randomBytes(32),
    prevState: prevMc ? prevMc.state : mcZero.state,
    newState: mcState,
    prevTotalBalance: totalBalanceOf(prevMc, mcZero),
    newTotalBalance: mcAccounts.extra,
    accountBlocks: mcTxs.cell,
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
  const mcId: BlockId = { workchain: MASTERCHAIN, shard: FULL_SHARD, seqno, rootHash: mcBlock.root.hash(), fileHash: mcBlock.fileHash };

  const shard: StoredBlock = {
    id: shardId,
    root: shardBlock.root,
    genUtime,
    startLt,
    endLt,
    keyBlock: false,
    prevKeyBlockSeqno: lastKeyBlock.seqno,
    state: shardState,
    transactions: shardTxs.ordered.map((t) => storedTx(t, shardId)),
    masterchainSeqno: seqno,
    shardTop: null,
    signature: null,
  };
  const masterchain: StoredBlock = {
    id: mcId,
    root: mcBlock.root,
    genUtime,
    startLt,
    endLt,
    keyBlock,
    prevKeyBlockSeqno: lastKeyBlock.seqno,
    state: mcState,
    transactions: mcTxs.ordered.map((t) => storedTx(t, mcId)),
    masterchainSeqno: seqno,
    shardTop: shardId,
    signature: validator.signBlock(mcId.rootHash, mcId.fileHash),
  };
  return { shard, masterchain };
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
  return {
    workchain: t.workchain,
    address: t.address,
    lt: t.lt,
    hash: t.hash,
    cell: t.cell,
    prevLt: t.prevLt,
    prevHash: t.prevHash,
    block,
  };
}

function totalBalanceOf(prev: StoredBlock | undefined, zero: ZeroState): CurrencyCollection {
  const state = prev ? prev.state : zero.state;
  const s = state.refs[2].beginParse();
  s.skip(128);
  return { coins: s.loadCoins() };
}
