import { BitBuilder, BitString, Cell } from '@ton/core';
// The leaf module, not the cells index: the index's BoC file imports this one.
import { bitStringFields } from './bitRead';
import { CRC32C_START, crc32cFinish, crc32cUpdate } from './crc32c';

/**
 * Bag-of-cells serialisation that reproduces tonlib's `std_boc_serialize(cell, WithCRC32C)` byte for
 * byte, which is what every toncenter BoC string (`te6cck…`) is. @ton/core's `toBoc()` writes the same
 * format but orders the cells differently, so its base64 differs from toncenter's for any BoC with more
 * than one cell; clients compare `data`/`body` strings, so the order matters.
 *
 * tonlib's order: cells are imported depth-first (children before parents, duplicates merged by hash),
 * each gets a weight (1 + sum of children, capped) which is then redistributed top-down so that heavy
 * subtrees are marked "special" (weight 0); finally a revisit pass allocates indices so that special
 * subtrees are emitted after the ordinary ones. Cells are written in reverse allocation order, so the
 * root comes first.
 */

const MAX_CELL_WEIGHT = 64;

/**
 * A cell as the writer sees it: data bytes (a partial last byte completed with the BoC tag),
 * references, the exotic flag and the level mask. Real cells become nodes through `cellNodes`;
 * the local chain also builds nodes for the virtual cells of Merkle proofs (pruned branches,
 * proof roots) without constructing or hashing those cells. One node is written once, so
 * identical cells must share a node.
 */
export interface BocNode {
  readonly data: Buffer;
  readonly bitLength: number;
  readonly refs: readonly BocNode[];
  readonly exotic: boolean;
  readonly mask: number;
}

interface ImportedCell {
  node: BocNode;
  refs: number[];
  weight: number;
  /** -1 not visited, -2 previsited, -3 visited, >= 0 allocated index. */
  newIndex: number;
}

/**
 * Work done in small steps: the generator yields every few thousand cells, so a caller can run it
 * to its end at once (`finishNow`) or give the event loop a turn between slices (`finishInSlices`).
 * Both give the same result.
 */
export type SteppedWork<T> = Generator<void, T, void>;

/** Cells handled between two yields of a SteppedWork. */
const CELLS_PER_STEP = 1024;
/** Bytes checksummed between two yields. */
const CRC_BYTES_PER_STEP = 1 << 20;

export function finishNow<T>(work: SteppedWork<T>): T {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
  }
}

/**
 * Runs `work` on the event loop in slices of about `sliceMs`, letting timers and I/O run between
 * slices: a snapshot of a big chain is encoded while the server goes on answering.
 */
export async function finishInSlices<T>(work: SteppedWork<T>, sliceMs = 10): Promise<T> {
  let sliceStart = performance.now();
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
    if (performance.now() - sliceStart >= sliceMs) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
}

/** Operations of the revisit machine (tonlib's recursive revisit, run on an explicit stack). */
const PREVISIT = 0;
const VISIT = 1;
const PREVISIT_DONE = 2;
const VISIT_DONE = 3;

class BagOfCells {
  private readonly cells: ImportedCell[] = [];
  private readonly indexByNode = new Map<BocNode, number>();
  private readonly allocated: ImportedCell[] = [];
  private internalRefs = 0;
  private dataBytes = 0;
  /** Cells handled since the last yield. */
  private work = 0;

  constructor(private readonly roots: readonly BocNode[]) {}

  /** True every CELLS_PER_STEP calls: the caller yields then. */
  private stepDone(): boolean {
    if (++this.work < CELLS_PER_STEP) return false;
    this.work = 0;
    return true;
  }

