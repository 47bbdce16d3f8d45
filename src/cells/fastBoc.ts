import { BitReader, BitString, Cell, CellType, Slice } from '@ton/core';
import { crc32cValue } from './crc32c';
import { nativeSha256 } from './nativeHashing';

interface LevelMaskModule {
  LevelMask: new (mask?: number) => Cell['mask'];
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- @ton/core does not export LevelMask from its index
const { LevelMask } = require('@ton/core/dist/boc/cell/LevelMask') as LevelMaskModule;

/** Level masks by value (@ton/core's LevelMask is not changed after construction). */
const LEVEL_MASKS = Array.from({ length: 8 }, (_, mask) => new LevelMask(mask));

/** The fields @ton/core's Cell constructor sets (hashes and depths per level). */
interface CellFields {
  _hashes: Buffer[];
  _depths: number[];
  mask: Cell['mask'];
}

// The instance methods @ton/core's constructor makes as closures per cell, here shared and bound
// by the call (`cell.hash()`), answering as those do.
function beginParseOrdinary(this: Cell): Slice {
  return new Slice(new BitReader(this.bits), this.refs);
}
function hashAt(this: CellFields, level = 3): Buffer {
  return this._hashes[Math.min(this._hashes.length - 1, level)]!;
}
function depthAt(this: CellFields, level = 3): number {
  return this._depths[Math.min(this._depths.length - 1, level)]!;
}
function levelOf(this: CellFields): number {
  return this.mask.level;
}
function equalsByHash(this: Cell, other: Cell): boolean {
  return this.hash().equals(other.hash());
}
function inspectCell(this: Cell): string {
  return this.toString();
}
const INSPECT = Symbol.for('nodejs.util.inspect.custom');

function bitCount(n: number): number {
  let count = 0;
  for (let m = n; m !== 0; m &= m - 1) count++;
  return count;
}

/**
 * The hash of an ordinary cell at level `level`: SHA-256 of its descriptors (refs and the level
 * mask cut to `level`; the data length), `body` (its data bytes as the BoC holds them, already
 * padded with the completion tag, at its first level; the hash of the level below after), its
 * refs' depths and hashes at `level`. Also returns the cell's depth at that level.
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

/**
 * An ordinary cell as @ton/core's Cell constructor makes it (the same hashes and depths at every
 * level), without its cost: the constructor makes six closures per cell, a LevelMask per level
 * asked, a representation through a BitBuilder and four frozen copies, which with the garbage
 * collector after them was most of decoding a block (--cpu-prof of the index). A cell above a
 * pruned branch (a block's state update) has a level: a hash per significant level, each over
 * the hash of the level below, as the constructor computes them.
 */
function ordinaryCell(data: Buffer, d2: number, bits: BitString, refs: Cell[]): Cell {
  let mask = 0;
  for (const ref of refs) mask |= ref.mask.value;
  let hashes: Buffer[];
  let depths: number[];
  if (mask === 0) {
    const { hash, depth } = levelHash(refs, 0, 0, d2, data);
    hashes = [hash];
    depths = [depth];
  } else {
    const own: Buffer[] = [];
    const ownDepths: number[] = [];
    const top = 32 - Math.clz32(mask);
    for (let level = 0; level <= top; level++) {
      if (level !== 0 && ((mask >> (level - 1)) & 1) === 0) continue;
      const { hash, depth } = levelHash(refs, mask, level, d2, own.length === 0 ? data : own[own.length - 1]!);
      own.push(hash);
      ownDepths.push(depth);
    }
    hashes = [];
    depths = [];
    for (let level = 0; level < 4; level++) {
      const index = bitCount(mask & ((1 << level) - 1));
      hashes.push(own[index]!);
      depths.push(ownDepths[index]!);
    }
  }
  const cell = Object.create(Cell.prototype) as Record<string | symbol, unknown>;
  // The constructor's order of fields.
  cell['_hashes'] = hashes;
  cell['_depths'] = depths;
  cell['beginParse'] = beginParseOrdinary;
  cell['hash'] = hashAt;
  cell['depth'] = depthAt;
  cell['level'] = levelOf;
  cell['equals'] = equalsByHash;
  cell[INSPECT] = inspectCell;
  cell['type'] = CellType.Ordinary;
  cell['bits'] = bits;
  cell['refs'] = refs;
  cell['mask'] = LEVEL_MASKS[mask]!;
  return cell as unknown as Cell;
}

/**
 * The roots of a BoC, decoded with byte reads. @ton/core's decoder reads every header field and
 * cell descriptor through a BitReader (bit arithmetic per field) and checks the CRC-32C bit by
 * bit; for a block of tens of thousands of cells that was a third of decoding it (measured with
 * --cpu-prof while indexing). The cells are built by @ton/core's Cell constructor all the same
 * (hashes, levels and exotic checks are its own). Anything this decoder does not take as is (the
 * other magics, cells with stored hashes, a layout it finds inconsistent) goes to
 * `Cell.fromBoc`, which decodes it or says what is wrong.
 */
export function decodeBocFast(boc: Buffer): Cell[] {
  return tryDecode(boc) ?? Cell.fromBoc(boc);
}

const GENERIC_MAGIC = 0xb5ee9c72;

function tryDecode(boc: Buffer): Cell[] | null {
  if (boc.length < 6 || boc.readUInt32BE(0) !== GENERIC_MAGIC) return null;
  const flags = boc[4]!;
  const hasIndex = (flags & 0x80) !== 0;
  const hasCrc = (flags & 0x40) !== 0;
  const size = flags & 7;
  const offsetBytes = boc[5]!;
  if (size < 1 || size > 4 || offsetBytes < 1 || offsetBytes > 8) return null;
  let at = 6;
  const read = (bytes: number): number => {
    let value = 0;
    for (let i = 0; i < bytes; i++) value = value * 256 + boc[at++]!;
    return value;
  };
  if (at + 3 * size + offsetBytes > boc.length) return null;
  const cellCount = read(size);
  const rootCount = read(size);
  read(size); // absent
  const totalSize = read(offsetBytes);
  if (at + rootCount * size > boc.length) return null;
  const roots: number[] = [];
  for (let i = 0; i < rootCount; i++) roots.push(read(size));
  if (hasIndex) at += cellCount * offsetBytes;
  const dataStart = at;
  const end = dataStart + totalSize;
  if (end + (hasCrc ? 4 : 0) !== boc.length) return null;
  if (hasCrc && crc32cValue(boc.subarray(0, end)) !== boc.readUInt32LE(end)) return null;
  const bits: BitString[] = new Array<BitString>(cellCount);
  const datas: Buffer[] = new Array<Buffer>(cellCount);
  const d2s: number[] = new Array<number>(cellCount);
  const exotic: boolean[] = new Array<boolean>(cellCount);
  const refs: number[][] = new Array<number[]>(cellCount);
  for (let i = 0; i < cellCount; i++) {
    if (at + 2 > end) return null;
    const d1 = boc[at]!;
    const d2 = boc[at + 1]!;
    at += 2;
    const refCount = d1 & 7;
    if (refCount > 4 || (d1 & 16) !== 0) return null;
    const dataBytes = Math.ceil(d2 / 2);
    if (at + dataBytes + refCount * size > end) return null;
    const data = boc.subarray(at, at + dataBytes);
    at += dataBytes;
    let length = dataBytes * 8;
    if (d2 % 2 === 1) {
      // The completion tag: the last 1 bit of the last byte ends the data.
      const last = data[dataBytes - 1]!;
      if (last === 0) return null;
      length -= Math.log2(last & -last) + 1;
    }
    bits[i] = new BitString(data, 0, length);
    datas[i] = data;
    d2s[i] = d2;
    exotic[i] = (d1 & 8) !== 0;
    const cellRefs: number[] = [];
    for (let r = 0; r < refCount; r++) {
      const ref = read(size);
      // References point forward: cells are built from the last one up.
      if (ref <= i || ref >= cellCount) return null;
      cellRefs.push(ref);
    }
    refs[i] = cellRefs;
  }
  if (at !== end) return null;
  const built: Cell[] = new Array<Cell>(cellCount);
  for (let i = cellCount - 1; i >= 0; i--) {
    const cellRefs = refs[i]!.map((r) => built[r]!);
    built[i] = exotic[i] ? new Cell({ exotic: true, bits: bits[i]!, refs: cellRefs }) : ordinaryCell(datas[i]!, d2s[i]!, bits[i]!, cellRefs);
  }
  const out: Cell[] = [];
  for (const root of roots) {
    const cell = built[root];
    if (!cell) return null;
    out.push(cell);
  }
  return out;
}
