/** What a chain snapshot holds, and how sealed blocks and account sets are rebuilt from its cells. */
import { Cell, loadTransaction } from '@ton/core';
import { forEachDictLeaf } from '../../cells';
import { loadBlockInfo, loadCurrencyCollection } from '../../tlb';
import { BASECHAIN, BlockId, FULL_SHARD, MASTERCHAIN, shardOfIdent } from './ids';
import { BlockStore, StoredBlock, StoredTransaction } from './store';
import type { LiveChain } from './liveChain';
import { LocalValidator } from './validator';

/** What `LocalChain.snapshot()` returns and `LocalChain.restore()` takes. */
export interface ChainSnapshot {
  validatorSeed: Buffer;
  config: Cell;
  zeroStates: { masterchain: Cell; basechain: Cell };
  masterchain: SavedBlock[];
  /** Each basechain shard's blocks, shards left to right; as many blocks as the masterchain. */
  basechain: { shard: bigint; blocks: SavedBlock[] }[];
  libs: Cell | null;
  lastUtime: number;
}

export interface SavedBlock {
  root: Cell;
  state: Cell;
  fileHash: Buffer;
}

/** A StoredBlock rebuilt from its cells: header fields from BlockInfo, transactions from account_blocks. */
export function restoredBlock(saved: SavedBlock, signature: Buffer | null): StoredBlock {
  const info = loadBlockInfo(saved.root.refs[0].beginParse());
  const workchain = info.shard.workchainId;
  const id: BlockId = {
    workchain,
    shard: shardOfIdent(info.shard),
    seqno: info.seqno,
    rootHash: saved.root.hash(),
    fileHash: saved.fileHash,
  };
  const transactions: StoredTransaction[] = [];
  const container = saved.root.refs[3].refs[2].beginParse();
  forEachDictLeaf(container.loadBit() ? container.loadRef() : null, 256, (_, accountBlock) => {
    loadCurrencyCollection(accountBlock);
    accountBlock.skip(4 + 256);
    forEachDictLeaf(accountBlock, 64, (__, txLeaf) => {
      loadCurrencyCollection(txLeaf);
      const cell = txLeaf.loadRef();
      const tx = loadTransaction(cell.beginParse());
      transactions.push({
        workchain,
        address: Buffer.from(tx.address.toString(16).padStart(64, '0'), 'hex'),
        lt: tx.lt,
        hash: cell.hash(),
        cell,
        prevLt: tx.prevTransactionLt,
        prevHash: Buffer.from(tx.prevTransactionHash.toString(16).padStart(64, '0'), 'hex'),
        block: id,
      });
    });
  });
  return {
    id,
    root: saved.root,
    genUtime: info.genUtime,
    startLt: info.startLt,
    endLt: info.endLt,
    keyBlock: info.keyBlock,
    prevKeyBlockSeqno: info.prevKeyBlockSeqno,
    state: saved.state,
    transactions,
    // Every round makes one block in every shard, so a shard block's seqno is its round's.
    masterchainSeqno: info.seqno,
    shardTops: [],
    signature,
  };
}

/** The saved form of every stored block: the masterchain and each basechain shard. */
export function savedBlocks(store: BlockStore, shards: readonly bigint[]): Pick<ChainSnapshot, 'masterchain' | 'basechain'> {
  const blocks = (wc: number, shard: bigint): SavedBlock[] =>
    store.blocks(wc, shard).map((b) => ({ root: b.root, state: b.state, fileHash: b.id.fileHash }));
  return {
    masterchain: blocks(MASTERCHAIN, FULL_SHARD),
    basechain: shards.map((shard) => ({ shard, blocks: blocks(BASECHAIN, shard) })),
  };
}

/** The snapshot's blocks round by round: each round's shard blocks, then its masterchain block. */
export function restoredRounds(snap: ChainSnapshot, validator: LocalValidator): { shards: StoredBlock[]; masterchain: StoredBlock }[] {
  for (const shardChain of snap.basechain) {
    if (shardChain.blocks.length !== snap.masterchain.length) throw new Error('snapshot chains have different heights');
  }
  return snap.masterchain.map((mcSaved, i) => {
    const shards = snap.basechain.map((shardChain) => restoredBlock(shardChain.blocks[i], null));
    const masterchain = restoredBlock(mcSaved, validator.signBlock(mcSaved.root.hash(), mcSaved.fileHash));
    masterchain.shardTops = shards.map((b) => b.id);
    return { shards, masterchain };
  });
}

/** What `LocalChain.snapshot()` returns, of the live state (the caller seals pending transactions first). */
export function snapshotOf(live: LiveChain, validatorSeed: Buffer): ChainSnapshot {
  return {
    validatorSeed,
    config: live.config.root,
    zeroStates: { masterchain: live.store.zeroState(MASTERCHAIN).state, basechain: live.store.zeroState(BASECHAIN).state },
    ...savedBlocks(live.store, live.shards),
    libs: live.engine.libs ?? null,
    lastUtime: live.lastUtime,
  };
}

/** Adds a snapshot's blocks, round by round, to a new chain's store and history. */
export function addRestoredRounds(live: LiveChain, snap: ChainSnapshot, validator: LocalValidator): void {
  for (const { shards, masterchain: mc } of restoredRounds(snap, validator)) {
    for (const top of shards) live.store.add(top);
    live.store.add(mc);
    live.history.record(mc.id, mc.endLt, mc.keyBlock);
    live.lastEndLt = mc.endLt;
  }
}
