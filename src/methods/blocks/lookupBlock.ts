import { blockByLt, blockBySeqno, blockByUtime } from '../../chain';
import { toBlockIdExt } from '../../converters';
import { param } from '../../params';
import { atHead, defineHandler, invalid } from '../define';
import { ref } from '../resultSchema';
import { READ_VERBS } from '../types';
import { positiveSeqno } from '../validation';

export default defineHandler({
  name: 'lookupBlock',
  category: 'blocks',
  verbs: READ_VERBS,
  summary: 'Finds a block by seqno, logical time or unix time.',
  cache: 'head',
  session: atHead,
  result: ref('BlockIdExt'),
  params: {
    workchain: param.int32(),
    shard: param.int64(),
    seqno: param.int32().optional(),
    lt: param.int64().optional(),
    unixtime: param.int32().optional(),
  },
  validate: (p) => {
    const given = [p.seqno, p.lt, p.unixtime].filter((value) => value !== undefined).length;
    if (given !== 1) invalid('exactly one of seqno, lt, unixtime should be specified');
    positiveSeqno(p.seqno);
    if (p.lt !== undefined && p.lt < 0n) invalid('lt should be non-negative');
    if (p.unixtime !== undefined && p.unixtime < 0) invalid('unixtime should be non-negative');
  },
  run: async (ctx, p) => {
    const session = ctx.lite();
    const shard = { workchain: p.workchain, shard: BigInt.asIntN(64, p.shard).toString() };
    if (p.seqno !== undefined) return toBlockIdExt(await blockBySeqno(session, shard, p.seqno));
    if (p.lt !== undefined) return toBlockIdExt(await blockByLt(session, shard, p.lt));
    return toBlockIdExt(await blockByUtime(session, shard, p.unixtime ?? 0));
  },
});
