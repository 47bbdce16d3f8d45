import { toOutMsgQueueSizes } from '../../converters/outMsgQueueSizes';
import { defineHandler } from '../define';
import { liteQuery } from '../liteAnswers';
import { READ_VERBS } from '../types';

export default defineHandler({
  name: 'getOutMsgQueueSize',
  category: 'blocks',
  verbs: READ_VERBS,
  summary: 'Outbound message queue sizes of the masterchain and shard tops.',
  params: {},
  run: async (ctx) => {
    // tonlib's blocks.getOutMsgQueueSizes with mode 0: every shard, as the lite server's latest state has them.
    const sizes = await ctx
      .lite()
      .run((client) => liteQuery(client, { kind: 'liteServer.getOutMsgQueueSizes', mode: 0, wc: null, shard: null }));
    return toOutMsgQueueSizes(sizes);
  },
});
