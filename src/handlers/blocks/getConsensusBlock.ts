import { defineHandler } from '../define';
import { READ_VERBS } from '../types';

export default defineHandler({
  name: 'getConsensusBlock',
  category: 'blocks',
  verbs: READ_VERBS,
  summary: 'The masterchain seqno the lite servers agree on.',
  params: {},
});
