import { outMsgQueueSizes } from '../../chain';
import { toOutMsgQueueSizes } from '../../converters';
import { atHead, defineHandler } from '../define';
import { ref, int, arrayOf, tagged } from '../resultSchema';
import { READ_VERBS } from '../types';

export default defineHandler({
  name: 'getOutMsgQueueSize',
  category: 'blocks',
  verbs: READ_VERBS,
  summary: 'Outbound message queue sizes of the masterchain and shard tops.',
  // The lite function answers at the server's own newest state, not at a block we name.
  cache: 'never',
  session: atHead,
  result: tagged('blocks.outMsgQueueSizes', {
    shards: arrayOf(tagged('blocks.outMsgQueueSize', { id: ref('ChainBlockIdExt'), size: int })),
    ext_msg_queue_size_limit: int,
  }),
  params: {},
  // tonlib's blocks.getOutMsgQueueSizes with mode 0: every shard, as the lite server's latest state has them.
  run: async (ctx) => toOutMsgQueueSizes(await outMsgQueueSizes(ctx.lite())),
});
