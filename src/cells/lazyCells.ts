import { BitReader, type BitString, Cell, CellType, Slice } from '@ton/core';
import { decodeBocFast, readBocLayout, type BocLayout } from './fastBoc';
import { copyHash, inspectAsString, leanBitString, leanOrdinaryCell, LEVEL_MASKS, NO_REFS, refsArray, ReprScratch } from './leanCell';

/**
 * Cells of an authenticated BoC whose hashes and depths are computed when first asked.
 *
 * A block's BoC is checked by its file hash (the SHA-256 of its bytes, which the block's id
 * carries and the verified masterchain links to) before it is decoded: the bytes are then the
 * very block the validators signed, and so is every cell in it. Hashing every cell on decode, as
 * decodeBocFast does for BoCs of unknown origin, adds nothing to that check, and was the largest
 * part of decoding a block (the SHA-256 alone ~40 % of it, a profile of the PostgreSQL ingest):
 * most of a block's cells are the state update's old and new paths, the dictionaries of
 * InMsgDescr, OutMsgDescr and ShardAccountBlocks, whose hashes the index never reads. Here a cell's
 * hash is computed on its first `hash()` or `depth()` (a transaction's, a message's, a changed
 * account's), with its subtree's, iteratively (no recursion however deep the BoC), into per-BoC
 * slabs; the values are those @ton/core's constructor gives (test/unit/lazyCells compares every
 * cell, every level).
 *
 * Lazy kinds: ordinary cells of level mask 0 or 1, level-1 pruned branches and Merkle updates over
 * them (a block's state update). Anything else (a library cell, a Merkle proof, deeper levels) is
 * built at once as decodeBocFast builds it; a Merkle update is not checked against its refs here
 * (@ton/core's constructor would hash both trees whole to do so), which the file hash makes moot.
 */

/** The default (0): an ordinary cell of level mask 0 or 1. */
const KIND_PRUNED = 1;
const KIND_MERKLE_UPDATE = 2;
/** Built at once (decodeBocFast's cell); asked through its own methods. */
const KIND_EAGER = 3;

/** A level-1 pruned branch's data: type 1, mask 1, a hash and a depth. */
const PRUNED_BITS = 8 + 8 + 256 + 16;
/** A Merkle update's data: type 4, two hashes and two depths. */
const MERKLE_UPDATE_BITS = 8 + 2 * (256 + 16);

/**
 * Where this file writes representations: not leanCell.ts's memory, which a cell being built
 * there (over a lazy cell not hashed yet, as `beginCell().storeRef(lazy).endCell()`) is in the
 * middle of filling when it asks its refs for their depths.
 */
const SCRATCH = new ReprScratch();
const REPR_SCRATCH = SCRATCH.bytes;

/** The cells LazyBoc.ensure has still to compute, children above parents; grown when full. */
let pendingCells = new Int32Array(4096);

/** A BoC's cells and the hashes and depths computed so far, per cell index. */
class LazyBoc {
  readonly kind: Uint8Array;
  readonly mask: Uint8Array;
  readonly done: Uint8Array;
  readonly depth0: Uint32Array;
  readonly depth1: Uint32Array;
  /** Level-0 hashes, 32 bytes a cell. */
  readonly slab0: Buffer;
  /** Level-1 hashes of the cells with a level (32 bytes a cell), made with the first of them. */
  private slab1: Buffer | null = null;
  /**
   * The cells built at once, by index (few or none in a block). Not every cell: a cell kept after
   * the parse (a remembered code cell, a message body) keeps this object, and should keep no more
   * of its block than these arrays and its own subtree.
   */
  readonly eager = new Map<number, Cell>();

  constructor(readonly layout: BocLayout) {
    const count = layout.cellCount;
    this.kind = new Uint8Array(count);
    this.mask = new Uint8Array(count);
    this.done = new Uint8Array(count);
    this.depth0 = new Uint32Array(count);
    this.depth1 = new Uint32Array(count);
    this.slab0 = Buffer.allocUnsafeSlow(32 * count);
  }

