import { Cell } from '@ton/core';
import type { LibraryEntry } from '../tl';
import type { ChainSession } from './session';

/**
 * Library cells by hash (liteServer.getLibraries). As tonlib, only entries whose BoC hashes to
 * their key are kept; their bytes pass through unchanged.
 */
export async function librariesByHash(session: ChainSession, hashes: Buffer[]): Promise<LibraryEntry[]> {
  if (hashes.length === 0) return [];
  const answer = await session.liteQuery({ kind: 'liteServer.getLibraries', libraryList: hashes });
  return answer.result.filter((entry) => {
    try {
      const roots = Cell.fromBoc(entry.data);
      return roots.length === 1 && roots[0].hash().equals(entry.hash);
    } catch {
      return false;
    }
  });
}
