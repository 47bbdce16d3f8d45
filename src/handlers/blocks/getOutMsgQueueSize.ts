import { defineHandler } from '../define';
import { READ_VERBS } from '../types';

export default defineHandler({
  name: 'getOutMsgQueueSize',
  category: 'blocks',
  verbs: READ_VERBS,
  summary: 'Outbound message queue sizes of the masterchain and shard tops.',
  params: {},
});