  *serialize(withCrc32c: boolean): SteppedWork<Buffer> {
    const rootIndices: number[] = [];
    for (const root of this.roots) rootIndices.push(yield* this.importCell(root));
    yield* this.reorder(rootIndices);
    const cellCount = this.allocated.length;

    let refSize = 0;
    while (cellCount >= 2 ** (refSize * 8)) refSize++;
    const payloadSize = this.dataBytes + this.internalRefs * refSize;
    let offsetSize = 0;
    while (payloadSize >= 2 ** (offsetSize * 8)) offsetSize++;

    const headerSize = 4 + 1 + 1 + 3 * refSize + offsetSize + this.roots.length * refSize;
    const out = Buffer.alloc(headerSize + payloadSize + (withCrc32c ? 4 : 0));
    let pos = 0;
    const writeUint = (value: number, bytes: number): void => {
      for (let i = bytes - 1; i >= 0; i--) {
        out[pos + i] = value & 0xff;
        value = Math.floor(value / 256);
      }
      pos += bytes;
    };

    out.writeUInt32BE(0xb5ee9c72, 0);
    pos = 4;
    out[pos++] = (withCrc32c ? 0x40 : 0) | refSize;
    out[pos++] = offsetSize;
    writeUint(cellCount, refSize);
    writeUint(this.roots.length, refSize);
    writeUint(0, refSize);
    writeUint(payloadSize, offsetSize);
    for (const rootIndex of rootIndices) {
      writeUint(cellCount - 1 - this.cells[rootIndex].newIndex, refSize);
    }
    for (let i = cellCount - 1; i >= 0; i--) {
      const info = this.allocated[i];
      const node = info.node;
      out[pos++] = node.refs.length + (node.exotic ? 8 : 0) + node.mask * 32;
      out[pos++] = Math.floor(node.bitLength / 8) + Math.ceil(node.bitLength / 8);
      node.data.copy(out, pos);
      pos += node.data.length;
      for (const ref of info.refs) writeUint(cellCount - 1 - ref, refSize);
      if (this.stepDone()) yield;
    }
    if (withCrc32c) {
      // The one table-driven CRC32C of the project (the local chain checksums multi-MB BoCs with it).
      let crc = CRC32C_START;
      for (let from = 0; from < pos; from += CRC_BYTES_PER_STEP) {
        crc = crc32cUpdate(crc, out.subarray(from, Math.min(pos, from + CRC_BYTES_PER_STEP)));
        yield;
      }
      out.writeUInt32LE(crc32cFinish(crc), pos);
      pos += 4;
    }
    return out;
  }

  /**
   * Imports `root` and its subtree depth-first, children before parents in reference order,
   * duplicates merged by node (tonlib's recursive import, on an explicit stack so it can pause).
   */
  private *importCell(root: BocNode): SteppedWork<number> {
    const known = this.indexByNode.get(root);
    if (known !== undefined) return known;
    const stack: { node: BocNode; next: number; refs: number[]; weight: number }[] = [{ node: root, next: 0, refs: [], weight: 1 }];
    for (;;) {
      const frame = stack[stack.length - 1];
      if (frame.next < frame.node.refs.length) {
        const child = frame.node.refs[frame.next++];
        const childIndex = this.indexByNode.get(child);
        if (childIndex === undefined) {
          stack.push({ node: child, next: 0, refs: [], weight: 1 });
        } else {
          frame.refs.push(childIndex);
          frame.weight += this.cells[childIndex].weight;
          this.internalRefs++;
        }
        continue;
      }
      stack.pop();
      const index = this.cells.length;
      this.cells.push({ node: frame.node, refs: frame.refs, weight: Math.min(0xff, frame.weight), newIndex: -1 });
      this.indexByNode.set(frame.node, index);
      this.dataBytes += 2 + frame.node.data.length;
      const parent = stack[stack.length - 1];
      if (!parent) return index;
      parent.refs.push(index);
      parent.weight += this.cells[index].weight;
      this.internalRefs++;
      if (this.stepDone()) yield;
    }
  }

