import { BitReader, BitString, Cell, CellType, Slice } from '@ton/core';
import { crc32cValue } from './crc32c';
import { nativeSha256 } from './nativeHashing';

interface LevelMaskModule {
  LevelMask: new (mask?: number) => Cell['mask'];
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- @ton/core does not export LevelMask from its index
const { LevelMask } = require('@ton/core/dist/boc/cell/LevelMask') as LevelMaskModule;

/** The level mask of every ordinary cell over level-0 refs (@ton/core's LevelMask is not changed after construction). */
const LEVEL_ZERO = new LevelMask(0);

/** The fields @ton/core's Cell constructor sets (hashes and depths per level). */
interface CellFields {
  _hashes: Buffer[];
  _depths: number[];
}

// The instance methods @ton/core's constructor makes as closures per cell, here shared and bound
// by the call (`cell.hash()`): for an ordinary cell of level 0 they answer the same.
function beginParseOrdinary(this: Cell): Slice {
  return new Slice(new BitReader(this.bits), this.refs);
}
function hashLevel0(this: CellFields): Buffer {
  return this._hashes[0]!;
}
function depthLevel0(this: CellFields): number {
  return this._depths[0]!;
}
function levelZero(): number {
  return 0;
}
function equalsByHash(this: Cell, other: Cell): boolean {
  return this.hash().equals(other.hash());
}
function inspectCell(this: Cell): string {
  return this.toString();
}
const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/**
 * An ordinary cell whose refs are all of level 0 (the bulk of a block), as @ton/core's Cell
 * constructor makes it, without its cost: the constructor makes six closures per cell, eight
 * LevelMask objects, a representation through a BitBuilder and four frozen copies, which with the
 * garbage collector after them was a third of decoding a block (--cpu-prof of the index). The
 * representation hashed is the cell's descriptors, its data bytes as the BoC holds them (already
 * padded with the completion tag), its refs' depths and hashes. Null when a ref has a level
 * (under a pruned branch): the constructor handles levels.
 */
function ordinaryCell(data: Buffer, d2: number, bits: BitString, refs: Cell[]): Cell | null {
  let depth = 0;
  for (const ref of refs) {
    if (ref.mask.value !== 0) return null;
    const d = ref.depth(0);
    if (d > depth) depth = d;
  }
  if (refs.length > 0) depth++;
  const repr = Buffer.allocUnsafe(2 + data.length + 34 * refs.length);
  repr[0] = refs.length;
  repr[1] = d2;
  data.copy(repr, 2);
  let at = 2 + data.length;
  for (const ref of refs) {
    const d = ref.depth(0);
    repr[at++] = d >> 8;
    repr[at++] = d & 0xff;
  }
  for (const ref of refs) {
    ref.hash(0).copy(repr, at);
    at += 32;
  }
  const cell = Object.create(Cell.prototype) as Record<string | symbol, unknown>;
  // The constructor's order of fields.
  cell['_hashes'] = [nativeSha256(repr)];
  cell['_depths'] = [depth];
  cell['beginParse'] = beginParseOrdinary;
  cell['hash'] = hashLevel0;
  cell['depth'] = depthLevel0;
  cell['level'] = levelZero;
  cell['equals'] = equalsByHash;
  cell[INSPECT] = inspectCell;
  cell['type'] = CellType.Ordinary;
  cell['bits'] = bits;
  cell['refs'] = refs;
  cell['mask'] = LEVEL_ZERO;
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
    built[i] = (!exotic[i] && ordinaryCell(datas[i]!, d2s[i]!, bits[i]!, cellRefs)) || new Cell({ exotic: exotic[i]!, bits: bits[i]!, refs: cellRefs });
  }
  const out: Cell[] = [];
  for (const root of roots) {
    const cell = built[root];
    if (!cell) return null;
    out.push(cell);
  }
  return out;
}
