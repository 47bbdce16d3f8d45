/**
 * Old blocks kept as their BoC bytes instead of cells.
 *
 * A sealed block of ~600 transactions is ~20 000 cells, and @ton/core's Cell objects (bits, refs,
 * hashes and depths per level, each Buffer its own allocation) cost ~1.5 KB each: ~30 MB a block
 * where its BoC is ~1-2 MB. A chain that keeps every block (`--keep-blocks 0`, the index bench's
 * saved chains) held gigabytes of cells the garbage collector walked on every major GC, and a save
 * re-encoded them all. So a block keeps its cells only while it is recent (the lite server's common
 * questions are about the head); after that its root and its transactions' cells are decoded from
 * the BoC it was sealed with (which getBlock serves as is) when a query needs them, into a small
 * bounded cache. Its state stays cells: states share every unchanged cell with the next one, so what
 * one block's state holds of its own is small (the changed paths), and the next seal builds on it.
 *
 * `BlockMeta` is what the store indexes a block by (header fields and the transaction list): saved
 * beside the BoC in the state file and journal, so loading a chain does not decode its blocks.
 */
import { Cell } from '@ton/core';
import { decodeBocFast, forEachDictLeaf } from '../../cells';
import { loadCurrencyCollection } from '../../tlb';
import { BlockId } from './ids';

/** What of a SealedBlock (store.ts, which imports this module) turns cold. */
interface SealedBlock {
  id: BlockId;
  boc: Buffer;
  root: Cell;
  transactions: SealedTransaction[];
}

interface SealedTransaction {
  hash: Buffer;
  cell: Cell;
}

/** A block's header fields and transaction list, as the store needs them without its cells. */
export interface BlockMeta {
  id: BlockId;
  genUtime: number;
  startLt: bigint;
  endLt: bigint;
  keyBlock: boolean;
  prevKeyBlockSeqno: number;
  transactions: { address: Buffer; lt: bigint; hash: Buffer; prevLt: bigint; prevHash: Buffer }[];
}

const META_VERSION = 1;
const META_HEAD = 1 + 4 + 8 + 4 + 32 + 32 + 4 + 8 + 8 + 1 + 4 + 4;
const META_TX = 32 + 8 + 32 + 8 + 32;
/** A transaction's ids in the meta's layout: address (32), lt (8, LE), hash (32), prev lt (8, LE), prev hash (32). */
const TX_ADDRESS = 0;
const TX_LT = 32;
const TX_HASH = 40;
const TX_PREV_LT = 72;
const TX_PREV_HASH = 80;

/** A transaction's ids read from `data` at byte `at` (META_TX bytes, the meta's layout), each field a copy. */
function readTransactionIds(data: Buffer, at: number): BlockMeta['transactions'][number] {
  return {
    address: Buffer.from(data.subarray(at + TX_ADDRESS, at + TX_ADDRESS + 32)),
    lt: data.readBigUInt64LE(at + TX_LT),
    hash: Buffer.from(data.subarray(at + TX_HASH, at + TX_HASH + 32)),
    prevLt: data.readBigUInt64LE(at + TX_PREV_LT),
    prevHash: Buffer.from(data.subarray(at + TX_PREV_HASH, at + TX_PREV_HASH + 32)),
  };
}

/** Writes a transaction's ids into `out` from byte `at` in the meta's layout (META_TX bytes): the meta and the store's records share it. */
function writeTransactionIds(tx: BlockMeta['transactions'][number], out: Buffer, at: number): void {
  tx.address.copy(out, at + TX_ADDRESS, 0, 32);
  out.writeBigUInt64LE(tx.lt, at + TX_LT);
  tx.hash.copy(out, at + TX_HASH, 0, 32);
  out.writeBigUInt64LE(tx.prevLt, at + TX_PREV_LT);
  tx.prevHash.copy(out, at + TX_PREV_HASH, 0, 32);
}

