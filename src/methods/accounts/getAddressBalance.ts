import { toAddressBalance } from '../../converters';
import { param } from '../../params';
import { accountAtSeqno } from '../../chain';
import { atSeqno, defineHandler } from '../define';
import { decimal } from '../resultSchema';
import { READ_VERBS } from '../types';
import { positiveSeqno } from '../validation';

export default defineHandler({
  name: 'getAddressBalance',
  category: 'accounts',
  verbs: READ_VERBS,
  summary: 'Balance of an account in nanotons, as a string.',
  cache: 'seqno',
  session: atSeqno,
  result: decimal('nanotons'),
  params: {
    address: param.address(),
    seqno: param.int32().optional(),
  },
  validate: (p) => {
    positiveSeqno(p.seqno);
  },
  run: async (ctx, p) => toAddressBalance((await accountAtSeqno(ctx.lite(), p.address.address, p.seqno)).account),
});
