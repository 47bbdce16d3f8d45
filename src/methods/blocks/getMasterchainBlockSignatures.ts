import { masterchainSignatures } from '../../chain';
import { toBlockSignatures, toBlockSignaturesSimplex } from '../../converters';
import { param } from '../../params';
import { defineHandler } from '../define';
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
    const { block, set } = await masterchainSignatures(ctx.lite(), p.seqno);
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
  },
});
