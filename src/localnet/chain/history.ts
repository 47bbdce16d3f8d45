/**
 * Masterchain history every new masterchain state carries: `prev_blocks` (OldMcBlocksInfo) and
 * the last key block, plus c7's PrevBlocksInfo for the emulator. Key blocks are recorded here
 * and nowhere else.
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

  /** Starts at the masterchain zerostate, which counts as a key block. */
  constructor(mcZero: ZeroState) {
    const zeroRef = extBlkRef(mcZero.id, 0n);
    this.prevBlocksDict = this.prevBlocksDict.set(0n, { key: true, blkRef: zeroRef }, { key: true, maxEndLt: 0n });
    this.lastKey = { seqno: 0, ref: zeroRef, id: mcZero.id };
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

  /** c7's PrevBlocksInfo as of masterchain block `seqno`: the last 16 blocks and the last key block. */
  prevBlocksInfo(store: BlockStore, seqno: number): PrevBlocksInfo | undefined {
    const last: BlockId[] = [];
    for (let s = seqno; s >= 1 && last.length < 16; s--) {
      const b = store.bySeqno(MASTERCHAIN, s);
      if (b) last.push(b.id);
    }
    if (last.length === 0) return undefined;
    let key = this.lastKey.id;
    for (let s = seqno; s >= 1; s--) {
      const b = store.bySeqno(MASTERCHAIN, s);
      if (b?.keyBlock) {
        key = b.id;
        break;
      }
    }
    return { lastMcBlocks: last, prevKeyBlock: key };
  }
}
