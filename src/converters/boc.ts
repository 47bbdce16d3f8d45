import { BitBuilder, BitString, Cell } from '@ton/core';
// The leaf module, not the cells index: the index's BoC file imports this one.
import { crc32cBytes } from '../localnet/cells/crc32c';

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

class BagOfCells {
  private readonly cells: ImportedCell[] = [];
  private readonly indexByNode = new Map<BocNode, number>();
  private readonly allocated: ImportedCell[] = [];
  private internalRefs = 0;
  private dataBytes = 0;

  constructor(private readonly roots: readonly BocNode[]) {}

  serialize(withCrc32c: boolean): Buffer {
    const rootIndices = this.roots.map((root) => this.importCell(root));
    this.reorder(rootIndices);
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
    }
    if (withCrc32c) {
      // The one table-driven CRC32C of the project (the local chain checksums multi-MB BoCs with it).
      crc32cBytes(out.subarray(0, pos)).copy(out, pos);
      pos += 4;
    }
    return out;
  }

  private importCell(node: BocNode): number {
    const known = this.indexByNode.get(node);
    if (known !== undefined) return known;
    const refs: number[] = [];
    let childWeight = 1;
    for (const child of node.refs) {
      const childIndex = this.importCell(child);
      refs.push(childIndex);
      childWeight += this.cells[childIndex].weight;
      this.internalRefs++;
    }
    const index = this.cells.length;
    this.cells.push({ node, refs, weight: Math.min(0xff, childWeight), newIndex: -1 });
    this.indexByNode.set(node, index);
    this.dataBytes += 2 + node.data.length;
    return index;
  }

  private reorder(rootIndices: number[]): void {
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
    }
    for (const info of cells) {
      let sum = 1;
      for (const ref of info.refs) sum += cells[ref].weight;
      info.weight = sum <= info.weight ? sum : 0;
    }
    for (const root of rootIndices) {
      this.revisit(root, 0);
      this.revisit(root, 1);
    }
    for (const root of rootIndices) this.revisit(root, 2);
  }

  /** force 0 = previsit, 1 = visit (children allocated), 2 = allocate. */
  private revisit(index: number, force: 0 | 1 | 2): number {
    const info = this.cells[index];
    if (info.newIndex >= 0) return info.newIndex;
    if (force === 0) {
      if (info.newIndex !== -1) return info.newIndex;
      for (let j = info.refs.length - 1; j >= 0; j--) {
        const child = info.refs[j];
        this.revisit(child, this.cells[child].weight === 0 ? 1 : 0);
      }
      return (info.newIndex = -2);
    }
    if (force === 2) {
      info.newIndex = this.allocated.length;
      this.allocated.push(info);
      return info.newIndex;
    }
    if (info.newIndex === -3) return info.newIndex;
    if (info.weight === 0) this.revisit(index, 0);
    for (let j = info.refs.length - 1; j >= 0; j--) this.revisit(info.refs[j], 1);
    for (let j = info.refs.length - 1; j >= 0; j--) info.refs[j] = this.revisit(info.refs[j], 2);
    return (info.newIndex = -3);
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
  if (length % 8 === 0) {
    // Whole bytes need no completion: the bits are the bytes.
    const aligned = bits.subbuffer(0, length);
    if (aligned) return aligned;
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
 * blocks and snapshots (src/localnet/cells/boc.ts builds its proof nodes for it).
 */
export function writeBagOfCells(roots: readonly BocNode[], options: BocOptions = {}): Buffer {
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

/** Base64 BoC as toncenter prints it in `data`, `code`, `body`, `bytes`… */
export function bocBase64(root: Cell): string {
  return serializeBoc(root).toString('base64');
}

/** Base64 BoC, or `""` for an absent cell (tonlib's rendering of an empty `bytes` field). */
export function optionalBocBase64(root: Cell | null | undefined): string {
  return root ? bocBase64(root) : '';
}
