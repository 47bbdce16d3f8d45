import { defineHandler } from '../define';
import { READ_VERBS } from '../types';

export default defineHandler({
  name: 'getMasterchainInfo',
  category: 'blocks',
  verbs: READ_VERBS,
  summary: 'Last and initial masterchain block ids and the state root hash.',
  params: {},
});
