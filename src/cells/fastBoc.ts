import { type BitString, Cell } from '@ton/core';
import { crc32cValue } from './crc32c';
import { leanBitString, leanOrdinaryCell } from './leanCell';

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

function tryDecode(source: Buffer): Cell[] | null {
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
    bits[i] = leanBitString(data, 0, length);
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
  // Every level-0 hash of this BoC in one buffer (one allocation, not one per cell).
  const hashSlab = Buffer.allocUnsafeSlow(32 * cellCount);
  for (let i = cellCount - 1; i >= 0; i--) {
    const cellRefs = refs[i]!.map((r) => built[r]!);
    built[i] = exotic[i]
      ? new Cell({ exotic: true, bits: bits[i]!, refs: cellRefs })
      : leanOrdinaryCell(datas[i]!, d2s[i]!, bits[i]!, cellRefs, hashSlab.subarray(32 * i, 32 * i + 32));
  }
  const out: Cell[] = [];
  for (const root of roots) {
    const cell = built[root];
    if (!cell) return null;
    out.push(cell);
  }
  return out;
}
