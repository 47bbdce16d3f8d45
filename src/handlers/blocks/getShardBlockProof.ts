import { toShardBlockProof, type BlockLinkBackInput } from '../../converters/shardBlockProof';
import { ApiError } from '../../errors';
import { param } from '../../params/schema';
import { MASTERCHAIN, masterchainBlockAt, resolveBlock } from '../blockRefs';
import { defineHandler, invalid } from '../define';
import { invalidLiteAnswer, liteQuery, masterchainProofLinks, optionalBocRoot, sameBlock, tlBlockId } from '../liteAnswers';
import { READ_VERBS } from '../types';
import { positiveSeqno } from '../validation';

export default defineHandler({
  name: 'getShardBlockProof',
  category: 'blocks',
  verbs: READ_VERBS,
  summary: 'Proof that links a shard block to a masterchain block.',
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
    return ctx.lite().run(async (client) => {
      const block = await resolveBlock(client, p);
      const from = await masterchainBlockAt(client, p.from_seqno);
      const shardProof = await liteQuery(client, { kind: 'liteServer.getShardBlockProof', id: tlBlockId(block) });
      const mcId = shardProof.masterchainId;
      if (mcId.workchain !== MASTERCHAIN) throw invalidLiteAnswer('shardBlockProof', 'masterchain_id is not a masterchain block');
      // tonlib refuses chains of more than 8 shard links.
      if (shardProof.links.length > 8) throw invalidLiteAnswer('shardBlockProof', 'chain is too long');
      // tonlib's text: the shard block was registered after the block the proof should start from.
      if (mcId.seqno > from.seqno) throw new ApiError(500, 'from mc block is too old');
      const mcProof: BlockLinkBackInput[] = [];
      if (!sameBlock(mcId, from)) {
        const links = await masterchainProofLinks(client, from, mcId);
        if (links.length > 1)
          throw invalidLiteAnswer('partialBlockProof', 'not a one-link proof from the start block to the masterchain block');
        for (const step of links) {
          if (step.kind !== 'liteServer.blockLinkBack') throw invalidLiteAnswer('partialBlockProof', 'expected a backward link');
          mcProof.push({
            toKeyBlock: step.toKeyBlock,
            from: step.from,
            to: step.to,
            destProof: optionalBocRoot(step.destProof, 'blockLinkBack dest_proof'),
            proof: optionalBocRoot(step.proof, 'blockLinkBack proof'),
            stateProof: optionalBocRoot(step.stateProof, 'blockLinkBack state_proof'),
          });
        }
      }
      return toShardBlockProof({ from, mcId, links: shardProof.links, mcProof });
    });
  },
});
