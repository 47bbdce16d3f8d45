import { Cell, CellType } from '@ton/core';
import {
  bagOfCellsSteps,
  finishInSlices,
  finishNow,
  paddedCellData,
  serializeBocRoots,
  writeBagOfCells,
  type BocNode as WrittenNode,
  type SteppedWork,
} from './bocWriter';
import { KeepSet } from './merkle';
import { PRUNED_DATA_BYTES, writePrunedData } from './leanCell';

/**
 * The local chain's BoCs (lite-server answers, blocks, states, snapshots) are written by the
 * project's one BoC writer (src/converters/boc.ts, tonlib's cell order, as a real lite server
 * writes them). What this file adds is the nodes of Merkle proofs: the virtual cells of a proof
 * (pruned branches, the proof root, partly pruned cells) are built from the hashes the original
 * cells already carry, without constructing or hashing any proof cell.
 */
interface BocNode extends WrittenNode {
  /** Identical keys mean identical cells: they share one node and are written once. */
  key: string;
  refs: BocNode[];
}

/**
 * One or more root cells as a bag of cells (`serialized_boc#b5ee9c72`, no index, with CRC32C
 * unless `crc32: false`). @ton/core only writes single-root BoCs; lite-server answers (proofs,
 * transaction lists) need several roots.
 */
export function serializeBoc(roots: readonly Cell[], opts: { crc32?: boolean } = {}): Buffer {
  if (roots.length === 0) throw new Error('serializeBoc: at least one root is required');
  return serializeBocRoots(roots, { crc32c: opts.crc32 ?? true });
}

/**
 * Several BoCs of mostly the same cells (the periodic snapshots of a chain): a cell object seen by
 * an earlier call keeps its node, so a call builds nodes only for the cells that are new since
 * (the writer still walks every node). Nodes live as long as their cells. A new cell object equal
 * to an older one gets a node of its own and may be written twice, which a BoC reader accepts.
 */
export class BocNodeCache {
  private readonly byCell = new WeakMap<Cell, BocNode>();

  serialize(roots: readonly Cell[], opts: { crc32?: boolean } = {}): Buffer {
    return finishNow(this.serializeSteps(roots, opts));
  }

  /**
   * The same bytes, built in slices of about `sliceMs` with the event loop free between them: the
   * first save of a big chain builds hundreds of thousands of nodes (a second or more at once).
   */
  serializeInSlices(roots: readonly Cell[], sliceMs: number, opts: { crc32?: boolean } = {}): Promise<Buffer> {
    return finishInSlices(this.serializeSteps(roots, opts), sliceMs);
  }

  private *serializeSteps(roots: readonly Cell[], opts: { crc32?: boolean }): SteppedWork<Buffer> {
    if (roots.length === 0) throw new Error('serializeBoc: at least one root is required');
    const nodes = yield* this.nodesOf(roots);
    return yield* bagOfCellsSteps(nodes, { crc32c: opts.crc32 ?? true });
  }

  /** The roots' nodes, children built before parents (an explicit stack, so it can pause). */
  private *nodesOf(roots: readonly Cell[]): SteppedWork<BocNode[]> {
    const fresh = new Map<string, BocNode>();
    const out: BocNode[] = [];
    let built = 0;
    for (const root of roots) {
      const stack: Cell[] = [root];
      while (stack.length > 0) {
        const cell = stack[stack.length - 1];
        if (this.byCell.has(cell)) {
          stack.pop();
          continue;
        }
        const key = 'v' + cell.hash().toString('latin1');
        const known = fresh.get(key);
        if (known) {
          this.byCell.set(cell, known);
          stack.pop();
          continue;
        }
        let missing = false;
        const refs = cell.refs;
        for (let j = refs.length - 1; j >= 0; j--) {
          if (!this.byCell.has(refs[j])) {
            stack.push(refs[j]);
            missing = true;
          }
        }
        if (missing) continue;
        stack.pop();
        const node = cellNode(cell, fresh, (ref) => this.byCell.get(ref)!);
        this.byCell.set(cell, node);
        if (++built % 1024 === 0) yield;
      }
      out.push(this.byCell.get(root)!);
    }
    return out;
  }
}

