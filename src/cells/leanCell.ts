import { BitReader, BitString, Cell, CellType, Slice } from '@ton/core';
import { nativeSha256 } from './nativeHashing';

interface LevelMaskModule {
  LevelMask: new (mask?: number) => Cell['mask'];
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- @ton/core does not export LevelMask from its index
const { LevelMask } = require('@ton/core/dist/boc/cell/LevelMask') as LevelMaskModule;

/** Level masks by value (@ton/core's LevelMask is not changed after construction). */
const LEVEL_MASKS: readonly Cell['mask'][] = Array.from({ length: 8 }, (_, mask) => new LevelMask(mask));

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/** The refs of every leaf: one frozen array (@ton/core freezes a cell's refs as well). */
const NO_REFS: Cell[] = Object.freeze([] as Cell[]) as Cell[];

/**
 * An ordinary cell with @ton/core's fields and answers, held in as few heap objects as it takes.
 * @ton/core's constructor gives every cell six closures of its own (beginParse, hash, depth,
 * level, equals, inspect) over a context, frozen arrays of hashes and depths and, through its
 * BitString, a seventh closure; a saved chain's states are about a million such cells, which the
 * chain's thread keeps for as long as it runs: most of its heap, and what its collector walks at
 * every full collection. Here the methods live on the prototype (chained to Cell.prototype, so
 * `instanceof Cell` and Cell's own methods hold), a level-0 cell keeps its one hash and depth as
 * they are, and the fields sit inside the object.
 */
class LeanCell {
  readonly type = CellType.Ordinary;

  constructor(
    readonly bits: BitString,
    readonly refs: Cell[],
    readonly mask: Cell['mask'],
    /** A level-0 cell's hash, or its hashes at levels 0-3 (a cell above a pruned branch). */
    private readonly hashes: Buffer | readonly Buffer[],
    private readonly depths: number | readonly number[],
  ) {}

  hash(level = 3): Buffer {
    const hashes = this.hashes;
    return Buffer.isBuffer(hashes) ? hashes : hashes[Math.min(hashes.length - 1, level)]!;
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

/** As @ton/core's BitString (the same fields, in its order), without its per-instance inspect closure. */
class LeanBitString {
  constructor(
    readonly _length: number,
    readonly _data: Buffer,
    readonly _offset: number,
  ) {}
}

function inspectAsString(this: { toString(): string }): string {
  return this.toString();
}

Object.setPrototypeOf(LeanCell.prototype, Cell.prototype);
Object.setPrototypeOf(LeanBitString.prototype, BitString.prototype);
Object.defineProperty(LeanCell.prototype, INSPECT, { value: inspectAsString });
Object.defineProperty(LeanBitString.prototype, INSPECT, { value: inspectAsString });

/** A @ton/core BitString (by prototype) of `length` bits of `data` from bit `offset`; `data` must not change after. */
export function leanBitString(data: Buffer, offset: number, length: number): BitString {
  return new LeanBitString(length, data, offset) as unknown as BitString;
}

/**
 * The hash of an ordinary cell at level `level`: SHA-256 of its descriptors (refs and the level
 * mask cut to `level`; the data length), `body` (its data bytes padded with the completion tag at
 * its first level; the hash of the level below after), its refs' depths and hashes at `level`.
 * Also returns the cell's depth at that level.
 */
function levelHash(refs: readonly Cell[], mask: number, level: number, d2: number, body: Buffer): { hash: Buffer; depth: number } {
  const repr = Buffer.allocUnsafe(2 + body.length + 34 * refs.length);
  repr[0] = refs.length + 32 * (mask & ((1 << level) - 1));
  repr[1] = d2;
  body.copy(repr, 2);
  let at = 2 + body.length;
  let depth = 0;
  for (const ref of refs) {
    const d = ref.depth(level);
    if (d > depth) depth = d;
    repr[at++] = d >> 8;
    repr[at++] = d & 0xff;
  }
  for (const ref of refs) {
    ref.hash(level).copy(repr, at);
    at += 32;
  }
  return { hash: nativeSha256(repr), depth: refs.length > 0 ? depth + 1 : 0 };
}

function bitCount(n: number): number {
  let count = 0;
  for (let m = n; m !== 0; m &= m - 1) count++;
  return count;
}

/**
 * An ordinary cell as @ton/core's Cell constructor makes it (the same hashes and depths at every
 * level), without its cost: the constructor makes six closures per cell, a LevelMask per level
 * asked, a representation through a BitBuilder and four frozen copies (with the collector after
 * them, most of decoding a block: --cpu-prof of the index), and its cell is ~2x the heap of a
 * lean one. `data` is the cell's data bytes padded with the completion tag, `d2` its second
 * descriptor byte (the data length), `refs` kept as given (the caller must not change it after).
 * A level-0 cell's hash is written into `hashSlot` when given (a slice of one buffer for a whole
 * BoC, as its bits are slices of the BoC itself) instead of a buffer of its own. A cell above a
 * pruned branch (a block's state update) has a level: a hash per significant level, each over the
 * hash of the level below, as the constructor computes them.
 */
export function leanOrdinaryCell(data: Buffer, d2: number, bits: BitString, refs: Cell[], hashSlot?: Buffer): Cell {
  let mask = 0;
  for (const ref of refs) mask |= ref.mask.value;
  if (mask === 0) {
    const { hash, depth } = levelHash(refs, 0, 0, d2, data);
    if (hashSlot) hash.copy(hashSlot);
    return new LeanCell(bits, refs.length === 0 ? NO_REFS : refs, LEVEL_MASKS[0]!, hashSlot ?? hash, depth) as unknown as Cell;
  }
  const own: Buffer[] = [];
  const ownDepths: number[] = [];
  const top = 32 - Math.clz32(mask);
  for (let level = 0; level <= top; level++) {
    if (level !== 0 && ((mask >> (level - 1)) & 1) === 0) continue;
    const { hash, depth } = levelHash(refs, mask, level, d2, own.length === 0 ? data : own[own.length - 1]!);
    own.push(hash);
    ownDepths.push(depth);
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
