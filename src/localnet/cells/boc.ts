import { BitBuilder, Cell, CellType } from '@ton/core';
import { crc32cBytes } from './crc32c';
import { KeepSet } from './merkle';

/**
 * A cell as the BoC writer sees it: data bytes (with the completion tag when not byte-aligned),
 * references, the exotic flag and the level mask. Real cells and the virtual cells of a Merkle
 * proof (built without hashing anything) share this shape.
 */
interface BocNode {
  /** Identical keys mean identical cells: they are written once. */
  key: string;
  data: Buffer;
  bitLength: number;
  refs: BocNode[];
  exotic: boolean;
  mask: number;
}

/**
 * Serializes one or more root cells into a bag of cells (`serialized_boc#b5ee9c72`, no index,
 * with CRC32C). @ton/core only writes single-root BoCs; lite-server answers (proofs,
 * transaction lists) need several roots. Cells are deduplicated by representation hash and
 * ordered so that every reference points forward, as the format requires.
 */
export function serializeBoc(roots: readonly Cell[], opts: { crc32?: boolean } = {}): Buffer {
  if (roots.length === 0) throw new Error('serializeBoc: at least one root is required');
  const nodes = new Map<string, BocNode>();
  return writeBoc(
    roots.map((r) => cellNode(r, nodes)),
    opts.crc32 ?? true,
  );
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
  return writeBoc(roots, opts.crc32 ?? true);
}

function cellNode(cell: Cell, nodes: Map<string, BocNode>): BocNode {
  const key = 'v' + cell.hash().toString('latin1');
  const known = nodes.get(key);
  if (known) return known;
  const node: BocNode = {
    key,
    data: paddedBits(cell),
    bitLength: cell.bits.length,
    refs: cell.refs.map((r) => cellNode(r, nodes)),
    exotic: cell.isExotic,
    mask: cell.mask.value,
  };
  nodes.set(key, node);
  return node;
}

/** `proofIndex` keeps copies apart: one cell may be revealed differently by two proofs. */
function proofNode(spec: ProofSpec, nodes: Map<string, BocNode>, proofIndex: number): BocNode {
  const { root, keep } = spec;
  if (!keep.open.has(root) && !keep.full?.has(root)) throw new Error('the root of a Merkle proof must be kept');
  const visit = (cell: Cell): BocNode => {
    if (keep.full?.has(cell)) return cellNode(cell, nodes);
    if (!keep.open.has(cell)) return cell.level() > 0 ? cellNode(cell, nodes) : prunedNode(cell, nodes);
    const refs = cell.refs.map(visit);
    if (refs.every((r, i) => r.key === 'v' + cell.refs[i].hash().toString('latin1'))) return cellNode(cell, nodes);
    const key = `c${proofIndex}:${cell.hash().toString('latin1')}`;
    const known = nodes.get(key);
    if (known) return known;
    let mask = 0;
    for (const r of refs) mask |= r.mask;
    if (cell.type === CellType.MerkleProof || cell.type === CellType.MerkleUpdate) mask >>= 1;
    const node: BocNode = { key, data: paddedBits(cell), bitLength: cell.bits.length, refs, exotic: cell.isExotic, mask };
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
  const data = Buffer.alloc(36);
  data[0] = 1;
  data[1] = 1;
  hash.copy(data, 2);
  data.writeUInt16BE(cell.depth(0), 34);
  const node: BocNode = { key, data, bitLength: 288, refs: [], exotic: true, mask: 1 };
  nodes.set(key, node);
  return node;
}

function writeBoc(roots: BocNode[], withCrc: boolean): Buffer {
  const order = topologicalOrder(roots);
  const index = new Map<BocNode, number>();
  order.forEach((node, i) => index.set(node, i));
  const cellCount = order.length;
  const sizeBytes = Math.max(1, byteLength(cellCount));
  let totalCellSize = 0;
  for (const node of order) totalCellSize += 2 + node.data.length + node.refs.length * sizeBytes;
  const offsetBytes = Math.max(1, byteLength(totalCellSize));
  const headerSize = 4 + 1 + 1 + 3 * sizeBytes + offsetBytes + roots.length * sizeBytes;
  const out = Buffer.alloc(headerSize + totalCellSize + (withCrc ? 4 : 0));
  let pos = 0;
  out.writeUInt32BE(0xb5ee9c72, pos);
  pos += 4;
  out[pos++] = (withCrc ? 0x40 : 0) | sizeBytes;
  out[pos++] = offsetBytes;
  pos = writeUintBE(out, pos, cellCount, sizeBytes);
  pos = writeUintBE(out, pos, roots.length, sizeBytes);
  pos = writeUintBE(out, pos, 0, sizeBytes);
  pos = writeUintBE(out, pos, totalCellSize, offsetBytes);
  for (const root of roots) pos = writeUintBE(out, pos, index.get(root) as number, sizeBytes);
  for (const node of order) {
    out[pos++] = node.refs.length + (node.exotic ? 8 : 0) + node.mask * 32;
    out[pos++] = Math.ceil(node.bitLength / 8) + Math.floor(node.bitLength / 8);
    node.data.copy(out, pos);
    pos += node.data.length;
    for (const ref of node.refs) pos = writeUintBE(out, pos, index.get(ref) as number, sizeBytes);
  }
  if (withCrc) crc32cBytes(out.subarray(0, pos)).copy(out, pos);
  return out;
}

/** Reverse post-order of an iterative DFS: parents always precede their children. */
function topologicalOrder(roots: readonly BocNode[]): BocNode[] {
  const visited = new Set<BocNode>();
  const postOrder: BocNode[] = [];
  // Roots are walked last-to-first so that, after reversal, root 0 comes first.
  for (let r = roots.length - 1; r >= 0; r--) {
    const root = roots[r];
    if (visited.has(root)) continue;
    visited.add(root);
    const stack: { node: BocNode; next: number }[] = [{ node: root, next: root.refs.length - 1 }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      if (top.next >= 0) {
        const child = top.node.refs[top.next--];
        if (!visited.has(child)) {
          visited.add(child);
          stack.push({ node: child, next: child.refs.length - 1 });
        }
      } else {
        stack.pop();
        postOrder.push(top.node);
      }
    }
  }
  return postOrder.reverse();
}

/** Cell data with the completion tag (a 1 bit then zeros) when the length is not byte-aligned. */
function paddedBits(cell: Cell): Buffer {
  const bits = cell.bits;
  if (bits.length % 8 === 0) {
    const aligned = bits.subbuffer(0, bits.length);
    if (aligned) return aligned;
  }
  const builder = new BitBuilder(bits.length + 8);
  builder.writeBits(bits);
  if (bits.length % 8 !== 0) {
    builder.writeBit(true);
    while (builder.length % 8 !== 0) builder.writeBit(false);
  }
  return builder.buffer();
}

function byteLength(value: number): number {
  let bytes = 0;
  while (value > 0) {
    bytes++;
    value = Math.floor(value / 256);
  }
  return bytes;
}

function writeUintBE(out: Buffer, pos: number, value: number, bytes: number): number {
  for (let i = bytes - 1; i >= 0; i--) {
    out[pos + i] = value & 0xff;
    value = Math.floor(value / 256);
  }
  return pos + bytes;
}