/** The meta of a block in a fixed binary layout (~112 bytes a transaction). */
export function encodeBlockMeta(block: BlockMeta): Buffer {
  const out = Buffer.alloc(META_HEAD + META_TX * block.transactions.length);
  let at = out.writeUInt8(META_VERSION, 0);
  at = out.writeInt32LE(block.id.workchain, at);
  at = out.writeBigUInt64LE(block.id.shard, at);
  at = out.writeUInt32LE(block.id.seqno, at);
  at += block.id.rootHash.copy(out, at);
  at += block.id.fileHash.copy(out, at);
  at = out.writeUInt32LE(block.genUtime, at);
  at = out.writeBigUInt64LE(block.startLt, at);
  at = out.writeBigUInt64LE(block.endLt, at);
  at = out.writeUInt8(block.keyBlock ? 1 : 0, at);
  at = out.writeUInt32LE(block.prevKeyBlockSeqno, at);
  at = out.writeUInt32LE(block.transactions.length, at);
  for (const tx of block.transactions) {
    writeTransactionIds(tx, out, at);
    at += META_TX;
  }
  if (at !== out.length) throw new Error('block meta of a wrong size');
  return out;
}

export function decodeBlockMeta(data: Buffer): BlockMeta {
  if (data.length < META_HEAD || data[0] !== META_VERSION) throw new Error('not a block meta record');
  let at = 1;
  const bytes = (n: number) => Buffer.from(data.subarray(at, (at += n)));
  const workchain = data.readInt32LE(at);
  at += 4;
  const shard = data.readBigUInt64LE(at);
  at += 8;
  const seqno = data.readUInt32LE(at);
  at += 4;
  const rootHash = bytes(32);
  const fileHash = bytes(32);
  const genUtime = data.readUInt32LE(at);
  const startLt = data.readBigUInt64LE(at + 4);
  const endLt = data.readBigUInt64LE(at + 12);
  const keyBlock = data[at + 20] === 1;
  const prevKeyBlockSeqno = data.readUInt32LE(at + 21);
  const count = data.readUInt32LE(at + 25);
  at += 29;
  if (data.length !== META_HEAD + META_TX * count) throw new Error('block meta of a wrong size');
  const transactions: BlockMeta['transactions'] = [];
  for (let i = 0; i < count; i++, at += META_TX) transactions.push(readTransactionIds(data, at));
  return { id: { workchain, shard, seqno, rootHash, fileHash }, genUtime, startLt, endLt, keyBlock, prevKeyBlockSeqno, transactions };
}

/** A cold block's cells, decoded from its BoC: the root and its transactions' cells by hash. */
interface Decoded {
  root: Cell;
  txCells: Map<string, Cell>;
}

/**
 * Decoded cold blocks, the most recently used last. Four blocks of ~600 transactions are ~120 MB
 * of cells at most; a query walking older blocks (an account's history) decodes each once in turn.
 * One cache per thread: every chain in it (a restored in-memory snapshot shares blocks with the
 * chain it came from) draws on the same bound.
 */
const CACHE_BLOCKS = 4;
const decodedBlocks = new Map<SealedBlock, Decoded>();
let decodes = 0;

/** How many times a cold block was decoded (tests see that old blocks are cold and decoded on demand). */
export function coldDecodes(): number {
  return decodes;
}

function decoded(block: SealedBlock): Decoded {
  const hit = decodedBlocks.get(block);
  if (hit) {
    decodedBlocks.delete(block);
    decodedBlocks.set(block, hit);
    return hit;
  }
  decodes++;
  const root = decodeBocFast(block.boc)[0];
  if (!root || !root.hash().equals(block.id.rootHash)) throw new Error(`block ${block.id.workchain}:${block.id.seqno}: its BoC does not decode to its root hash`);
  const txCells = new Map<string, Cell>();
  collectTransactionCells(root, (cell) => txCells.set(cell.hash().toString('latin1'), cell));
  const entry = { root, txCells };
  decodedBlocks.set(block, entry);
  while (decodedBlocks.size > CACHE_BLOCKS) decodedBlocks.delete(decodedBlocks.keys().next().value as SealedBlock);
  return entry;
}

/** Every transaction cell of a Block, from its account_blocks (as the restore reads them). */
export function collectTransactionCells(root: Cell, visit: (cell: Cell) => void): void {
  // Block -> extra (ref 3) -> account_blocks (ref 2): HashmapAugE of AccountBlock.
  const container = root.refs[3].refs[2].beginParse();
  forEachDictLeaf(container.loadBit() ? container.loadRef() : null, 256, (_, accountBlock) => {
    loadCurrencyCollection(accountBlock);
    // acc_trans#5 account_addr:bits256, then the HashmapAug 64 of ^Transaction.
    accountBlock.skip(4 + 256);
    forEachDictLeaf(accountBlock, 64, (__, txLeaf) => {
      loadCurrencyCollection(txLeaf);
      visit(txLeaf.loadRef());
    });
  });
}

