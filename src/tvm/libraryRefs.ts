import { type Cell, CellType } from '@ton/core';

/** Cells visited when looking for library references (code, data, a message). */
const LIBRARY_SCAN_LIMIT = 20_000;

/** Hashes of the library cells reachable from `roots`. */
export function libraryReferences(roots: readonly (Cell | null)[]): Buffer[] {
  const seen = new Set<string>();
  const found = new Map<string, Buffer>();
  const pending = roots.filter((root): root is Cell => root !== null);
  while (pending.length > 0 && seen.size < LIBRARY_SCAN_LIMIT) {
    const cell = pending.pop() as Cell;
    const key = cell.hash().toString('hex');
    if (seen.has(key)) continue;
    seen.add(key);
    if (cell.type === CellType.Library) {
      const hash = cell.bits.subbuffer(8, 256);
      if (hash) found.set(hash.toString('hex'), hash);
      continue;
    }
    pending.push(...cell.refs);
  }
  return [...found.values()];
}