/** What a Merkle proof reveals of `root`; see `KeepSet`. */
export interface ProofSpec {
  root: Cell;
  keep: KeepSet;
}

/**
 * Serializes Merkle proofs (and plain cells) into one multi-root BoC without constructing the
 * proof cells: pruned branches are written from the hashes the original cells already carry, so
 * nothing is hashed. The result parses to exactly what `merkleProof(root, keep)` would build.
 */
export function serializeProofs(items: readonly (ProofSpec | Cell)[], opts: { crc32?: boolean } = {}): Buffer {
  if (items.length === 0) throw new Error('serializeProofs: at least one root is required');
  const nodes = new Map<string, BocNode>();
  const roots = items.map((item, i) => (item instanceof Cell ? cellNode(item, nodes) : proofNode(item, nodes, i)));
  return writeBagOfCells(roots, { crc32c: opts.crc32 ?? true });
}

function cellNode(cell: Cell, nodes: Map<string, BocNode>, child: (cell: Cell) => BocNode = (r) => cellNode(r, nodes)): BocNode {
  const key = 'v' + cell.hash().toString('latin1');
  const known = nodes.get(key);
  if (known) return known;
  const node: BocNode = {
    key,
    data: paddedCellData(cell.bits, true),
    bitLength: cell.bits.length,
    refs: cell.refs.map(child),
    exotic: cell.isExotic,
    mask: cell.mask.value,
  };
  nodes.set(key, node);
  return node;
}

/** First character of the key of a node written as the cell itself (`cellNode`). */
const PLAIN_NODE = 'v'.charCodeAt(0);

/** `proofIndex` keeps copies apart: one cell may be revealed differently by two proofs. */
function proofNode(spec: ProofSpec, nodes: Map<string, BocNode>, proofIndex: number): BocNode {
  const { root, keep } = spec;
  if (!keep.open.has(root) && !keep.full?.has(root)) throw new Error('the root of a Merkle proof must be kept');
  const visit = (cell: Cell): BocNode => {
    if (keep.full?.has(cell)) return cellNode(cell, nodes);
    if (!keep.open.has(cell)) return cell.level() > 0 ? cellNode(cell, nodes) : prunedNode(cell, nodes);
    const refs = cell.refs.map(visit);
    // A ref visited to a plain cell node ('v' key, that very cell) is shown whole: if all are, so is this cell.
    if (refs.every((r) => r.key.charCodeAt(0) === PLAIN_NODE)) return cellNode(cell, nodes);
    const key = `c${proofIndex}:${cell.hash().toString('latin1')}`;
    const known = nodes.get(key);
    if (known) return known;
    let mask = 0;
    for (const r of refs) mask |= r.mask;
    if (cell.type === CellType.MerkleProof || cell.type === CellType.MerkleUpdate) mask >>= 1;
    const node: BocNode = { key, data: paddedCellData(cell.bits, true), bitLength: cell.bits.length, refs, exotic: cell.isExotic, mask };
    nodes.set(key, node);
    return node;
  };
  const content = visit(root);
  const data = Buffer.alloc(35);
  data[0] = 3;
  root.hash(0).copy(data, 1);
  data.writeUInt16BE(root.depth(0), 33);
  return { key: 'm' + root.hash().toString('latin1'), data, bitLength: 280, refs: [content], exotic: true, mask: content.mask >> 1 };
}

/** `prunedBranch(cell)` as BoC data: type 1, level mask 1, the hash and depth of the cell. */
function prunedNode(cell: Cell, nodes: Map<string, BocNode>): BocNode {
  const hash = cell.hash(0);
  const key = 'p' + hash.toString('latin1');
  const known = nodes.get(key);
  if (known) return known;
  const data = Buffer.alloc(PRUNED_DATA_BYTES);
  writePrunedData(cell, data);
  const node: BocNode = { key, data, bitLength: PRUNED_DATA_BYTES * 8, refs: [], exotic: true, mask: 1 };
  nodes.set(key, node);
  return node;
}
