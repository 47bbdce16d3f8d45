import { param } from '../../params/schema';
import { defineHandler } from '../define';
import { readTokenData } from '../tokenData';
import { READ_VERBS } from '../types';
import { positiveSeqno } from '../validation';

export default defineHandler({
  name: 'getTokenData',
  category: 'accounts',
  verbs: READ_VERBS,
  summary: 'Jetton master/wallet or NFT collection/item data of a contract.',
  params: {
    address: param.address(),
    seqno: param.int32().optional(),
  },
  validate: (p) => {
    positiveSeqno(p.seqno);
  },
  run: async (ctx, p) => {
    const deadline = Date.now() + ctx.config.requestTimeout;
    return ctx.lite().run((client) => readTokenData(client, p.address, p.seqno, deadline));
  },
});
