import { librariesByHash } from '../../chain';
import { toLibraryResult } from '../../converters';
import { param } from '../../params';
import { atHead, defineHandler, invalid } from '../define';
import { arrayOf, tagged, hash, boc } from '../resultSchema';

/** Hashes one call may ask for: a lite server answers at most 16 libraries per query. */
export const MAX_LIBRARIES_PER_CALL = 16;
import { READ_VERBS } from '../types';

export default defineHandler({
  name: 'getLibraries',
  category: 'config',
  verbs: READ_VERBS,
  summary: 'Library cells by hash (smc.libraryResult).',
  cache: 'head',
  session: atHead,
  result: tagged('smc.libraryResult', { result: arrayOf(tagged('smc.libraryEntry', { hash, data: boc })) }),
  params: {
    libraries: param.hashList().withDefault([]),
  },
  validate: (p) => {
    if (p.libraries.length > MAX_LIBRARIES_PER_CALL)
      invalid(`at most ${MAX_LIBRARIES_PER_CALL} libraries per call, got ${p.libraries.length}`);
  },
  run: async (ctx, p) => {
    const found = await librariesByHash(ctx.lite(), p.libraries);
    return toLibraryResult(found.map((entry) => ({ hash: entry.hash, data: entry.data })));
  },
});