  levelSlab(): Buffer {
    return (this.slab1 ??= Buffer.allocUnsafeSlow(32 * this.layout.cellCount));
  }

  /** The slab holding lazy cell `index`'s hash at `level` (a cell without a level has one hash for all). */
  private slabOf(index: number, level: number): Buffer {
    return level > 0 && this.mask[index] !== 0 ? this.slab1! : this.slab0;
  }

  /** Cell `index`'s hash at `level`, a view of its slab (computed first if need be); asked of lazy cells only. */
  hash(index: number, level: number): Buffer {
    this.ensure(index);
    return this.slabOf(index, level).subarray(32 * index, 32 * index + 32);
  }

  depth(index: number, level: number): number {
    this.ensure(index);
    return this.computedDepth(index, level);
  }

  /** Copies cell `index`'s hash at `level` into `target` at `at` (computed already). */
  private copyComputedHash(index: number, level: number, target: Buffer, at: number): void {
    if (this.kind[index] === KIND_EAGER) copyHash(this.eager.get(index)!, level, target, at);
    else this.slabOf(index, level).copy(target, at, 32 * index, 32 * index + 32);
  }

  private computedDepth(index: number, level: number): number {
    if (this.kind[index] === KIND_EAGER) return this.eager.get(index)!.depth(level);
    return level > 0 && this.mask[index] !== 0 ? this.depth1[index]! : this.depth0[index]!;
  }

  /** Computes cell `index` and every uncomputed lazy cell below it, children first, with a stack of our own. */
  ensure(index: number): void {
    if (this.done[index] !== 0 || this.kind[index] === KIND_EAGER) return;
    const { refCounts, refIndex } = this.layout;
    // A cell is pushed once for each parent that finds it uncomputed: at most one push per
    // reference, four a cell. One stack for every BoC of the thread (no call here is reentrant).
    let stack = pendingCells;
    let top = 0;
    stack[top++] = index;
    while (top > 0) {
      if (top + 4 > stack.length) {
        const larger = new Int32Array(stack.length * 2);
        larger.set(stack);
        stack = pendingCells = larger;
      }
      const cell = stack[top - 1]!;
      if (this.done[cell] !== 0) {
        top--;
        continue;
      }
      let waiting = false;
      for (let r = 0; r < refCounts[cell]!; r++) {
        const child = refIndex[cell * 4 + r]!;
        if (this.done[child] === 0 && this.kind[child] !== KIND_EAGER) {
          stack[top++] = child;
          waiting = true;
        }
      }
      if (waiting) continue;
      this.compute(cell);
      this.done[cell] = 1;
      top--;
    }
  }

  /** Cell `index`'s hashes and depths, its children's being computed. */
  private compute(index: number): void {
    const { boc, dataAt, d2s, refCounts } = this.layout;
    const start = dataAt[index]!;
    const slot = 32 * index;
    switch (this.kind[index]) {
      case KIND_PRUNED:
        // Level 0: the pruned subtree's hash and depth, as stored; level 1: its own representation's.
        boc.copy(this.slab0, slot, start + 2, start + 34);
        this.depth0[index] = boc.readUInt16BE(start + 34);
        REPR_SCRATCH[0] = 8 + 32;
        REPR_SCRATCH[1] = 72;
        boc.copy(REPR_SCRATCH, 2, start, start + 36);
        this.levelSlab().write(SCRATCH.hashLatin1(38), slot, 32, 'latin1');
        this.depth1[index] = 0;
        return;
      case KIND_MERKLE_UPDATE: {
        // Its one level (0): its data, then its refs' depths and hashes at level 1.
        const length = this.writeRepr(index, 2 + 8, d2s[index]!, boc, start, (d2s[index]! + 1) >> 1, 1);
        this.slab0.write(SCRATCH.hashLatin1(length), slot, 32, 'latin1');
        this.depth0[index] = this.reprDepth;
        return;
      }
      default: {
        const refCount = refCounts[index]!;
        const d2 = d2s[index]!;
        const length = this.writeRepr(index, refCount, d2, boc, start, (d2 + 1) >> 1, 0);
        this.slab0.write(SCRATCH.hashLatin1(length), slot, 32, 'latin1');
        this.depth0[index] = this.reprDepth;
        if (this.mask[index] === 0) return;
        // Level 1: the level mask's bit in the descriptor, the level-0 hash in place of the data.
        const slab1 = this.levelSlab();
        const above = this.writeRepr(index, refCount + 32, d2, this.slab0, slot, 32, 1);
        slab1.write(SCRATCH.hashLatin1(above), slot, 32, 'latin1');
        this.depth1[index] = this.reprDepth;
      }
    }
  }

