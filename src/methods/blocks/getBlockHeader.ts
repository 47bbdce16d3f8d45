import { blockHeader, resolveBlock } from '../../chain';
import { toBlockHeader } from '../../converters';
import { param } from '../../params';
import { defineHandler } from '../define';
import { READ_VERBS } from '../types';
import { positiveSeqno } from '../validation';

export default defineHandler({
  name: 'getBlockHeader',
  category: 'blocks',
  verbs: READ_VERBS,
  summary: 'Header fields of a block.',
  params: {
    workchain: param.int32(),
    shard: param.int64(),
    seqno: param.int32(),
    root_hash: param.hash().optional(),
    file_hash: param.hash().optional(),
  },
  validate: (p) => {
    positiveSeqno(p.seqno);
  },
  run: async (ctx, p) => {
    const session = ctx.lite();
    return toBlockHeader(await blockHeader(session, await resolveBlock(session, p)));
  },
});
