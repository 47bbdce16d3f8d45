import { toBlockHeader } from '../../converters/blockHeader';
import { loadBlockHeaderPart, shardIdentToShardId } from '../../converters/blockInfo';
import { param } from '../../params/schema';
import { resolveBlock } from '../blockRefs';
import { defineHandler } from '../define';
import { invalidLiteAnswer, parseLiteAnswer, provenBlockRoot, sameBlock } from '../liteAnswers';
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
    return ctx.lite().run(async (client) => {
      const block = await resolveBlock(client, p);
      const header = await client.getBlockHeader(block);
      if (!sameBlock(header.id, block)) throw invalidLiteAnswer('blockHeader', 'answer is about another block');
      const root = provenBlockRoot(header.headerProof, block, 'blockHeader header proof');
      const part = parseLiteAnswer('blockHeader header proof', () => loadBlockHeaderPart(root));
      const { info } = part;
      if (
        info.seqno !== block.seqno ||
        info.shard.workchainId !== block.workchain ||
        shardIdentToShardId(info.shard) !== BigInt.asUintN(64, BigInt(block.shard))
      ) {
        throw invalidLiteAnswer('blockHeader header proof', 'BlockInfo describes another block');
      }
      return toBlockHeader({ id: block, ...part });
    });
  },
});
