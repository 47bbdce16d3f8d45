import { configParamAt, masterchainBlockAt } from '../../chain';
import { toConfigInfo } from '../../converters';
import { param } from '../../params';
import { atSeqno, defineHandler } from '../define';
import { ref, tagged } from '../resultSchema';
import { READ_VERBS } from '../types';
import { configParamSelector, positiveSeqno } from '../validation';

export default defineHandler({
  name: 'getConfigParam',
  category: 'config',
  verbs: READ_VERBS,
  summary: 'One blockchain config parameter as a cell (configInfo).',
  cache: 'seqno',
  session: atSeqno,
  result: tagged('configInfo', { config: ref('TvmCell') }),
  params: {
    param: param.int32().optional(),
    config_id: param.int32().optional(),
    seqno: param.int32().optional(),
  },
  validate: (p) => {
    configParamSelector(p);
    positiveSeqno(p.seqno);
  },
  run: async (ctx, p) => {
    // configParamSelector guarantees one of them; on GET config_id wins, as in toncenter.
    const id = p.config_id ?? p.param ?? 0;
    const session = ctx.lite();
    return toConfigInfo(await configParamAt(session, await masterchainBlockAt(session, p.seqno), id));
  },
});
