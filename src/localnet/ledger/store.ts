import { Cell } from '@ton/core';
import { coolBlock } from './blockBytes';
import { BlockId, FULL_SHARD, MASTERCHAIN, sameBlockId, shardContains } from './ids';

/** A transaction as stored in the read model: exact cell plus where it lives. */
export interface StoredTransaction {
  workchain: number;
  address: Buffer;
  lt: bigint;
  hash: Buffer;
  cell: Cell;
  prevLt: bigint;
  prevHash: Buffer;
  block: BlockId;
}

/**
 * One sealed block of either chain, with the state it produced. Never mutated after sealing, except
 * that an old block turns cold (blockBytes.ts): `root` and its transactions' `cell` are then
 * decoded from `boc` on demand.
 */
export interface StoredBlock {
  id: BlockId;
  root: Cell;
  /** The block's BoC as sealed (what getBlock serves; its SHA-256 is the file hash). */
  boc: Buffer;
  genUtime: number;
  startLt: bigint;
  endLt: bigint;
  keyBlock: boolean;
  prevKeyBlockSeqno: number;
  /** ShardStateUnsplit after this block. */
  state: Cell;
  /** Transactions ordered by (account, lt). */
  transactions: StoredTransaction[];
  /** Seqno of the masterchain block that registered this block (itself for masterchain blocks). */
  masterchainSeqno: number;
  /** Masterchain blocks: the basechain shard top blocks they register, in shard order. */
  shardTops: BlockId[];
  /** Masterchain blocks: the local validator's signature over the block id. */
  signature: Buffer | null;
}

/** A zerostate: seqno 0 of a chain, identified by its state's root hash and BoC file hash. */
export interface ZeroState {
  id: BlockId;
  state: Cell;
  boc: Buffer;
}

/**
 * Blocks of each shard chain kept as cells: its newest HOT_BLOCKS (the newest and the 3 before it);
 * a block HOT_BLOCKS behind the newest keeps its BoC bytes only (blockBytes.ts). Sealing reads the newest block of each chain (its state, always cells);
 * lite clients mostly ask about the last few blocks.
 */
export const HOT_BLOCKS = 4;

/**
 * One shard chain's blocks: a window of consecutive recent blocks plus older blocks that are
 * pinned (key-block rounds, which proof chains start from). Dropping advances `head` instead
 * of shifting the array, so a drop per round costs O(1); the array is compacted now and then.
 */
class ShardChain {
  /** blocks[head..] hold seqnos first..height. */
  private blocks: StoredBlock[] = [];
  private head = 0;
  private first = 1;
  readonly pinned = new Map<number, StoredBlock>();
  /** What lookups by lt / utime must not answer from the window: the last dropped block's bounds. */
  droppedEndLt = -1n;
  droppedGenUtime = -1;

  get height(): number {
    return this.first + (this.blocks.length - this.head) - 1;
  }

  get firstLive(): number {
    return this.first;
  }

  /** The live window, oldest first (a copy only when compaction is due). */
  get window(): readonly StoredBlock[] {
    return this.head === 0 ? this.blocks : this.blocks.slice(this.head);
  }

  /** Appends the next block; after a gap (see BlockStore.add) the window restarts at it. */
  push(block: StoredBlock): void {
    const seqno = block.id.seqno;
    if (seqno !== this.height + 1) {
      if (seqno <= this.height || this.head < this.blocks.length) throw new Error(`block ${seqno} does not follow ${this.height}`);
      // Restored with a retention window: lookups by lt / utime must not pretend to know the
      // blocks before it (their exact bounds were not saved; these are conservative).
      this.first = seqno;
      this.droppedEndLt = block.startLt;
      this.droppedGenUtime = block.genUtime - 1;
    }
    this.blocks.push(block);
  }

  at(seqno: number): StoredBlock | undefined {
    if (seqno >= this.first && seqno <= this.height) return this.blocks[this.head + seqno - this.first];
    return this.pinned.get(seqno);
  }

  last(): StoredBlock | undefined {
    return this.head < this.blocks.length ? this.blocks[this.blocks.length - 1] : undefined;
  }

