import { BitReader, BitString, Cell, CellType, Slice } from '@ton/core';
import { bitStringFields } from './bitRead';
import { fastPaddedBits, nativeSha256, sha256Latin1 } from './nativeHashing';

interface LevelMaskModule {
  LevelMask: new (mask?: number) => Cell['mask'];
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- @ton/core does not export LevelMask from its index
const { LevelMask } = require('@ton/core/dist/boc/cell/LevelMask') as LevelMaskModule;

/** Level masks by value (@ton/core's LevelMask is not changed after construction). */
export const LEVEL_MASKS: readonly Cell['mask'][] = Array.from({ length: 8 }, (_, mask) => new LevelMask(mask));

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/** The refs of every leaf: one frozen array (@ton/core freezes a cell's refs as well). */
export const NO_REFS: Cell[] = Object.freeze([] as Cell[]) as Cell[];

/**
 * An ordinary cell with @ton/core's fields and answers, held in as few heap objects as it takes.
 * @ton/core's constructor gives every cell six closures of its own (beginParse, hash, depth,
 * level, equals, inspect) over a context, frozen arrays of hashes and depths and, through its
 * BitString, a seventh closure; a saved chain's states are about a million such cells, which the
 * chain's thread keeps for as long as it runs: most of its heap, and what its collector walks at
 * every full collection. Here the methods live on the prototype (chained to Cell.prototype, so
 * `instanceof Cell` and Cell's own methods hold) and the fields sit inside the object. This class
 * holds the cells that have a level (above a pruned branch: a block's state update, a proof's
 * copies), with a hash and depth per level; a level-0 cell is a CompactCell (below).
 */
class LeanCell {
  readonly type = CellType.Ordinary;

  constructor(
    readonly bits: BitString,
    readonly refs: Cell[],
    readonly mask: Cell['mask'],
    /** A level-0 cell's hash, or its hashes at levels 0-3 (a cell above a pruned branch). */
    protected readonly hashes: Buffer | readonly Buffer[],
    private readonly depths: number | readonly number[],
  ) {}

  hash(level = 3): Buffer {
    const hashes = this.hashes;
    return Buffer.isBuffer(hashes) ? hashes : hashes[Math.min(hashes.length - 1, level)]!;
  }

  /** Copies its hash at `level` into `target` at `at`. */
  copyHash(level: number, target: Buffer, at: number): void {
    this.hash(level).copy(target, at);
  }

  depth(level = 3): number {
    const depths = this.depths;
    return typeof depths === 'number' ? depths : depths[Math.min(depths.length - 1, level)]!;
  }

  level(): number {
    return this.mask.level;
  }

  equals(other: Cell): boolean {
    return this.hash().equals(other.hash());
  }

  beginParse(): Slice {
    return new Slice(new BitReader(this.bits), this.refs);
  }
}

/** A cell's refs kept in four fields, as the array @ton/core's cells have (made when asked). */
export function refsArray(count: number, r0: Cell | undefined, r1: Cell | undefined, r2: Cell | undefined, r3: Cell | undefined): Cell[] {
  switch (count) {
    case 0:
      return NO_REFS;
    case 1:
      return [r0!];
    case 2:
      return [r0!, r1!];
    case 3:
      return [r0!, r1!, r2!];
    default:
      return [r0!, r1!, r2!, r3!];
  }
}

/**
 * A level-0 ordinary cell in one heap object: its bits as the buffer, first bit and length they
 * are read from (the BoC it was decoded from, or its builder's buffer), its refs in four fields,
 * its depth, and its hash as 32 bytes of a buffer (a decoded BoC's one slab of hashes, or a buffer
 * of its own). `bits` and `refs` are made when asked, as small short-lived objects. The local
 * chain's thread keeps every state it has sealed: ~1.2 million cells for the index bench's chain,
 * which as a cell with a BitString, a refs array and its elements were ~4.7 million of the ~9.5
 * million objects its collector marks at every full collection (a heap snapshot), the pause that
 * decided the index's live p99 (docs/benchmarks.md, "The index").
 */
class CompactCell {
  constructor(
    private readonly data: Buffer,
    private readonly bitStart: number,
    private readonly bitLength: number,
    private readonly r0: Cell | undefined,
    private readonly r1: Cell | undefined,
    private readonly r2: Cell | undefined,
    private readonly r3: Cell | undefined,
    private readonly refCount: number,
    private readonly cellDepth: number,
    private readonly hashSource: Buffer,
    private readonly hashAt: number,
  ) {}

