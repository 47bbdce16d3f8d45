import { Cell } from '@ton/core';
import { BlockId, sameBlockId } from './ids';

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
  /** Masterchain blocks: the basechain top block they register. */
  shardTop: BlockId | null;
  /** Masterchain blocks: the local validator's signature over the block id. */
  signature: Buffer | null;
}

/** A zerostate: seqno 0 of a chain, identified by its state's root hash and BoC file hash. */
export interface ZeroState {
  id: BlockId;
  state: Cell;
  boc: Buffer;
}

/** The immutable block store: every sealed block of both chains, plus indexes. */
export class BlockStore {
  private readonly chains = new Map<number, StoredBlock[]>();
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
    const chain = this.chain(block.id.workchain);
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

  last(workchain: number): StoredBlock | undefined {
    const chain = this.chain(workchain);
    return chain[chain.length - 1];
  }

  height(workchain: number): number {
    return this.chain(workchain).length;
  }

  bySeqno(workchain: number, seqno: number): StoredBlock | undefined {
    return seqno >= 1 ? this.chain(workchain)[seqno - 1] : undefined;
  }

  /** The block with exactly this id (hashes included), if stored. */
  byId(id: BlockId): StoredBlock | undefined {
    const block = this.bySeqno(id.workchain, id.seqno);
    return block && sameBlockId(block.id, id) ? block : undefined;
  }

  /** First block whose end_lt is at least `lt`. */
  byLt(workchain: number, lt: bigint): StoredBlock | undefined {
    const chain = this.chain(workchain);
    return chain[lowerBound(chain, (b) => b.endLt >= lt)];
  }

  /** First block generated at or after `utime`. */
  byUtime(workchain: number, utime: number): StoredBlock | undefined {
    const chain = this.chain(workchain);
    return chain[lowerBound(chain, (b) => b.genUtime >= utime)];
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
  blocks(workchain: number): readonly StoredBlock[] {
    return this.chain(workchain);
  }

  private chain(workchain: number): StoredBlock[] {
    let chain = this.chains.get(workchain);
    if (!chain) {
      chain = [];
      this.chains.set(workchain, chain);
    }
    return chain;
  }
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
