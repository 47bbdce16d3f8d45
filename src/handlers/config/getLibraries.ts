import { librariesByHash } from '../../chain';
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
    const found = await librariesByHash(ctx.lite(), p.libraries);
    return toLibraryResult(found.map((entry) => ({ hash: entry.hash, data: entry.data })));
  },
});
