import { Cell } from '@ton/core';
import { toLibraryResult } from '../../converters/libraries';
import { param } from '../../params/schema';
import { defineHandler, invalid } from '../define';

/** Hashes one call may ask for: a lite server answers at most 16 libraries per query. */
export const MAX_LIBRARIES_PER_CALL = 16;
import { READ_VERBS } from '../types';

export default defineHandler({
  name: 'getLibraries',
  category: 'config',
  verbs: READ_VERBS,
  summary: 'Library cells by hash (smc.libraryResult).',
  params: {
    libraries: param.hashList().withDefault([]),
  },
  validate: (p) => {
    if (p.libraries.length > MAX_LIBRARIES_PER_CALL)
      invalid(`at most ${MAX_LIBRARIES_PER_CALL} libraries per call, got ${p.libraries.length}`);
  },
  run: async (ctx, p) => {
    if (p.libraries.length === 0) return toLibraryResult([]);
    const answer = await ctx.lite().run((client) => client.getLibraries(p.libraries));
    // tonlib keeps only entries whose BoC hashes to their key, and passes their bytes through.
    const found = answer.result.filter((entry) => {
      try {
        const roots = Cell.fromBoc(entry.data);
        return roots.length === 1 && roots[0].hash().equals(entry.hash);
      } catch {
        return false;
      }
    });
    return toLibraryResult(found.map((entry) => ({ hash: entry.hash, data: entry.data })));
  },
});
