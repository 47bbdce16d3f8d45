/**
 * Masterchain history every new masterchain state carries: `prev_blocks` (OldMcBlocksInfo) and
 * the last key block, plus c7's PrevBlocksInfo for the emulator. Key blocks are recorded here
 * and nowhere else.
 *
 * With a retention window, blocks the store dropped leave `prev_blocks` too (`forget`): the
 * dictionary then lists the key blocks and the kept window, so the masterchain state does not
 * grow by a dictionary entry every round forever. Every block a proof can still name (a kept one
 * or a key block) stays in it, so ancestor proofs keep working.
 */
import { PrevBlocksInfo } from '@ton/sandbox';
import { ExtBlkRef } from '../../tlb';
import { emptyPrevBlocks, PrevBlocksDict } from './builder';
import { BlockId, extBlkRef, MASTERCHAIN } from './ids';
import { BlockStore, ZeroState } from './store';

export interface KeyBlockRef {
  seqno: number;
  ref: ExtBlkRef;
  id: BlockId;
}

export class MasterchainHistory {
  private prevBlocksDict: PrevBlocksDict = emptyPrevBlocks();
  private lastKey: KeyBlockRef;
  private readonly zeroId: BlockId;

  /** Starts at the masterchain zerostate, which counts as a key block. */
  constructor(mcZero: ZeroState) {
    const zeroRef = extBlkRef(mcZero.id, 0n);
    this.prevBlocksDict = this.prevBlocksDict.set(0n, { key: true, blkRef: zeroRef }, { key: true, maxEndLt: 0n });
    this.lastKey = { seqno: 0, ref: zeroRef, id: mcZero.id };
    this.zeroId = mcZero.id;
  }

  /** An independent copy (the dictionary is persistent, so this costs nothing): in-memory snapshots keep one. */
  clone(): MasterchainHistory {
    const copy = Object.create(MasterchainHistory.prototype) as MasterchainHistory;
    copy.prevBlocksDict = this.prevBlocksDict;
    copy.lastKey = this.lastKey;
    return copy;
  }

  get prevBlocks(): PrevBlocksDict {
    return this.prevBlocksDict;
  }

  get lastKeyBlock(): KeyBlockRef {
    return this.lastKey;
  }

  /** Appends a sealed (or restored) masterchain block. */
  record(id: BlockId, endLt: bigint, keyBlock: boolean): void {
    const ref = extBlkRef(id, endLt);
    this.prevBlocksDict = this.prevBlocksDict.set(BigInt(id.seqno), { key: keyBlock, blkRef: ref }, { key: keyBlock, maxEndLt: endLt });
    if (keyBlock) this.lastKey = { seqno: id.seqno, ref, id };
  }

  /** Removes dropped masterchain blocks (never key blocks) from `prev_blocks`. */
  forget(seqnos: readonly number[]): void {
    for (const seqno of seqnos) {
      const entry = this.prevBlocksDict.get(BigInt(seqno));
      if (entry && !entry.value.key) this.prevBlocksDict = this.prevBlocksDict.delete(BigInt(seqno));
    }
  }

  /** c7's PrevBlocksInfo as of masterchain block `seqno`: the last 16 blocks and the last key block. */
  prevBlocksInfo(store: BlockStore, seqno: number): PrevBlocksInfo | undefined {
    const last: BlockId[] = [];
    for (let s = seqno; s >= 1 && last.length < 16; s--) {
      const b = store.bySeqno(MASTERCHAIN, s);
      if (b) last.push(b.id);
    }
    if (last.length === 0) return undefined;
    // The newest key block at or before `seqno`: the block itself or the one its header names.
    const newest = store.bySeqno(MASTERCHAIN, seqno);
    let key = this.lastKey.id;
    if (newest?.keyBlock) key = newest.id;
    else if (newest) key = newest.prevKeyBlockSeqno === 0 ? this.zeroId : (store.bySeqno(MASTERCHAIN, newest.prevKeyBlockSeqno)?.id ?? key);
    return { lastMcBlocks: last, prevKeyBlock: key };
  }
}
