import { Cell } from '@ton/core';
import { crc32cValue } from './crc32c';
import { leanBitString, leanOrdinaryCell, leanPrunedCell } from './leanCell';

/** @ton/core's serialization module: the object whose `deserializeBoc` Cell.fromBoc reads at each call. */
export interface SerializationModule {
  deserializeBoc(boc: Buffer): Cell[];
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the module object is what Cell.fromBoc reads (useLeanCells.ts replaces its export)
export const serialization = require('@ton/core/dist/boc/cell/serialization') as SerializationModule;
/** @ton/core's own decoder, kept before useLeanCells() points Cell.fromBoc at decodeBocFast. */
export const coreDeserializeBoc = serialization.deserializeBoc;

/**
 * The roots of a BoC, decoded with byte reads. @ton/core's decoder reads every header field and
 * cell descriptor through a BitReader (bit arithmetic per field) and checks the CRC-32C bit by
 * bit; for a block of tens of thousands of cells that was a third of decoding it (measured with
 * --cpu-prof while indexing). Ordinary cells are lean ones (leanCell.ts: the same hashes, levels
 * and answers as @ton/core's, in fewer heap objects); exotic ones are built by @ton/core's Cell
 * constructor (its exotic checks). Anything this decoder does not take as is (the other magics,
 * cells with stored hashes, a layout it finds inconsistent) goes to @ton/core's decoder, which
 * decodes it or says what is wrong.
 */
export function decodeBocFast(boc: Buffer): Cell[] {
  return tryDecode(boc) ?? coreDeserializeBoc(boc);
}

const GENERIC_MAGIC = 0xb5ee9c72;

/**
 * The layout of a BoC read with byte reads and checked (header bounds, CRC-32C, every reference
 * pointing forward): per cell, typed arrays rather than an object or array each. The one reader
 * of the BoC format's header and descriptors for both decoders of this folder.
 */
export interface BocLayout {
  /** The BoC the cells' bits are views of (a copy of the source when that was a small part of a larger allocation). */
  readonly boc: Buffer;
  readonly cellCount: number;
  /** Indexes of the root cells. */
  readonly roots: readonly number[];
  /** Where each cell's data begins in `boc`. */
  readonly dataAt: Int32Array;
  readonly bitLength: Int16Array;
  /** Each cell's second descriptor byte (its data length). */
  readonly d2s: Uint8Array;
  readonly exotic: Uint8Array;
  readonly refCounts: Uint8Array;
  /** Cell i's refs at i * 4 .. i * 4 + refCounts[i] - 1; each greater than i. */
  readonly refIndex: Int32Array;
}

/** The layout of a generic BoC (b5ee9c72) without stored hashes; null for anything else or anything inconsistent. */
export function readBocLayout(source: Buffer): BocLayout | null {
  if (source.length < 6 || source.readUInt32BE(0) !== GENERIC_MAGIC) return null;
  // The cells' bits are views of the BoC: one that is a small part of a larger allocation (Node's
  // 8 KB pool holds every small Buffer.from(base64), as the chain's thread decodes the emulator's
  // answers) would keep all of it alive for as long as any of its cells lives. Decoded from a
  // copy of its own then.
  let boc = source;
  if (source.length * 2 < source.buffer.byteLength) {
    boc = Buffer.allocUnsafeSlow(source.length);
    source.copy(boc);
  }
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
  // Every cell takes at least its two descriptor bytes: a header that claims more cells than its
  // data could hold is refused here, before the per-cell arrays below are sized by it (a 21-byte
  // BoC claiming 16 million cells made 400 MB of them).
  if (cellCount * 2 > totalSize || rootCount > cellCount) return null;
  if (at + rootCount * size > boc.length) return null;
  const roots: number[] = [];
  for (let i = 0; i < rootCount; i++) {
    const root = read(size);
    if (root >= cellCount) return null;
    roots.push(root);
  }
  if (hasIndex) at += cellCount * offsetBytes;
  const dataStart = at;
  const end = dataStart + totalSize;
  if (end + (hasCrc ? 4 : 0) !== boc.length) return null;
  if (hasCrc && crc32cValue(boc.subarray(0, end)) !== boc.readUInt32LE(end)) return null;
  const dataAt = new Int32Array(cellCount);
  const bitLength = new Int16Array(cellCount);
  const d2s = new Uint8Array(cellCount);
  const exotic = new Uint8Array(cellCount);
  const refCounts = new Uint8Array(cellCount);
  const refIndex = new Int32Array(cellCount * 4);
  for (let i = 0; i < cellCount; i++) {
    if (at + 2 > end) return null;
    const d1 = boc[at]!;
    const d2 = boc[at + 1]!;
    at += 2;
    const refCount = d1 & 7;
    if (refCount > 4 || (d1 & 16) !== 0) return null;
    const dataBytes = Math.ceil(d2 / 2);
    if (at + dataBytes + refCount * size > end) return null;
    let length = dataBytes * 8;
    if (d2 % 2 === 1) {
      // The completion tag: the last 1 bit of the last byte ends the data.
      const last = boc[at + dataBytes - 1]!;
      if (last === 0) return null;
      length -= Math.log2(last & -last) + 1;
    }
    dataAt[i] = at;
    at += dataBytes;
    bitLength[i] = length;
    d2s[i] = d2;
    exotic[i] = (d1 & 8) !== 0 ? 1 : 0;
    refCounts[i] = refCount;
    for (let r = 0; r < refCount; r++) {
      const ref = read(size);
      // References point forward: cells are built from the last one up.
      if (ref <= i || ref >= cellCount) return null;
      refIndex[i * 4 + r] = ref;
    }
  }
  if (at !== end) return null;
  return { boc, cellCount, roots, dataAt, bitLength, d2s, exotic, refCounts, refIndex };
}

function tryDecode(source: Buffer): Cell[] | null {
  const layout = readBocLayout(source);
  if (!layout) return null;
  const { boc, cellCount, roots, dataAt, bitLength, d2s, exotic, refCounts, refIndex } = layout;
  const built: Cell[] = new Array<Cell>(cellCount);
  // Every level-0 hash of this BoC (a pruned branch's own) in one buffer (one allocation, not one per cell).
  const hashSlab = Buffer.allocUnsafeSlow(32 * cellCount);
  for (let i = cellCount - 1; i >= 0; i--) {
    const refCount = refCounts[i]!;
    const cellRefs: Cell[] = new Array<Cell>(refCount);
    for (let r = 0; r < refCount; r++) cellRefs[r] = built[refIndex[i * 4 + r]!]!;
    // The bits are a view of the BoC itself (its buffer is the cells' data), from the cell's first data bit.
    const bits = leanBitString(boc, dataAt[i]! * 8, bitLength[i]!);
    built[i] = exotic[i]
      ? (leanPrunedCell(boc, dataAt[i]!, bits, refCount, hashSlab, 32 * i) ?? new Cell({ exotic: true, bits, refs: cellRefs }))
      : leanOrdinaryCell(boc, dataAt[i]!, d2s[i]!, bits, cellRefs, hashSlab, 32 * i);
  }
  const out: Cell[] = [];
  for (const root of roots) {
    const cell = built[root];
    if (!cell) return null;
    out.push(cell);
  }
  return out;
}