  private *reorder(rootIndices: number[]): SteppedWork<void> {
    const cells = this.cells;
    for (let i = cells.length - 1; i >= 0; i--) {
      const info = cells[i];
      const count = info.refs.length;
      let remaining = count;
      let budget = MAX_CELL_WEIGHT - 1;
      let lightMask = 0;
      for (let j = 0; j < count; j++) {
        const child = cells[info.refs[j]];
        const limit = Math.floor((MAX_CELL_WEIGHT - 1 + j) / count);
        if (child.weight <= limit) {
          budget -= child.weight;
          remaining--;
          lightMask |= 1 << j;
        }
      }
      if (remaining > 0) {
        for (let j = 0; j < count; j++) {
          if (lightMask & (1 << j)) continue;
          const child = cells[info.refs[j]];
          const limit = Math.floor(budget++ / remaining);
          if (child.weight > limit) child.weight = limit;
        }
      }
      if (this.stepDone()) yield;
    }
    for (const info of cells) {
      let sum = 1;
      for (const ref of info.refs) sum += cells[ref].weight;
      info.weight = sum <= info.weight ? sum : 0;
      if (this.stepDone()) yield;
    }
    for (const root of rootIndices) {
      yield* this.revisit(root, PREVISIT);
      yield* this.revisit(root, VISIT);
    }
    for (const root of rootIndices) this.allocate(root);
  }

  /**
   * tonlib's revisit: a previsit marks a subtree (-2), entering the special (weight 0) cells; a
   * visit previsits a special cell, visits its children, then allocates them in reverse order and
   * marks the cell visited (-3). Run on a stack of (cell, operation) pairs, popped in the order the
   * recursive calls would run.
   */
  private *revisit(start: number, operation: typeof PREVISIT | typeof VISIT): SteppedWork<void> {
    const stack: number[] = [start, operation];
    while (stack.length > 0) {
      const op = stack.pop()!;
      const index = stack.pop()!;
      const info = this.cells[index];
      const refs = info.refs;
      if (op === PREVISIT) {
        if (info.newIndex !== -1) continue;
        stack.push(index, PREVISIT_DONE);
        // Pushed first, run last: the recursion walks the children from the last one.
        for (let j = 0; j < refs.length; j++) stack.push(refs[j], this.cells[refs[j]].weight === 0 ? VISIT : PREVISIT);
      } else if (op === VISIT) {
        if (info.newIndex >= 0 || info.newIndex === -3) continue;
        stack.push(index, VISIT_DONE);
        for (let j = 0; j < refs.length; j++) stack.push(refs[j], VISIT);
        if (info.weight === 0) stack.push(index, PREVISIT);
      } else if (op === PREVISIT_DONE) {
        info.newIndex = -2;
      } else {
        for (let j = refs.length - 1; j >= 0; j--) refs[j] = this.allocate(refs[j]);
        info.newIndex = -3;
      }
      if (this.stepDone()) yield;
    }
  }

  private allocate(index: number): number {
    const info = this.cells[index];
    if (info.newIndex >= 0) return info.newIndex;
    info.newIndex = this.allocated.length;
    this.allocated.push(info);
    return info.newIndex;
  }
}

/**
 * Nodes of real cells, one per distinct cell (by representation hash), so a cell referenced from
 * several places, or by several roots, is written once.
 */
export class CellNodes {
  private readonly byHash = new Map<string, BocNode>();

  of(cell: Cell): BocNode {
    const key = cell.hash().toString('latin1');
    const known = this.byHash.get(key);
    if (known) return known;
    const node: BocNode = {
      data: paddedCellData(cell.bits, true),
      bitLength: cell.bits.length,
      refs: cell.refs.map((ref) => this.of(ref)),
      exotic: cell.isExotic,
      mask: cell.mask.value,
    };
    this.byHash.set(key, node);
    return node;
  }
}

/**
 * The cell's data bits as bytes. A partial last byte is completed either with the BoC completion tag
 * (a 1 bit followed by zeros) or with plain zeros.
 */
