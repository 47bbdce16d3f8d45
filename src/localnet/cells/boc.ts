import { BitBuilder, Cell } from '@ton/core';
import { crc32cBytes } from './crc32c';

/**
 * Serializes one or more root cells into a bag of cells (`serialized_boc#b5ee9c72`, no index,
 * with CRC32C). @ton/core only writes single-root BoCs; lite-server answers (proofs,
 * transaction lists) need several roots. Cells are deduplicated by representation hash and
 * ordered so that every reference points forward, as the format requires.
 */
export function serializeBoc(roots: readonly Cell[], opts: { crc32?: boolean } = {}): Buffer {
  if (roots.length === 0) {
    throw new Error('serializeBoc: at least one root is required');
  }
  const withCrc = opts.crc32 ?? true;
  const order = topologicalOrder(roots);
  const index = new Map<string, number>();
  order.forEach((entry, i) => index.set(entry.key, i));

  const cellCount = order.length;
  const sizeBytes = Math.max(1, byteLength(cellCount));
  const payloads: Buffer[] = [];
  let totalCellSize = 0;
  for (const { cell } of order) {
    const refIdx = cell.refs.map((ref) => index.get(hashKey(ref)) as number);
    const payload = serializeCellPayload(cell, refIdx, sizeBytes);
    payloads.push(payload);
    totalCellSize += payload.length;
  }
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
  for (const root of roots) {
    pos = writeUintBE(out, pos, index.get(hashKey(root)) as number, sizeBytes);
  }
  for (const payload of payloads) {
    payload.copy(out, pos);
    pos += payload.length;
  }
  if (withCrc) {
    crc32cBytes(out.subarray(0, pos)).copy(out, pos);
  }
  return out;
}

interface OrderedCell {
  key: string;
  cell: Cell;
}

/** Reverse post-order of an iterative DFS: parents always precede their children. */
function topologicalOrder(roots: readonly Cell[]): OrderedCell[] {
  const visited = new Set<string>();
  const postOrder: OrderedCell[] = [];
  // Roots are walked last-to-first so that, after reversal, root 0 comes first.
  for (let r = roots.length - 1; r >= 0; r--) {
    const root = roots[r];
    const rootKey = hashKey(root);
    if (visited.has(rootKey)) continue;
    visited.add(rootKey);
    const stack: { cell: Cell; key: string; next: number }[] = [{ cell: root, key: rootKey, next: root.refs.length - 1 }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      if (top.next >= 0) {
        const child = top.cell.refs[top.next--];
        const childKey = hashKey(child);
        if (!visited.has(childKey)) {
          visited.add(childKey);
          stack.push({ cell: child, key: childKey, next: child.refs.length - 1 });
        }
      } else {
        stack.pop();
        postOrder.push({ key: top.key, cell: top.cell });
      }
    }
  }
  return postOrder.reverse();
}

function hashKey(cell: Cell): string {
  return cell.hash().toString('latin1');
}

function serializeCellPayload(cell: Cell, refIdx: number[], sizeBytes: number): Buffer {
  const bitLength = cell.bits.length;
  const dataBytes = Math.ceil(bitLength / 8);
  const d1 = cell.refs.length + (cell.isExotic ? 8 : 0) + cell.mask.value * 32;
  const d2 = Math.ceil(bitLength / 8) + Math.floor(bitLength / 8);
  const out = Buffer.alloc(2 + dataBytes + refIdx.length * sizeBytes);
  out[0] = d1;
  out[1] = d2;
  paddedBits(cell).copy(out, 2);
  let pos = 2 + dataBytes;
  for (const idx of refIdx) {
    pos = writeUintBE(out, pos, idx, sizeBytes);
  }
  return out;
}

/** Cell data with the completion tag (a 1 bit then zeros) when the length is not byte-aligned. */
function paddedBits(cell: Cell): Buffer {
  const bits = cell.bits;
  const aligned = bits.subbuffer(0, bits.length - (bits.length % 8));
  if (bits.length % 8 === 0 && aligned) {
    return aligned;
  }
  const builder = new BitBuilder(bits.length + 8);
  builder.writeBits(bits);
  builder.writeBit(true);
  while (builder.length % 8 !== 0) builder.writeBit(false);
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
