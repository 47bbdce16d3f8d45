import { configAllAt, masterchainBlockAt } from '../../chain';
import { toConfigInfo } from '../../converters';
import { param } from '../../params';
import { atSeqno, defineHandler } from '../define';
import { ref, tagged } from '../resultSchema';
import { READ_VERBS } from '../types';
import { positiveSeqno } from '../validation';

export default defineHandler({
  name: 'getConfigAll',
  category: 'config',
  verbs: READ_VERBS,
  summary: 'The whole blockchain config dictionary as a cell (configInfo).',
  cache: 'seqno',
  session: atSeqno,
  result: tagged('configInfo', { config: ref('TvmCell') }),
  params: {
    seqno: param.int32().optional(),
  },
  validate: (p) => {
    positiveSeqno(p.seqno);
  },
  run: async (ctx, p) => {
    const session = ctx.lite();
    return toConfigInfo(await configAllAt(session, await masterchainBlockAt(session, p.seqno)));
  },
});