export function paddedCellData(bits: BitString, completionTag: boolean): Buffer {
  const length = bits.length;
  const { _data: data, _offset: offset } = bitStringFields(bits);
  if (offset % 8 === 0 && Buffer.isBuffer(data)) {
    // Bits on a byte boundary (every cell @ton/core or our decoder builds): whole bytes are the
    // bytes; a partial last byte is completed here. A cell decoded from a BoC holds the completion
    // tag already in its source, so its bytes are a view, as for whole bytes (bits never change).
    const start = offset / 8;
    const byteLength = Math.ceil(length / 8);
    const tail = length % 8;
    if (tail === 0) return data.subarray(start, start + byteLength);
    const last = data[start + byteLength - 1]!;
    const completed = (last & ((0xff << (8 - tail)) & 0xff)) | (completionTag ? 0x80 >> tail : 0);
    if (completed === last) return data.subarray(start, start + byteLength);
    const out = Buffer.allocUnsafe(byteLength);
    data.copy(out, 0, start, start + byteLength);
    out[byteLength - 1] = completed;
    return out;
  }
  const byteLength = Math.ceil(length / 8);
  const builder = new BitBuilder(byteLength * 8);
  builder.writeBits(bits);
  if (length % 8 !== 0) {
    builder.writeBit(completionTag);
    while (builder.length % 8 !== 0) builder.writeBit(false);
  }
  return builder.buffer();
}

export interface BocOptions {
  /**
   * Append the CRC32C (default true). tonlib's `to_bytes` always does (`te6cck…`); lite-server proofs
   * are stored without it (`te6ccg…`) and are reproduced with `false`.
   */
  crc32c?: boolean;
}

/**
 * The project's one BoC writer: tonlib-identical bytes (no index) of the given nodes as roots.
 * Used for every BoC we produce: toncenter's strings here, the local chain's lite-server answers,
 * blocks and snapshots (src/cells/boc.ts builds its proof nodes for it).
 */
export function writeBagOfCells(roots: readonly BocNode[], options: BocOptions = {}): Buffer {
  return finishNow(bagOfCellsSteps(roots, options));
}

/** The same BoC as `writeBagOfCells`, as work that pauses every few thousand cells (see finishInSlices). */
export function bagOfCellsSteps(roots: readonly BocNode[], options: BocOptions = {}): SteppedWork<Buffer> {
  if (roots.length === 0) throw new Error('a bag of cells needs at least one root');
  return new BagOfCells(roots).serialize(options.crc32c ?? true);
}

/** tonlib-identical BoC (no index) of one root. */
export function serializeBoc(root: Cell, options: BocOptions = {}): Buffer {
  return writeBagOfCells([new CellNodes().of(root)], options);
}

/** tonlib-identical BoC of several roots (shared cells stored once). */
export function serializeBocRoots(roots: readonly Cell[], options: BocOptions = {}): Buffer {
  const nodes = new CellNodes();
  return writeBagOfCells(
    roots.map((root) => nodes.of(root)),
    options,
  );
}

/**
 * Texts already made, by cell: a cell and its BoC never change, and the cells of lite-server
 * answers are interned (src/chain/answers.ts), so a read of an account seen before (or of another
 * with the same code, such as every wallet of one version) prints its code and data without
 * serialising them again. An entry lives as long as its cell.
 */
const base64ByCell = new WeakMap<Cell, string>();

/** Base64 BoC as toncenter prints it in `data`, `code`, `body`, `bytes`… */
export function bocBase64(root: Cell): string {
  const known = base64ByCell.get(root);
  if (known !== undefined) return known;
  const text = serializeBoc(root).toString('base64');
  base64ByCell.set(root, text);
  return text;
}

/** Base64 BoC, or `""` for an absent cell (tonlib's rendering of an empty `bytes` field). */
export function optionalBocBase64(root: Cell | null | undefined): string {
  return root ? bocBase64(root) : '';
}
