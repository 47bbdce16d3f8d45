import type { Cell } from '@ton/core';

export interface CellStats {
  cells: bigint;
  bits: bigint;
}

/** Distinct cells (and their bits) reachable from `roots`, each counted once. */
export function cellStats(roots: readonly Cell[]): CellStats {
  const seen = new Set<string>();
  let cells = 0n;
  let bits = 0n;
  const pending = [...roots];
  while (pending.length > 0) {
    const cell = pending.pop() as Cell;
    const key = cell.hash().toString('hex');
    if (seen.has(key)) continue;
    seen.add(key);
    cells += 1n;
    bits += BigInt(cell.bits.length);
    pending.push(...cell.refs);
  }
  return { cells, bits };
}
