import { toBlockSignatures, toBlockSignaturesSimplex } from '../../converters/signatures';
import { param } from '../../params/schema';
import { FULL_SHARD, masterchainBlock } from '../blockRefs';
import { defineHandler } from '../define';
import { invalidLiteAnswer, masterchainProofLinks, sameBlock } from '../liteAnswers';
import { READ_VERBS } from '../types';
import { positiveSeqno } from '../validation';

export default defineHandler({
  name: 'getMasterchainBlockSignatures',
  category: 'blocks',
  verbs: READ_VERBS,
  summary: 'Validator signatures of a masterchain block.',
  params: {
    seqno: param.int32(),
  },
  validate: (p) => {
    positiveSeqno(p.seqno);
  },
  run: async (ctx, p) => {
    return ctx.lite().run(async (client) => {
      // As tonlib: the proof from the previous block to this one ends in a forward link that carries
      // the validators' signatures of this block. Block 1's predecessor is the zerostate.
      const previous =
        p.seqno === 1
          ? { ...(await client.getMasterchainInfo()).init, shard: FULL_SHARD, seqno: 0 }
          : await masterchainBlock(client, p.seqno - 1);
      const block = await masterchainBlock(client, p.seqno);
      const links = await masterchainProofLinks(client, previous, block);
      const last = links[links.length - 1];
      if (!last || last.kind !== 'liteServer.blockLinkForward' || !sameBlock(last.to, block)) {
        throw invalidLiteAnswer('partialBlockProof', 'the proof does not end in a signed link to the block');
      }
      const set = last.signatures;
      if (set.signatures.length === 0) throw invalidLiteAnswer('partialBlockProof', 'the link to the block carries no signatures');
      if (set.kind === 'liteServer.signatureSet.simplex') {
        return toBlockSignaturesSimplex({
          id: block,
          signatures: set.signatures,
          sessionId: set.sessionId,
          slot: set.slot,
          candidate: set.candidate,
        });
      }
      return toBlockSignatures(block, set.signatures);
    });
  },
});
