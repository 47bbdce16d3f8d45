import { toWalletInformation } from '../../converters';
import { param } from '../../params';
import { accountAtSeqno } from '../../chain';
import { defineHandler } from '../define';
import { READ_VERBS } from '../types';
import { positiveSeqno } from '../validation';

export default defineHandler({
  name: 'getWalletInformation',
  category: 'accounts',
  verbs: READ_VERBS,
  summary: 'Wallet type, seqno and wallet id of a wallet contract.',
  params: {
    address: param.address(),
    seqno: param.int32().optional(),
  },
  validate: (p) => {
    positiveSeqno(p.seqno);
  },
  run: async (ctx, p) => toWalletInformation(await accountAtSeqno(ctx.lite(), p.address.address, p.seqno)),
});