  /** Drops the oldest window blocks while `old` holds; `pin` ones move to `pinned`. Returns the dropped ones. */
  dropWhile(old: (block: StoredBlock) => boolean, pin: (block: StoredBlock) => boolean): StoredBlock[] {
    const dropped: StoredBlock[] = [];
    while (this.head < this.blocks.length && old(this.blocks[this.head])) {
      const block = this.blocks[this.head];
      this.blocks[this.head] = undefined as unknown as StoredBlock;
      this.head++;
      this.first++;
      if (pin(block)) this.pinned.set(block.id.seqno, block);
      else dropped.push(block);
      this.droppedEndLt = block.endLt;
      this.droppedGenUtime = block.genUtime;
    }
    if (this.head > 1024 && this.head * 2 > this.blocks.length) {
      this.blocks = this.blocks.slice(this.head);
      this.head = 0;
    }
    return dropped;
  }

  /** First window block satisfying a monotone predicate, unless the answer may be a dropped block. */
  search(pred: (b: StoredBlock) => boolean): StoredBlock | undefined {
    let lo = this.head;
    let hi = this.blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pred(this.blocks[mid])) hi = mid;
      else lo = mid + 1;
    }
    return this.blocks[lo];
  }
}

/**
 * The block store: the sealed blocks of every shard chain, plus indexes. A shard chain is named
 * by workchain and shard id; the masterchain's shard is FULL_SHARD, the default wherever a shard
 * may be left out. Blocks are never mutated; old ones can be dropped (`dropRoundsThrough`) like a
 * non-archival node drops them, except key-block rounds, which stay for proofs.
 */
export class BlockStore {
  private readonly chains = new Map<string, ShardChain>();
  private readonly zeroStates = new Map<number, ZeroState>();
  /**
   * Each account's transactions, oldest first: the record itself while it has one (most of a
   * large chain's accounts: the index bench's 116 043 accounts for 120 843 transactions), a list
   * from the second on, so an account costs no array until it has two.
   */
  private readonly txsByAccount = new Map<string, StoredTransaction | StoredTransaction[]>();
  /** Masterchain seqnos of key blocks: their rounds are never dropped. */
  private readonly keyRounds = new Set<number>();

  setZeroState(zs: ZeroState): void {
    this.zeroStates.set(zs.id.workchain, zs);
  }

  zeroState(workchain: number): ZeroState {
    const zs = this.zeroStates.get(workchain);
    if (!zs) throw new Error(`no zerostate for workchain ${workchain}`);
    return zs;
  }

  /**
   * Appends a block to its shard chain: the next seqno, or (restoring a chain saved with a
   * retention window) a later one, which drops the blocks before it except key-block rounds.
   */
  add(block: StoredBlock): void {
    const chain = this.chainForAdding(block.id.workchain, block.id.shard);
    if (block.keyBlock) this.keyRounds.add(block.masterchainSeqno);
    if (block.id.seqno > chain.height + 1)
      this.forgetTransactions(
        chain.dropWhile(
          () => true,
          (b) => this.pinnedRound(b),
        ),
      );
    chain.push(block);
    const cooling = chain.at(block.id.seqno - HOT_BLOCKS);
    if (cooling) coolBlock(cooling);
    for (const tx of block.transactions) {
      const key = accountKey(tx.workchain, tx.address);
      const known = this.txsByAccount.get(key);
      if (known === undefined) this.txsByAccount.set(key, tx);
      else if (Array.isArray(known)) known.push(tx);
      else this.txsByAccount.set(key, [known, tx]);
    }
  }

  /**
   * Drops every block of every shard chain registered by masterchain blocks up to `mcSeqno`,
   * except key-block rounds, with their transactions. Returns the masterchain seqnos dropped.
   */
  dropRoundsThrough(mcSeqno: number): number[] {
    const droppedRounds: number[] = [];
    for (const chain of this.chains.values()) {
      const dropped = chain.dropWhile(
        (b) => b.masterchainSeqno <= mcSeqno,
        (b) => this.pinnedRound(b),
      );
      this.forgetTransactions(dropped);
      for (const b of dropped) if (b.id.workchain === MASTERCHAIN) droppedRounds.push(b.id.seqno);
    }
    return droppedRounds;
  }

  last(workchain: number, shard = FULL_SHARD): StoredBlock | undefined {
    return this.chains.get(chainKey(workchain, shard))?.last();
  }

  /** Seqno of the newest block of the chain (0 before the first). */
  height(workchain: number, shard = FULL_SHARD): number {
    return this.chains.get(chainKey(workchain, shard))?.height ?? 0;
  }

  /** Seqno of the oldest block of the live window (pinned key-block rounds may be older). */
  oldestKept(workchain: number, shard = FULL_SHARD): number {
    return this.chains.get(chainKey(workchain, shard))?.firstLive ?? 1;
  }

  bySeqno(workchain: number, seqno: number, shard = FULL_SHARD): StoredBlock | undefined {
    return seqno >= 1 ? this.chains.get(chainKey(workchain, shard))?.at(seqno) : undefined;
  }

