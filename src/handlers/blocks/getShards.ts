import { loadShardHashesTopBlocks } from '../../converters/shardHashes';
import { toBlockShards } from '../../converters/shards';
import { param } from '../../params/schema';
import { masterchainBlock } from '../blockRefs';
import { defineHandler } from '../define';
import { bocRoot, invalidLiteAnswer, liteQuery, parseLiteAnswer, sameBlock, tlBlockId } from '../liteAnswers';
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
    const shards = await ctx.lite().run(async (client) => {
      const block = await masterchainBlock(client, p.seqno);
      const answer = await liteQuery(client, { kind: 'liteServer.getAllShardsInfo', id: tlBlockId(block) });
      if (!sameBlock(answer.id, block)) throw invalidLiteAnswer('allShardsInfo', 'answer is about another block');
      const data = bocRoot(answer.data, 'allShardsInfo data');
      return parseLiteAnswer('allShardsInfo data', () => loadShardHashesTopBlocks(data.beginParse()));
    });
    return toBlockShards(shards);
  },
});