  /** The depth writeRepr found (returned apart: no object per call). */
  private reprDepth = 0;

  /**
   * Writes a representation into the scratch memory: descriptors `d1` and `d2`, `length` bytes of
   * `body` from `from`, then the refs' depths and hashes at `childLevel`; returns its length.
   */
  private writeRepr(index: number, d1: number, d2: number, body: Buffer, from: number, length: number, childLevel: number): number {
    const { refCounts, refIndex } = this.layout;
    const refCount = refCounts[index]!;
    REPR_SCRATCH[0] = d1;
    REPR_SCRATCH[1] = d2;
    body.copy(REPR_SCRATCH, 2, from, from + length);
    let at = 2 + length;
    let depth = 0;
    for (let r = 0; r < refCount; r++) {
      const d = this.computedDepth(refIndex[index * 4 + r]!, childLevel);
      if (d > depth) depth = d;
      REPR_SCRATCH[at++] = d >> 8;
      REPR_SCRATCH[at++] = d & 0xff;
    }
    for (let r = 0; r < refCount; r++) {
      this.copyComputedHash(refIndex[index * 4 + r]!, childLevel, REPR_SCRATCH, at);
      at += 32;
    }
    this.reprDepth = refCount > 0 ? depth + 1 : 0;
    return at;
  }
}

/** What every lazy cell answers from its BoC's arrays: bits, level mask, hashes and depths. */
abstract class LazyCell {
  constructor(
    protected readonly owner: LazyBoc,
    protected readonly index: number,
  ) {}

  get bits(): BitString {
    const { boc, dataAt, bitLength } = this.owner.layout;
    return leanBitString(boc, dataAt[this.index]! * 8, bitLength[this.index]!);
  }

  get mask(): Cell['mask'] {
    return LEVEL_MASKS[this.owner.mask[this.index]!]!;
  }

  hash(level = 3): Buffer {
    return this.owner.hash(this.index, level);
  }

  depth(level = 3): number {
    return this.owner.depth(this.index, level);
  }

  /** The level of a mask of 0 or 1 (the only ones a lazy cell has) is the mask. */
  level(): number {
    return this.owner.mask[this.index]!;
  }

  equals(other: Cell): boolean {
    return this.hash().equals(other.hash());
  }
}

/** An ordinary cell of level mask 0 or 1 whose hashes wait for the first ask. */
class LazyOrdinaryCell extends LazyCell {
  constructor(
    owner: LazyBoc,
    index: number,
    private readonly r0: Cell | undefined,
    private readonly r1: Cell | undefined,
    private readonly r2: Cell | undefined,
    private readonly r3: Cell | undefined,
  ) {
    super(owner, index);
  }

  get refs(): Cell[] {
    return refsArray(this.owner.layout.refCounts[this.index]!, this.r0, this.r1, this.r2, this.r3);
  }

  beginParse(): Slice {
    return new Slice(new BitReader(this.bits), this.refs);
  }
}

