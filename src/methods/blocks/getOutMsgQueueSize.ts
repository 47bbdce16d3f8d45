import { outMsgQueueSizes } from '../../chain';
import { toOutMsgQueueSizes } from '../../converters';
import { defineHandler } from '../define';
import { READ_VERBS } from '../types';

export default defineHandler({
  name: 'getOutMsgQueueSize',
  category: 'blocks',
  verbs: READ_VERBS,
  summary: 'Outbound message queue sizes of the masterchain and shard tops.',
  params: {},
  // tonlib's blocks.getOutMsgQueueSizes with mode 0: every shard, as the lite server's latest state has them.
  run: async (ctx) => toOutMsgQueueSizes(await outMsgQueueSizes(ctx.lite())),
});
