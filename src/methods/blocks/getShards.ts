import { masterchainBlock, shardsAt } from '../../chain';
import { toBlockShards } from '../../converters';
import { param } from '../../params';
import { atSeqno, defineHandler } from '../define';
import { ref, arrayOf, tagged } from '../resultSchema';
import { READ_VERBS } from '../types';
import { positiveSeqno } from '../validation';

export default defineHandler({
  name: 'getShards',
  aliases: ['shards'],
  category: 'blocks',
  verbs: READ_VERBS,
  summary: 'Shard block ids referenced by a masterchain block.',
  cache: 'seqno',
  session: atSeqno,
  result: tagged('blocks.shards', { shards: arrayOf(ref('BlockIdExt')) }),
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
