import { toRawFullAccountState } from '../../converters';
import { param } from '../../params';
import { accountAtSeqno } from '../../chain';
import { defineHandler } from '../define';
import { READ_VERBS } from '../types';
import { positiveSeqno } from '../validation';

export default defineHandler({
  name: 'getAddressInformation',
  category: 'accounts',
  verbs: READ_VERBS,
  summary: 'Balance, code, data and last transaction of an account (raw.fullAccountState).',
  params: {
    address: param.address(),
    seqno: param.int32().optional(),
  },
  validate: (p) => {
    positiveSeqno(p.seqno);
  },
  run: async (ctx, p) => toRawFullAccountState(await accountAtSeqno(ctx.lite(), p.address.address, p.seqno)),
});
