import { param } from '../../params/schema';
import { defineHandler } from '../define';
import { READ_VERBS } from '../types';
import { configParamSelector, positiveSeqno } from '../validation';

export default defineHandler({
  name: 'getConfigParam',
  category: 'config',
  verbs: READ_VERBS,
  summary: 'One blockchain config parameter as a cell (configInfo).',
  params: {
    param: param.int32().optional(),
    config_id: param.int32().optional(),
    seqno: param.int32().optional(),
  },
  validate: (p) => {
    configParamSelector(p);
    positiveSeqno(p.seqno);
  },
});
