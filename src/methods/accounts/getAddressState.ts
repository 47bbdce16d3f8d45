import { toAddressState } from '../../converters';
import { param } from '../../params';
import { accountAtSeqno } from '../../chain';
import { atSeqno, defineHandler } from '../define';
import { READ_VERBS } from '../types';
import { positiveSeqno } from '../validation';

export default defineHandler({
  name: 'getAddressState',
  category: 'accounts',
  verbs: READ_VERBS,
  summary: 'State of an account: uninitialized, active or frozen.',
  cache: 'seqno',
  session: atSeqno,
  result: { enum: ['uninitialized', 'active', 'frozen'] },
  params: {
    address: param.address(),
    seqno: param.int32().optional(),
  },
  validate: (p) => {
    positiveSeqno(p.seqno);
  },
  run: async (ctx, p) => toAddressState((await accountAtSeqno(ctx.lite(), p.address.address, p.seqno)).account),
});