/** An exotic cell (a level-1 pruned branch, a Merkle update) whose hashes wait for the first ask. */
class LazyExoticCell extends LazyCell {
  constructor(
    readonly type: CellType,
    owner: LazyBoc,
    index: number,
    readonly refs: Cell[],
  ) {
    super(owner, index);
  }

  beginParse(allowExotic = false): Slice {
    if (!allowExotic) throw new Error('Exotic cells cannot be parsed');
    return new Slice(new BitReader(this.bits), this.refs);
  }
}

const INSPECT = Symbol.for('nodejs.util.inspect.custom');
// Chained to Cell.prototype: `instanceof Cell` and Cell's own methods (toBoc, asSlice, ...) hold.
Object.setPrototypeOf(LazyCell.prototype, Cell.prototype);
Object.defineProperty(LazyCell.prototype, INSPECT, { value: inspectAsString });
Object.defineProperty(LazyOrdinaryCell.prototype, 'type', { value: CellType.Ordinary });

/**
 * The roots of a BoC whose bytes are already authenticated (a block checked by its file hash),
 * with hashes computed when first asked (see above). A BoC this decoder does not read goes to
 * decodeBocFast, which hashes at once or says what is wrong.
 */
export function decodeAuthenticatedBoc(source: Buffer): Cell[] {
  const layout = readBocLayout(source);
  if (!layout) return decodeBocFast(source);
  const { boc, cellCount, roots, dataAt, bitLength, d2s, exotic, refCounts, refIndex } = layout;
  const owner = new LazyBoc(layout);
  const { kind, mask } = owner;
  const built = new Array<Cell>(cellCount);
  for (let i = cellCount - 1; i >= 0; i--) {
    const refCount = refCounts[i]!;
    const base = i * 4;
    let childMask = 0;
    for (let r = 0; r < refCount; r++) childMask |= mask[refIndex[base + r]!]!;
    const start = dataAt[i]!;
    if (exotic[i] === 0) {
      if (childMask <= 1) {
        mask[i] = childMask;
        built[i] = new LazyOrdinaryCell(
          owner,
          i,
          refCount > 0 ? built[refIndex[base]!] : undefined,
          refCount > 1 ? built[refIndex[base + 1]!] : undefined,
          refCount > 2 ? built[refIndex[base + 2]!] : undefined,
          refCount > 3 ? built[refIndex[base + 3]!] : undefined,
        ) as unknown as Cell;
        continue;
      }
    } else if (refCount === 0 && bitLength[i] === PRUNED_BITS && boc[start] === 1 && boc[start + 1] === 1) {
      kind[i] = KIND_PRUNED;
      mask[i] = 1;
      built[i] = new LazyExoticCell(CellType.PrunedBranch, owner, i, NO_REFS) as unknown as Cell;
      continue;
    } else if (refCount === 2 && bitLength[i] === MERKLE_UPDATE_BITS && boc[start] === 4 && childMask <= 1) {
      kind[i] = KIND_MERKLE_UPDATE;
      mask[i] = 0;
      const refs = Object.freeze([built[refIndex[base]!]!, built[refIndex[base + 1]!]!]) as Cell[];
      built[i] = new LazyExoticCell(CellType.MerkleUpdate, owner, i, refs) as unknown as Cell;
      continue;
    }
    // Anything else as decodeBocFast builds it, hashed now (its lazy refs with it).
    kind[i] = KIND_EAGER;
    const cellRefs: Cell[] = new Array<Cell>(refCount);
    for (let r = 0; r < refCount; r++) cellRefs[r] = built[refIndex[base + r]!]!;
    const bits = leanBitString(boc, start * 8, bitLength[i]!);
    const cell = exotic[i] ? new Cell({ exotic: true, bits, refs: cellRefs }) : leanOrdinaryCell(boc, start, d2s[i]!, bits, cellRefs);
    built[i] = cell;
    owner.eager.set(i, cell);
    mask[i] = cell.mask.value;
  }
  return roots.map((root) => built[root]!);
}
