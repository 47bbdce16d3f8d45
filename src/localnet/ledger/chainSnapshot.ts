/** What a chain snapshot holds, and how sealed blocks and account sets are rebuilt from its cells. */
import { Cell, loadTransaction } from '@ton/core';
import { decodeBocFast } from '../../cells';
import { loadBlockInfo } from '../../tlb';
import { BlockMeta, BlockTransaction, collectTransactionCells, coolBlock } from './blockBytes';
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
  /** Messages between shards held by the cross-shard delay, with the masterchain round they land in. */
  inFlight?: InFlightMessage[];
}

/** A message on its way to another shard (`--cross-shard-delay`), as saved: its cell and its round. */
export interface InFlightMessage {
  message: Cell;
  dueRound: number;
}

/**
 * A block as saved: its BoC and its state (cells: states share their unchanged cells, so a file
 * holds each once). `meta` (state files from version 4, journal round records from kind 2) lets a
 * restore index the block without decoding it; older files held the block as cells (`root`).
 */
export interface SavedBlock {
  boc: Buffer;
  state: Cell;
  fileHash: Buffer;
  meta?: BlockMeta;
  root?: Cell;
}

/** The saved form of a stored block (its meta read from the stored fields: nothing is decoded). */
export function savedBlockOf(block: StoredBlock): SavedBlock {
  return { boc: block.boc, state: block.state, fileHash: block.id.fileHash, meta: block };
}

/** Seqno and root hash of a saved block. */
export function savedBlockId(saved: SavedBlock): { seqno: number; rootHash: Buffer } {
  if (saved.meta) return saved.meta.id;
  const root = savedRoot(saved);
  return { seqno: loadBlockInfo(root.refs[0].beginParse()).seqno, rootHash: root.hash() };
}

function savedRoot(saved: SavedBlock): Cell {
  const root = saved.root ?? decodeBocFast(saved.boc)[0];
  if (!root) throw new Error('a saved block with an empty BoC');
  return root;
}

/**
 * A StoredBlock rebuilt from its saved form: from its meta, cold at once (its cells are decoded
 * only if a query needs them); from cells (older files), header fields from BlockInfo and
 * transactions from account_blocks.
 */
export function restoredBlock(saved: SavedBlock, signature: Buffer | null): StoredBlock {
  const meta = saved.meta;
  if (!meta) return restoredFromCells(saved, savedRoot(saved), signature);
  const id = meta.id;
  const block: StoredBlock = {
    id,
    // Replaced by coolBlock below with a read of the decoded BoC.
    root: NOT_DECODED,
    boc: saved.boc,
    genUtime: meta.genUtime,
    startLt: meta.startLt,
    endLt: meta.endLt,
    keyBlock: meta.keyBlock,
    prevKeyBlockSeqno: meta.prevKeyBlockSeqno,
    state: saved.state,
    // Cold at once (coolBlock below): no cell until a query reads it from the BoC.
    transactions: meta.transactions.map((t) => BlockTransaction.of(id.workchain, t.address, t.lt, t.hash, null, t.prevLt, t.prevHash, id)),
    masterchainSeqno: id.seqno,
    shardTops: [],
    signature,
  };
  coolBlock(block);
  return block;
}

/** A placeholder that coolBlock replaces before anything reads it. */
const NOT_DECODED = Cell.EMPTY;

function restoredFromCells(saved: SavedBlock, root: Cell, signature: Buffer | null): StoredBlock {
  const info = loadBlockInfo(root.refs[0].beginParse());
  const workchain = info.shard.workchainId;
  const id: BlockId = {
    workchain,
    shard: shardOfIdent(info.shard),
    seqno: info.seqno,
    rootHash: root.hash(),
    fileHash: saved.fileHash,
  };
  const transactions: StoredTransaction[] = [];
  collectTransactionCells(root, (cell) => {
    const tx = loadTransaction(cell.beginParse());
    transactions.push(
      BlockTransaction.of(
        workchain,
        Buffer.from(tx.address.toString(16).padStart(64, '0'), 'hex'),
        tx.lt,
        cell.hash(),
        cell,
        tx.prevTransactionLt,
        Buffer.from(tx.prevTransactionHash.toString(16).padStart(64, '0'), 'hex'),
        id,
      ),
    );
  });
  return {
    id,
    root,
    boc: saved.boc,
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
    store.blocks(wc, shard).map(savedBlockOf);
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
    const masterchain = restoredBlock(mcSaved, null);
    masterchain.signature = validator.signBlock(masterchain.id.rootHash, masterchain.id.fileHash);
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
