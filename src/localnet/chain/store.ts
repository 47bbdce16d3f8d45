import { Cell } from '@ton/core';
import { BlockId, FULL_SHARD, sameBlockId, shardContains } from './ids';

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

/** One sealed block of either chain, with the state it produced. Never mutated after sealing. */
export interface StoredBlock {
  id: BlockId;
  root: Cell;
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
 * The immutable block store: every sealed block of every shard chain, plus indexes. A shard
 * chain is named by workchain and shard id; the masterchain's shard is FULL_SHARD, which is
 * the default wherever a shard may be left out.
 */
export class BlockStore {
  private readonly chains = new Map<string, StoredBlock[]>();
  private readonly zeroStates = new Map<number, ZeroState>();
  private readonly txsByAccount = new Map<string, StoredTransaction[]>();

  setZeroState(zs: ZeroState): void {
    this.zeroStates.set(zs.id.workchain, zs);
  }

  zeroState(workchain: number): ZeroState {
    const zs = this.zeroStates.get(workchain);
    if (!zs) throw new Error(`no zerostate for workchain ${workchain}`);
    return zs;
  }

  add(block: StoredBlock): void {
    const chain = this.chainForAdding(block.id.workchain, block.id.shard);
    if (block.id.seqno !== chain.length + 1) {
      throw new Error(`block ${block.id.seqno} does not follow ${chain.length}`);
    }
    chain.push(block);
    for (const tx of block.transactions) {
      const key = accountKey(tx.workchain, tx.address);
      const list = this.txsByAccount.get(key);
      if (list) list.push(tx);
      else this.txsByAccount.set(key, [tx]);
    }
  }

  last(workchain: number, shard = FULL_SHARD): StoredBlock | undefined {
    const chain = this.chain(workchain, shard);
    return chain[chain.length - 1];
  }

  height(workchain: number, shard = FULL_SHARD): number {
    return this.chain(workchain, shard).length;
  }

  bySeqno(workchain: number, seqno: number, shard = FULL_SHARD): StoredBlock | undefined {
    return seqno >= 1 ? this.chain(workchain, shard)[seqno - 1] : undefined;
  }

  /** The block with exactly this id (hashes included), if stored. */
  byId(id: BlockId): StoredBlock | undefined {
    const block = this.bySeqno(id.workchain, id.seqno, id.shard);
    return block && sameBlockId(block.id, id) ? block : undefined;
  }

  /** First block whose end_lt is at least `lt`. */
  byLt(workchain: number, lt: bigint, shard = FULL_SHARD): StoredBlock | undefined {
    const chain = this.chain(workchain, shard);
    return chain[lowerBound(chain, (b) => b.endLt >= lt)];
  }

  /** First block generated at or after `utime`. */
  byUtime(workchain: number, utime: number, shard = FULL_SHARD): StoredBlock | undefined {
    const chain = this.chain(workchain, shard);
    return chain[lowerBound(chain, (b) => b.genUtime >= utime)];
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

  /** All transactions of an account, oldest first. */
  transactionsOf(workchain: number, address: Buffer): readonly StoredTransaction[] {
    return this.txsByAccount.get(accountKey(workchain, address)) ?? [];
  }

  findTransaction(workchain: number, address: Buffer, lt: bigint): StoredTransaction | undefined {
    const list = this.transactionsOf(workchain, address);
    const i = lowerBound(list, (t) => t.lt >= lt);
    return list[i] && list[i].lt === lt ? list[i] : undefined;
  }

  /** Every stored block of one chain, oldest first. */
  blocks(workchain: number, shard = FULL_SHARD): readonly StoredBlock[] {
    return this.chain(workchain, shard);
  }

  private chain(workchain: number, shard: bigint): readonly StoredBlock[] {
    return this.chains.get(`${workchain}:${shard}`) ?? NO_BLOCKS;
  }

  private chainForAdding(workchain: number, shard: bigint): StoredBlock[] {
    const key = `${workchain}:${shard}`;
    let chain = this.chains.get(key);
    if (!chain) {
      chain = [];
      this.chains.set(key, chain);
    }
    return chain;
  }
}

const NO_BLOCKS: readonly StoredBlock[] = [];

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
