import { NoHealthyLiteServerError } from '../../errors';
import { defineHandler } from '../define';
import { READ_VERBS } from '../types';

export default defineHandler({
  name: 'getConsensusBlock',
  category: 'blocks',
  verbs: READ_VERBS,
  summary: 'The masterchain seqno the healthy lite servers have reached (from the pool health checks).',
  params: {},
  run: async (ctx) => {
    const seqno = ctx.consensusSeqno();
    if (seqno === undefined) throw new NoHealthyLiteServerError('no healthy lite server has reported a masterchain block yet');
    return { '@type': 'ext.blocks.consensusBlock', consensus_block: seqno, timestamp: Math.floor(Date.now() / 1000) };
  },
});
