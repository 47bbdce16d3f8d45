import { toTvmCell } from '../../converters';
import { param } from '../../params';
import { accountAtSeqno, shardAccountCell } from '../../chain';
import { atSeqno, defineHandler } from '../define';
import { ref } from '../resultSchema';
import { READ_VERBS } from '../types';
import { positiveSeqno } from '../validation';

export default defineHandler({
  name: 'getShardAccountCell',
  category: 'accounts',
  verbs: READ_VERBS,
  summary: 'The ShardAccount cell of an account as a BoC (tvm.cell).',
  cache: 'seqno',
  session: atSeqno,
  result: ref('TvmCell'),
  params: {
    address: param.address(),
    seqno: param.int32().optional(),
  },
  validate: (p) => {
    positiveSeqno(p.seqno);
  },
  run: async (ctx, p) => toTvmCell(shardAccountCell(await accountAtSeqno(ctx.lite(), p.address.address, p.seqno))),
});
