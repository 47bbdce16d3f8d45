import { Cell } from '@ton/core';
import { ValidationError } from '../errors';

/**
 * Bounds on what a client can hand the TVM and the BoC decoder, each checked before any work
 * and answered with a 422 naming the bound. The numbers come from measurements of the sandbox
 * emulator (docs/api.md, "Bounds on TVM input and output"): it deserialises a stack recursively and its wasm stack overflows
 * (a trap, or a spin) once the stack cell is about 300 cells deep; 256 keeps a margin and is
 * toncenter's own stack-depth default.
 */

/** Entries of an input stack, counting the elements of tuples and lists at every level. */
export const MAX_STACK_ENTRIES = 256;
/** Depth of the input stack as the TVM receives it (a `VmStack` cell chain: entries + nesting + cell depth). */
export const MAX_STACK_CELL_DEPTH = 256;
/** Cells in all the BoCs of one input stack together. */
export const MAX_STACK_CELLS = 1024;
/** Cells in one BoC parameter (the network's default max_msg_cells, config param 43). */
export const MAX_BOC_CELLS = 8192;
/** Depth of one BoC parameter (the network's default max_msg_depth, config param 43). */
export const MAX_BOC_DEPTH = 512;
/**
 * Depth of the parts of a message the emulator runs (estimateFee/sendQuery body, init_code,
 * init_data): the emulator traps on messages about 430 cells deep; the message adds two levels.
 */
export const MAX_MESSAGE_PART_DEPTH = 256;

const GENERIC_MAGIC = 0xb5ee9c72;
const INDEXED_MAGIC = 0x68ff65f3;
const INDEXED_CRC_MAGIC = 0xacc3a728;

export interface BocShape {
  /** Cells the BoC holds. */
  readonly cells: number;
  /** Largest depth of any cell (a cell without references has depth 0). */
  readonly depth: number;
}

/**
 * Cell count and depth of a serialised BoC, read from its bytes in one linear pass, without
 * building cells: @ton/core hashes every cell as it decodes it, which costs tens of microseconds
 * per cell on the event loop, so the bounds are checked first. Null when the bytes are not a
 * BoC this scan understands (the decoder then says what is wrong); only the cell count is read
 * when `maxCells` is exceeded, so a huge declared count costs nothing.
 */
export function scanBoc(boc: Uint8Array, maxCells = Number.MAX_SAFE_INTEGER): BocShape | null {
  const bytes = Buffer.from(boc.buffer, boc.byteOffset, boc.byteLength);
  if (bytes.length < 6) return null;
  const magic = bytes.readUInt32BE(0);
  let refSize: number;
  let hasIndex: boolean;
  let indexed = false;
  if (magic === GENERIC_MAGIC) {
    refSize = bytes[4]! & 7;
    hasIndex = (bytes[4]! & 0x80) !== 0;
  } else if (magic === INDEXED_MAGIC || magic === INDEXED_CRC_MAGIC) {
    refSize = bytes[4]!;
    hasIndex = true;
    indexed = true;
  } else return null;
  const offsetSize = bytes[5]!;
  if (refSize < 1 || refSize > 4 || offsetSize < 1 || offsetSize > 8) return null;
  let at = 6;
  const readRef = (): number => {
    if (at + refSize > bytes.length) throw new RangeError('truncated');
    const value = bytes.readUIntBE(at, refSize);
    at += refSize;
    return value;
  };
  try {
    const cells = readRef();
    if (cells > maxCells) return { cells, depth: 0 };
    const roots = readRef();
    readRef(); // absent
    at += offsetSize; // tot_cells_size
    if (!indexed) at += roots * refSize; // root list
    if (hasIndex) at += cells * offsetSize;
    const refs: number[][] = [];
    for (let i = 0; i < cells; i++) {
      if (at + 2 > bytes.length) return null;
      const d1 = bytes[at]!;
      const d2 = bytes[at + 1]!;
      at += 2;
      const refCount = d1 & 7;
      if (refCount > 4) return null;
      if (d1 & 16) at += ((d1 >> 5) + 1) * 34; // stored hashes and depths
      at += (d2 >> 1) + (d2 & 1);
      const cellRefs: number[] = [];
      for (let r = 0; r < refCount; r++) {
        const ref = readRef();
        // References point forward in a BoC; anything else is for the decoder to reject.
        if (ref <= i || ref >= cells) return null;
        cellRefs.push(ref);
      }
      refs.push(cellRefs);
    }
    if (at > bytes.length) return null;
    const depths = new Array<number>(cells).fill(0);
    let depth = 0;
    for (let i = cells - 1; i >= 0; i--) {
      let own = 0;
      for (const ref of refs[i]!) own = Math.max(own, depths[ref]! + 1);
      depths[i] = own;
      depth = Math.max(depth, own);
    }
    return { cells, depth };
  } catch {
    return null;
  }
}

/** Fails with a 422 naming `name` when the BoC holds more than `maxCells` cells or is deeper than `maxDepth`. */
export function checkBocBounds(name: string, boc: Uint8Array, maxCells = MAX_BOC_CELLS, maxDepth = MAX_BOC_DEPTH): BocShape | null {
  const shape = scanBoc(boc, maxCells);
  if (shape && shape.cells > maxCells) {
    throw new ValidationError(`failed to validate request: ${name} has ${shape.cells} cells, at most ${maxCells} are accepted`);
  }
  if (shape && shape.depth > maxDepth) {
    throw new ValidationError(`failed to validate request: ${name} is ${shape.depth} cells deep, at most ${maxDepth} are accepted`);
  }
  return shape;
}

/** Fails with a 422 naming `name` when a root is deeper than `maxDepth`. */
export function checkCellDepth(name: string, roots: readonly Cell[], maxDepth = MAX_BOC_DEPTH): void {
  for (const root of roots) {
    const depth = root.depth();
    if (depth > maxDepth) {
      throw new ValidationError(`failed to validate request: ${name} is ${depth} cells deep, at most ${maxDepth} are accepted`);
    }
  }
}

/**
 * Decodes a BoC parameter within the bounds, checked on the bytes before decoding (and the depth
 * again on the cells, for a BoC layout the scan does not read). Decoder errors are the caller's.
 */
export function decodeBoundedBoc(name: string, boc: Uint8Array, maxCells = MAX_BOC_CELLS, maxDepth = MAX_BOC_DEPTH): Cell[] {
  checkBocBounds(name, boc, maxCells, maxDepth);
  const roots = Cell.fromBoc(Buffer.from(boc.buffer, boc.byteOffset, boc.byteLength));
  checkCellDepth(name, roots, maxDepth);
  return roots;
}
