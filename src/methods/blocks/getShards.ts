import { masterchainBlock, shardsAt } from '../../chain';
import { toBlockShards } from '../../converters';
import { param } from '../../params';
import { defineHandler } from '../define';
import { READ_VERBS } from '../types';
import { positiveSeqno } from '../validation';

export default defineHandler({
  name: 'getShards',
  aliases: ['shards'],
  category: 'blocks',
  verbs: READ_VERBS,
  summary: 'Shard block ids referenced by a masterchain block.',
  params: {
    seqno: param.int32(),
  },
  validate: (p) => {
    positiveSeqno(p.seqno);
  },
  run: async (ctx, p) => {
    const session = ctx.lite();
    return toBlockShards(await shardsAt(session, await masterchainBlock(session, p.seqno)));
  },
});
