import { param } from '../../params/schema';
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
});
