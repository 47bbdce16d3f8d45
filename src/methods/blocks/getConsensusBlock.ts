import { NoHealthyLiteServerError } from '../../errors';
import { atHead, defineHandler } from '../define';
import { int, tagged } from '../resultSchema';
import { READ_VERBS } from '../types';

export default defineHandler({
  name: 'getConsensusBlock',
  category: 'blocks',
  verbs: READ_VERBS,
  summary: 'The masterchain seqno the healthy lite servers have reached (from the pool health checks).',
  cache: 'never',
  session: atHead,
  result: tagged('ext.blocks.consensusBlock', { consensus_block: int, timestamp: { type: 'number' } }),
  params: {},
  run: async (ctx) => {
    const seqno = ctx.consensusSeqno();
    if (seqno === undefined) throw new NoHealthyLiteServerError('no healthy lite server has reported a masterchain block yet');
    return { '@type': 'ext.blocks.consensusBlock', consensus_block: seqno, timestamp: Math.floor(Date.now() / 1000) };
  },
});
