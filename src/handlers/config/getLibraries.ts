import { Cell } from '@ton/core';
import { toLibraryResult } from '../../converters/libraries';
import { param } from '../../params/schema';
import { defineHandler } from '../define';
import { READ_VERBS } from '../types';

export default defineHandler({
  name: 'getLibraries',
  category: 'config',
  verbs: READ_VERBS,
  summary: 'Library cells by hash (smc.libraryResult).',
  params: {
    libraries: param.hashList().withDefault([]),
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