  get bits(): BitString {
    return new LeanBitString(this.bitLength, this.data, this.bitStart) as unknown as BitString;
  }

  get refs(): Cell[] {
    return refsArray(this.refCount, this.r0, this.r1, this.r2, this.r3);
  }

  hash(): Buffer {
    const source = this.hashSource;
    return this.hashAt === 0 && source.length === 32 ? source : source.subarray(this.hashAt, this.hashAt + 32);
  }

  copyHash(_level: number, target: Buffer, at: number): void {
    this.hashSource.copy(target, at, this.hashAt, this.hashAt + 32);
  }

  depth(): number {
    return this.cellDepth;
  }

  level(): number {
    return 0;
  }

  equals(other: Cell): boolean {
    return this.hash().equals(other.hash());
  }

  beginParse(): Slice {
    return new Slice(new BitReader(this.bits), this.refs);
  }
}

/**
 * A level-1 pruned branch (type 1, level mask 1, no refs, 288 bits: what a block's state update
 * and a lite server's proofs hold where they leave a subtree out) with the fields and answers
 * @ton/core's constructor gives it: at level 0 the hash and depth it stores (the subtree's), at
 * levels 1-3 the hash of its own representation and depth 0; `beginParse()` refuses it as an
 * exotic cell, `beginParse(true)` reads it. That constructor parses it through a BitReader into
 * BigInts, LevelMasks and frozen arrays (~12 µs and ~6 KB of garbage a cell, against ~3.5 µs for
 * an ordinary lean cell): a block of the jetton bench carries ~470 of them.
 */
class LeanPrunedCell {
  readonly type = CellType.PrunedBranch;
  readonly refs = NO_REFS;
  readonly mask = LEVEL_MASKS[1]!;
  private stored: Buffer | null = null;
  private own: Buffer | null = null;

  constructor(
    readonly bits: BitString,
    /** The BoC and where the cell's data begins in it (type, mask, hash, depth). */
    private readonly source: Buffer,
    private readonly start: number,
    /** Its own hash (level 1) in the BoC's slab of hashes. */
    private readonly slab: Buffer,
    private readonly slot: number,
  ) {}

  hash(level = 3): Buffer {
    if (level === 0) return (this.stored ??= this.source.subarray(this.start + 2, this.start + 34));
    return (this.own ??= this.slab.subarray(this.slot, this.slot + 32));
  }

  copyHash(level: number, target: Buffer, at: number): void {
    if (level === 0) this.source.copy(target, at, this.start + 2, this.start + 34);
    else this.slab.copy(target, at, this.slot, this.slot + 32);
  }

  depth(level = 3): number {
    return level === 0 ? this.source.readUInt16BE(this.start + 34) : 0;
  }

  level(): number {
    return 1;
  }

  equals(other: Cell): boolean {
    return this.hash().equals(other.hash());
  }

  beginParse(allowExotic = false): Slice {
    if (!allowExotic) throw new Error('Exotic cells cannot be parsed');
    return new Slice(new BitReader(this.bits), this.refs);
  }
}

/** As @ton/core's BitString (the same fields, in its order), without its per-instance inspect closure. */
class LeanBitString {
  constructor(
    readonly _length: number,
    readonly _data: Buffer,
    readonly _offset: number,
  ) {}
}

export function inspectAsString(this: { toString(): string }): string {
  return this.toString();
}

Object.setPrototypeOf(LeanCell.prototype, Cell.prototype);
Object.setPrototypeOf(CompactCell.prototype, Cell.prototype);
// The fields every compact cell shares, on its prototype (not one slot each).
Object.defineProperty(CompactCell.prototype, 'type', { value: CellType.Ordinary });
Object.defineProperty(CompactCell.prototype, 'mask', { value: LEVEL_MASKS[0] });
Object.defineProperty(CompactCell.prototype, INSPECT, { value: inspectAsString });
Object.setPrototypeOf(LeanPrunedCell.prototype, Cell.prototype);
Object.setPrototypeOf(LeanBitString.prototype, BitString.prototype);
Object.defineProperty(LeanCell.prototype, INSPECT, { value: inspectAsString });
Object.defineProperty(LeanPrunedCell.prototype, INSPECT, { value: inspectAsString });
Object.defineProperty(LeanBitString.prototype, INSPECT, { value: inspectAsString });

/** A @ton/core BitString (by prototype) of `length` bits of `data` from bit `offset`; `data` must not change after. */
export function leanBitString(data: Buffer, offset: number, length: number): BitString {
  return new LeanBitString(length, data, offset) as unknown as BitString;
}

/** The longest representation a cell's hash takes: 2 descriptor bytes, 128 data bytes, 4 refs' depths and hashes. */
const MAX_REPR = 2 + 128 + 4 * 34;
/**
 * A scratch memory for cell representations, with views of its first n bytes by n: a cell's
 * representation is written there and hashed through the view of its length, with no buffer made
 * per cell (decoding a block makes hundreds of thousands of cells, and their garbage was the
 * largest part of the index thread's collector's work after the cells themselves: --heap-prof of
 * the jetton ingest). Each hashing scheme has its own: lazyCells.ts computes a cell's hash when a
 * cell built here reads its depth, in the middle of writing this one's.
 */
export class ReprScratch {
  readonly bytes: Buffer;
  private readonly views: readonly Buffer[];