/**
 * Makes a sealed block cold: its `root` and its transactions' `cell` become reads through the
 * cache of decoded blocks, and the cells it held are left to the garbage collector. Idempotent.
 */
export function coolBlock(block: SealedBlock): void {
  if (coldBlocks.has(block)) return;
  coldBlocks.add(block);
  Object.defineProperty(block, 'root', { get: () => decoded(block).root, enumerable: true, configurable: true });
  for (const tx of block.transactions) {
    if (tx instanceof BlockTransaction) tx.cool(block);
    else coolTransaction(block, tx);
  }
}

const coldBlocks = new WeakSet<SealedBlock>();

export function isCold(block: SealedBlock): boolean {
  return coldBlocks.has(block);
}

/** A cold block's transaction cell, decoded from its BoC (through the bounded cache). */
function coldCell(block: SealedBlock, hash: Buffer): Cell {
  const cell = decoded(block).txCells.get(hash.toString('latin1'));
  if (!cell) throw new Error(`block ${block.id.workchain}:${block.id.seqno} has no transaction ${hash.toString('hex')}`);
  return cell;
}

/** A transaction record not made by BlockTransaction (none in the chain's own code): a getter of its own. */
function coolTransaction(block: SealedBlock, tx: SealedTransaction): void {
  Object.defineProperty(tx, 'cell', { get: () => coldCell(block, tx.hash), enumerable: true, configurable: true });
}

/**
 * One transaction of a sealed block, as the store indexes it (store.ts's StoredTransaction). Its
 * `cell` is the cell while the block is recent and is decoded from the block's BoC once the block
 * is cold, by a getter on the prototype. Its ids are one buffer of the meta's layout (META_TX
 * bytes), read by getters: the chain keeps one such record per transaction it ever sealed
 * (120 843 on the index bench's chain), and three buffers and two bigints each were ~600 000 of
 * the heap objects its collector marks at every full collection (docs/benchmarks.md, "The index",
 * the live section). A getter defined per record (before) cost each a closure, its context, an
 * accessor pair and a key string, and turned it into a dictionary-mode object.
 */
export class BlockTransaction {
  private hot: Cell | null;
  private owner: SealedBlock | null = null;

  private constructor(
    readonly workchain: number,
    private readonly ids: Buffer,
    cell: Cell | null,
    readonly block: BlockId,
  ) {
    this.hot = cell;
  }

  /** A record of these ids (the cell null for a block restored cold). */
  static of(workchain: number, address: Buffer, lt: bigint, hash: Buffer, cell: Cell | null, prevLt: bigint, prevHash: Buffer, block: BlockId): BlockTransaction {
    const ids = Buffer.allocUnsafe(META_TX);
    writeTransactionIds({ address, lt, hash, prevLt, prevHash }, ids, 0);
    return new BlockTransaction(workchain, ids, cell, block);
  }

  get address(): Buffer {
    return this.ids.subarray(TX_ADDRESS, TX_ADDRESS + 32);
  }

  get lt(): bigint {
    return this.ids.readBigUInt64LE(TX_LT);
  }

  get hash(): Buffer {
    return this.ids.subarray(TX_HASH, TX_HASH + 32);
  }

  get prevLt(): bigint {
    return this.ids.readBigUInt64LE(TX_PREV_LT);
  }

  get prevHash(): Buffer {
    return this.ids.subarray(TX_PREV_HASH, TX_PREV_HASH + 32);
  }

  get cell(): Cell {
    if (this.hot) return this.hot;
    if (!this.owner) throw new Error(`transaction ${this.hash.toString('hex')} has no cell and no block`);
    return coldCell(this.owner, this.hash);
  }

  /** Its block turned cold: the cell is read from the block's BoC from now on. */
  cool(owner: SealedBlock): void {
    this.owner = owner;
    this.hot = null;
  }
}