  /** The block with exactly this id (hashes included), if stored. */
  byId(id: BlockId): StoredBlock | undefined {
    const block = this.bySeqno(id.workchain, id.seqno, id.shard);
    return block && sameBlockId(block.id, id) ? block : undefined;
  }

  /** First block whose end_lt is at least `lt`; undefined when that block was dropped. */
  byLt(workchain: number, lt: bigint, shard = FULL_SHARD): StoredBlock | undefined {
    const chain = this.chains.get(chainKey(workchain, shard));
    if (!chain || lt <= chain.droppedEndLt) return undefined;
    return chain.search((b) => b.endLt >= lt);
  }

  /** First block generated at or after `utime`; undefined when that block was dropped. */
  byUtime(workchain: number, utime: number, shard = FULL_SHARD): StoredBlock | undefined {
    const chain = this.chains.get(chainKey(workchain, shard));
    if (!chain || utime <= chain.droppedGenUtime) return undefined;
    return chain.search((b) => b.genUtime >= utime);
  }

  /** The shards of a workchain that have blocks, in shard order. */
  shards(workchain: number): bigint[] {
    const out: bigint[] = [];
    for (const key of this.chains.keys()) {
      const [wc, shard] = key.split(':');
      if (Number(wc) === workchain) out.push(BigInt(shard));
    }
    return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /**
   * The shard chain holding `shard` of `workchain`: the shard itself or the stored shard that
   * contains it (a lite server resolves an account's deepest prefix to its real shard).
   */
  resolveShard(workchain: number, shard: bigint): bigint | undefined {
    const shards = this.shards(workchain);
    if (shards.includes(shard)) return shard;
    return shards.find((s) => shardContains(s, shard));
  }

  /** The account's transactions in stored blocks, oldest first. */
  transactionsOf(workchain: number, address: Buffer): readonly StoredTransaction[] {
    const known = this.txsByAccount.get(accountKey(workchain, address));
    return known === undefined ? NO_TRANSACTIONS : Array.isArray(known) ? known : [known];
  }

  findTransaction(workchain: number, address: Buffer, lt: bigint): StoredTransaction | undefined {
    const list = this.transactionsOf(workchain, address);
    const i = lowerBound(list, (t) => t.lt >= lt);
    return list[i] && list[i].lt === lt ? list[i] : undefined;
  }

  /** Every stored block of one chain (pinned key-block rounds, then the window), oldest first. */
  blocks(workchain: number, shard = FULL_SHARD): readonly StoredBlock[] {
    const chain = this.chains.get(chainKey(workchain, shard));
    if (!chain) return NO_BLOCKS;
    const pinned = [...chain.pinned.values()].sort((a, b) => a.id.seqno - b.id.seqno);
    return pinned.length === 0 ? chain.window : [...pinned, ...chain.window];
  }

  /** Key-block rounds (the key block and the shard blocks it registers) are never dropped. */
  private pinnedRound(block: StoredBlock): boolean {
    return this.keyRounds.has(block.masterchainSeqno);
  }

  /** Removes dropped blocks' transactions: they are the oldest of each account's list. */
  private forgetTransactions(dropped: readonly StoredBlock[]): void {
    for (const block of dropped) {
      for (const tx of block.transactions) {
        const key = accountKey(tx.workchain, tx.address);
        const known = this.txsByAccount.get(key);
        if (known === undefined) continue;
        if (!Array.isArray(known)) {
          if (known === tx) this.txsByAccount.delete(key);
          continue;
        }
        const i = known.indexOf(tx);
        if (i >= 0) known.splice(i, 1);
        if (known.length === 0) this.txsByAccount.delete(key);
      }
    }
  }

  private chainForAdding(workchain: number, shard: bigint): ShardChain {
    const key = chainKey(workchain, shard);
    let chain = this.chains.get(key);
    if (!chain) {
      chain = new ShardChain();
      this.chains.set(key, chain);
    }
    return chain;
  }
}

const NO_BLOCKS: readonly StoredBlock[] = [];
const NO_TRANSACTIONS: readonly StoredTransaction[] = [];

function chainKey(workchain: number, shard: bigint): string {
  return `${workchain}:${shard}`;
}

function accountKey(workchain: number, address: Buffer): string {
  return `${workchain}:${address.toString('hex')}`;
}

/** Index of the first element satisfying a monotone predicate (length if none). */
function lowerBound<T>(items: readonly T[], pred: (item: T) => boolean): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (pred(items[mid])) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
