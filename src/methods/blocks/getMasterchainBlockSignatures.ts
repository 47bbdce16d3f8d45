import { masterchainSignatures } from '../../chain';
import { toBlockSignatures, toBlockSignaturesSimplex } from '../../converters';
import { param } from '../../params';
import { atSeqno, defineHandler } from '../define';
import { ref, arrayOf, base64, tagged, hash } from '../resultSchema';
import { READ_VERBS } from '../types';
import { positiveSeqno } from '../validation';

export default defineHandler({
  name: 'getMasterchainBlockSignatures',
  category: 'blocks',
  verbs: READ_VERBS,
  summary: 'Validator signatures of a masterchain block.',
  cache: 'seqno',
  session: atSeqno,
  result: tagged(
    ['blocks.blockSignatures', 'blocks.blockSignaturesSimplex'],
    {
      id: ref('BlockIdExt'),
      signatures: arrayOf(tagged('blocks.signature', { node_id_short: hash, signature: base64('ed25519 signature') })),
    },
    ['id', 'signatures'],
  ),
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
