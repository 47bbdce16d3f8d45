import { Cell } from '@ton/core';
import type { LibraryEntry } from '../tl';
import { bocRoots, proofFailure, proving, type ChainSession } from '../proofs';

/**
 * The answer's check: every entry is one that was asked for and its BoC is one cell tree hashing
 * to its key. A library is content-addressed, so that is all a lie could break. (Without checks,
 * entries that do not hold are dropped as before.)
 */
function checkLibraries(asked: readonly Buffer[], entries: readonly LibraryEntry[]): void {
  const wanted = new Set(asked.map((hash) => hash.toString('hex')));
  for (const entry of entries) {
    const key = entry.hash.toString('hex');
    if (!wanted.has(key)) proofFailure(`library ${key} was not asked for`);
    const roots = proving(`library ${key}`, () => bocRoots(entry.data, `library ${key}`));
    if (roots.length !== 1 || !roots[0].hash().equals(entry.hash)) proofFailure(`library ${key}: the cell does not hash to its key`);
  }
}

/**
 * Library cells by hash (liteServer.getLibraries). As tonlib, only entries whose BoC hashes to
 * their key are kept; their bytes pass through unchanged.
 */
export async function librariesByHash(session: ChainSession, hashes: Buffer[]): Promise<LibraryEntry[]> {
  if (hashes.length === 0) return [];
  const answer = await session.liteQuery({ kind: 'liteServer.getLibraries', libraryList: hashes }, (sent) =>
    checkLibraries(hashes, sent.result),
  );
  return answer.result.filter((entry) => {
    try {
      const roots = Cell.fromBoc(entry.data);
      return roots.length === 1 && roots[0].hash().equals(entry.hash);
    } catch {
      return false;
    }
  });
}
