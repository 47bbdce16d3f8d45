/**
 * BoC reading that reuses cells already seen. @ton/core hashes every cell it builds in
 * JavaScript; an account re-read after each transaction (the config contract holds the whole
 * configuration) would be hashed again in full. Here a cell whose descriptor, data and
 * children match an earlier one is that earlier Cell object, so only changed cells are built.
 */
import { BitString, Cell } from '@ton/core';

export class CellInterner {
  private cells = new Map<string, { cell: Cell; id: number }>();
  private nextId = 0;

  /**
   * @param maxCells bound on remembered cells; the memory is dropped whole when it is reached.
   * Cells of old account versions stay here until then (a few a round from tick-tock alone), so
   * the bound is also what this memory may cost: 10 000 cells, ~20 MB.
   */
  constructor(private readonly maxCells = 10_000) {}

  /** The roots of a BoC; falls back to @ton/core for BoCs with stored hashes. */
  parse(boc: Buffer): Cell[] {
    if (boc.length < 6 || boc.readUInt32BE(0) !== 0xb5ee9c72) return Cell.fromBoc(boc);
    const flags = boc[4];
    const hasIdx = (flags & 0x80) !== 0;
    const size = flags & 7;
    const offBytes = boc[5];
    let pos = 6;
    const readUint = (bytes: number): number => {
      let v = 0;
      for (let i = 0; i < bytes; i++) v = v * 256 + boc[pos++];
      return v;
    };
    const cellCount = readUint(size);
    const rootCount = readUint(size);
    readUint(size); // absent
    readUint(offBytes); // total cells size
    const rootIndexes: number[] = [];
    for (let i = 0; i < rootCount; i++) rootIndexes.push(readUint(size));
    if (hasIdx) pos += cellCount * offBytes;
    const raw: { d1: number; d2: number; data: Buffer; refs: number[] }[] = [];
    for (let i = 0; i < cellCount; i++) {
      const d1 = boc[pos];
      const d2 = boc[pos + 1];
      if (d1 & 16) return Cell.fromBoc(boc);
      pos += 2;
      const dataLength = Math.ceil(d2 / 2);
      const data = boc.subarray(pos, pos + dataLength);
      pos += dataLength;
      const refs: number[] = [];
      for (let r = 0; r < (d1 & 7); r++) refs.push(readUint(size));
      raw.push({ d1, d2, data, refs });
    }
    if (this.cells.size > this.maxCells) this.cells.clear();
    const built: { cell: Cell; id: number }[] = new Array(cellCount);
    for (let i = cellCount - 1; i >= 0; i--) {
      const { d1, d2, data, refs } = raw[i];
      const children = refs.map((r) => {
        const child = built[r];
        if (!child) throw new Error('BoC cell refers to an earlier cell');
        return child;
      });
      const key = `${d1}.${d2}.${data.toString('hex')}.${children.map((c) => c.id).join(',')}`;
      let entry = this.cells.get(key);
      if (!entry) {
        // A copy of the data: a view would keep the whole BoC alive (the config contract's
        // account, re-read every round) for as long as the cell lives.
        const cell = new Cell({ exotic: (d1 & 8) !== 0, bits: bitsOf(ownCopy(data), d2), refs: children.map((c) => c.cell) });
        entry = { cell, id: this.nextId++ };
        this.cells.set(key, entry);
      }
      built[i] = entry;
    }
    return rootIndexes.map((i) => built[i].cell);
  }
}

/** A copy in memory of its own: a small Buffer.from() would share (and pin) an 8 KB pool slab. */
function ownCopy(data: Buffer): Buffer {
  const copy = Buffer.alloc(data.length);
  data.copy(copy);
  return copy;
}

/** Data bytes to bits: an odd d2 means the last byte is completion-tagged (`1` then zeros). */
function bitsOf(data: Buffer, d2: number): BitString {
  if (d2 % 2 === 0) return new BitString(data, 0, data.length * 8);
  const last = data[data.length - 1];
  let length = data.length * 8;
  for (let bit = 0; bit < 8; bit++) {
    length--;
    if (last & (1 << bit)) break;
  }
  return new BitString(data, 0, length);
}
