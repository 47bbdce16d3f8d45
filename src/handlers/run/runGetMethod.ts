import { param } from '../../params/schema';
import { defineHandler } from '../define';
import { POST_ONLY } from '../types';
import { positiveSeqno } from '../validation';

export default defineHandler({
  name: 'runGetMethod',
  category: 'run',
  verbs: POST_ONLY,
  summary: 'Runs a get-method; legacy stack form (["num","0x..."], ["cell", {...}]).',
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
