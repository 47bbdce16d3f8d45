import { param } from '../../params/schema';
import { defineHandler } from '../define';
import { POST_ONLY } from '../types';
import { positiveSeqno } from '../validation';

export default defineHandler({
  name: 'runGetMethodStd',
  category: 'run',
  verbs: POST_ONLY,
  summary: 'Runs a get-method; typed tonlib stack form (tvm.stackEntry*).',
  params: {
    address: param.address(),
    method: param.methodId(),
    stack: param.jsonArray(),
    seqno: param.strictInt32().optional(),
  },
  validate: (p) => {
    positiveSeqno(p.seqno);
  },
});
