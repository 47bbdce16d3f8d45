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
});
