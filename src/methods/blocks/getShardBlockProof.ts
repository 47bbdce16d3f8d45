import { masterchainBlockAt, resolveBlock, shardBlockProof } from '../../chain';
import { toShardBlockProof } from '../../converters';
import { param } from '../../params';
import { atHead, defineHandler, invalid } from '../define';
import { ref, arrayOf, tagged, boc } from '../resultSchema';
import { READ_VERBS } from '../types';
import { positiveSeqno } from '../validation';

export default defineHandler({
  name: 'getShardBlockProof',
  category: 'blocks',
  verbs: READ_VERBS,
  summary: 'Proof that links a shard block to a masterchain block.',
  cache: 'head',
  session: atHead,
  result: tagged('blocks.shardBlockProof', {
    from: ref('BlockIdExt'),
    mc_id: ref('BlockIdExt'),
    links: arrayOf(tagged('blocks.shardBlockLink', { id: ref('BlockIdExt'), proof: boc })),
    mc_proof: arrayOf({ type: 'object', required: ['@type'] }),
  }),
  params: {
    workchain: param.int32(),
    shard: param.int64(),
    seqno: param.int32(),
    from_seqno: param.int32().optional(),
  },
  validate: (p) => {
    positiveSeqno(p.seqno);
    if (p.from_seqno !== undefined && p.from_seqno < 0) invalid('from_seqno should be non-negative');
  },
  run: async (ctx, p) => {
    const session = ctx.lite();
    const block = await resolveBlock(session, p);
    return toShardBlockProof(await shardBlockProof(session, block, await masterchainBlockAt(session, p.from_seqno)));
  },
});
