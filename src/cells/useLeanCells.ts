import { Builder, type Cell } from '@ton/core';
import { coreDeserializeBoc, decodeBocFast, serialization } from './fastBoc';
import { leanBitString, leanCellOf } from './leanCell';

/**
 * `useLeanCells()` makes @ton/core build lean cells (leanCell.ts) in this thread: `Cell.fromBoc`
 * (and so fromBase64/fromHex) decodes with decodeBocFast, and `Builder.endCell` of an ordinary
 * cell hashes it as @ton/core does and returns a lean cell. The local chain's thread keeps every
 * state it has sealed (a saved chain's ~1.2 million cells) and adds each block's new accounts and
 * changed paths, made from the emulator's BoCs and the chain's own builders; with @ton/core's
 * constructor each such cell carries seven closures, about half its heap (test/unit/leanCells:
 * the same hashes, depths, BoCs and parses either way).
 */

interface BuilderInternals {
  readonly _bits: { readonly _buffer: Buffer; readonly _length: number };
  readonly _refs: Cell[];
}

const coreEndCell = Builder.prototype.endCell;

function leanEndCell(this: Builder, opts?: { exotic?: boolean }): Cell {
  const { _bits: bitBuilder, _refs: refs } = this as unknown as BuilderInternals;
  // Exotic cells and anything @ton/core refuses stay @ton/core's (its checks, its errors).
  if (opts?.exotic || refs.length > 4 || !Buffer.isBuffer(bitBuilder._buffer) || bitBuilder._length > 1023) return coreEndCell.call(this, opts);
  const length = bitBuilder._length;
  // The builder's own buffer, as @ton/core's BitBuilder.build() keeps it (bits past `length` are never read).
  const bits = leanBitString(bitBuilder._buffer, 0, length);
  // The refs copied: the builder may go on storing after endCell (@ton/core copies them too).
  return leanCellOf(bits, refs.length === 0 ? [] : [...refs]);
}

/** The members replaced are @ton/core 0.63's (package.json pins it); another version keeps its own. */
function internalsPresent(): boolean {
  return typeof coreDeserializeBoc === 'function' && typeof coreEndCell === 'function' && '_bits' in new Builder() && '_refs' in new Builder();
}

/** Lean cells from @ton/core's decoder and builders in this thread (idempotent; the cells' hashes and bits are the same). */
export function useLeanCells(): void {
  if (!internalsPresent()) return;
  serialization.deserializeBoc = decodeBocFast;
  Builder.prototype.endCell = leanEndCell;
}

/** @ton/core's own decoder and endCell back (tests compare the two). */
export function useCoreCells(): void {
  serialization.deserializeBoc = coreDeserializeBoc;
  Builder.prototype.endCell = coreEndCell;
}
