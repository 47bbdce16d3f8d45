import { toTvmCell } from '../../converters';
import { param } from '../../params';
import { accountAtSeqno, shardAccountCell } from '../../chain';
import { defineHandler } from '../define';
import { READ_VERBS } from '../types';
import { positiveSeqno } from '../validation';

export default defineHandler({
  name: 'getShardAccountCell',
  category: 'accounts',
  verbs: READ_VERBS,
  summary: 'The ShardAccount cell of an account as a BoC (tvm.cell).',
  params: {
    address: param.address(),
    seqno: param.int32().optional(),
  },
  validate: (p) => {
    positiveSeqno(p.seqno);
  },
  run: async (ctx, p) => toTvmCell(shardAccountCell(await accountAtSeqno(ctx.lite(), p.address.address, p.seqno))),
});