  constructor() {
    const memory = new ArrayBuffer(MAX_REPR);
    this.views = Array.from({ length: MAX_REPR + 1 }, (_, n) => Buffer.from(memory, 0, n));
    this.bytes = this.views[MAX_REPR]!;
  }

  /** SHA-256 of the first `length` bytes as 32 latin1 characters (for a slab's `write`). */
  hashLatin1(length: number): string {
    return sha256Latin1(this.views[length]!);
  }

  /** SHA-256 of the first `length` bytes, as a buffer of its own memory. */
  hash(length: number): Buffer {
    return nativeSha256(this.views[length]!);
  }
}

const SCRATCH = new ReprScratch();
const REPR = SCRATCH.bytes;
/** The depth of the representation writeRepr wrote last (returned apart: no object per call). */
let reprDepth = 0;

/** Copies `cell`'s hash at `level` into `target` at `at` (a hash still in its BoC's slab is copied from there, no buffer made). */
export function copyHash(cell: Cell, level: number, target: Buffer, at: number): void {
  if (cell instanceof CompactCell || cell instanceof LeanCell || cell instanceof LeanPrunedCell) cell.copyHash(level, target, at);
  else cell.hash(level).copy(target, at);
}

/**
 * Writes the representation of an ordinary cell at level `level` into the scratch memory and
 * returns its length: its descriptors (refs and the level mask cut to `level`; the data length
 * `d2`), `length` bytes of `body` from `start` (its data bytes padded with the completion tag at
 * its first level; the hash of the level below after), its refs' depths and hashes at `level`.
 * Its depth at that level is left in `reprDepth`.
 */
function writeRepr(refs: readonly Cell[], mask: number, level: number, d2: number, body: Buffer, start: number, length: number): number {
  REPR[0] = refs.length + 32 * (mask & ((1 << level) - 1));
  REPR[1] = d2;
  body.copy(REPR, 2, start, start + length);
  let at = 2 + length;
  let depth = 0;
  for (const ref of refs) {
    const d = ref.depth(level);
    if (d > depth) depth = d;
    REPR[at++] = d >> 8;
    REPR[at++] = d & 0xff;
  }
  for (const ref of refs) {
    copyHash(ref, level, REPR, at);
    at += 32;
  }
  reprDepth = refs.length > 0 ? depth + 1 : 0;
  return at;
}

function bitCount(n: number): number {
  let count = 0;
  for (let m = n; m !== 0; m &= m - 1) count++;
  return count;
}

/**
 * SHA-256 of the scratch memory's first `length` bytes, as a buffer of its own memory (not a slice
 * of Node's shared 8 KB pool, which a long-lived cell of the chain's thread would keep whole).
 */
function reprHash(length: number): Buffer {
  return SCRATCH.hash(length);
}

/**
 * An ordinary cell as @ton/core's Cell constructor makes it (the same hashes and depths at every
 * level), without its cost: the constructor makes six closures per cell, a LevelMask per level
 * asked, a representation through a BitBuilder and four frozen copies (with the collector after
 * them, most of decoding a block: --cpu-prof of the index), and its cell is ~2x the heap of a
 * lean one. Its data bytes padded with the completion tag are `body`'s from `start` (ceil(d2 / 2)
 * of them), `d2` its second descriptor byte (the data length); a cell with a level keeps `refs`
 * as given (the caller must not change it after), a level-0 one copies them into its fields. `bits`
 * must not change after. A level-0 cell's hash is written into `slab` at `slot` when given
 * (one buffer for a whole BoC, as its bits are views of the BoC itself) instead of a buffer of its
 * own. A cell above a pruned branch (a block's state update) has a level: a hash per significant
 * level, each over the hash of the level below, as the constructor computes them.
 */
export function leanOrdinaryCell(body: Buffer, start: number, d2: number, bits: BitString, refs: Cell[], slab?: Buffer, slot = 0): Cell {
  let mask = 0;
  for (const ref of refs) mask |= ref.mask.value;
  const dataBytes = (d2 + 1) >> 1;
  if (mask === 0) {
    const length = writeRepr(refs, 0, 0, d2, body, start, dataBytes);
    const { _data: data, _offset: bitStart, _length: bitLength } = bitStringFields(bits);
    if (slab) slab.write(SCRATCH.hashLatin1(length), slot, 32, 'latin1');
    const hashSource = slab ?? reprHash(length);
    return new CompactCell(data, bitStart, bitLength, refs[0], refs[1], refs[2], refs[3], refs.length, reprDepth, hashSource, slab ? slot : 0) as unknown as Cell;
  }
  const own: Buffer[] = [];
  const ownDepths: number[] = [];
  const top = 32 - Math.clz32(mask);
  for (let level = 0; level <= top; level++) {
    if (level !== 0 && ((mask >> (level - 1)) & 1) === 0) continue;
    const length = own.length === 0 ? writeRepr(refs, mask, level, d2, body, start, dataBytes) : writeRepr(refs, mask, level, d2, own[own.length - 1]!, 0, 32);
    own.push(reprHash(length));
    ownDepths.push(reprDepth);
  }
  const hashes: Buffer[] = [];
  const depths: number[] = [];
  for (let level = 0; level < 4; level++) {
    const index = bitCount(mask & ((1 << level) - 1));
    hashes.push(own[index]!);
    depths.push(ownDepths[index]!);
  }
  return new LeanCell(bits, refs, LEVEL_MASKS[mask]!, hashes, depths) as unknown as Cell;
}

/** Bits of a level-1 pruned branch: type and mask bytes, one hash and one depth. */
const PRUNED_LEVEL1_BITS = 16 + 256 + 16;

/**
 * A pruned branch of level 1 decoded from `source` (its data from byte `start`, `bits` of it) as
 * @ton/core's constructor makes it, its own hash written into `slab` at `slot`; undefined for any
 * other exotic cell (@ton/core's constructor checks and builds those).
 */
export function leanPrunedCell(source: Buffer, start: number, bits: BitString, refCount: number, slab: Buffer, slot: number): Cell | undefined {
  if (refCount !== 0 || bits.length !== PRUNED_LEVEL1_BITS || source[start] !== 1 || source[start + 1] !== 1) return undefined;
  // Its representation at level 1: refs descriptor 8 (exotic) + 32 (mask 1), bits descriptor 72 (36 whole bytes), the data.
  REPR[0] = 8 + 32;
  REPR[1] = 72;
  source.copy(REPR, 2, start, start + 36);
  slab.write(SCRATCH.hashLatin1(38), slot, 32, 'latin1');
  return new LeanPrunedCell(bits, source, start, slab, slot) as unknown as Cell;
}

/** An ordinary cell of `bits` and `refs` (a builder's, a proof's copy), hashed as @ton/core hashes it; `refs` must not change after. */
export function leanCellOf(bits: BitString, refs: Cell[]): Cell {
  const length = bits.length;
  return leanOrdinaryCell(fastPaddedBits(bits), 0, Math.floor(length / 8) + Math.ceil(length / 8), bits, refs);
}

/** Bytes of a level-1 pruned branch's data: type 1, level mask 1, the pruned cell's hash (32) and depth (2). */
export const PRUNED_DATA_BYTES = 36;

/** Writes the data of the level-1 pruned branch standing for level-0 `cell` into `target` from byte 0. */
export function writePrunedData(cell: Cell, target: Buffer): void {
  target[0] = 1;
  target[1] = 1;
  cell.hash(0).copy(target, 2);
  target.writeUInt16BE(cell.depth(0), 34);
}
