import { toConfigInfo } from '../../converters/config';
import { param } from '../../params/schema';
import { masterchainBlockAt } from '../blockRefs';
import { configDictionary } from '../configProof';
import { defineHandler } from '../define';
import { liteQuery, tlBlockId } from '../liteAnswers';
import { READ_VERBS } from '../types';
import { positiveSeqno } from '../validation';

export default defineHandler({
  name: 'getConfigAll',
  category: 'config',
  verbs: READ_VERBS,
  summary: 'The whole blockchain config dictionary as a cell (configInfo).',
  params: {
    seqno: param.int32().optional(),
  },
  validate: (p) => {
    positiveSeqno(p.seqno);
  },
  run: async (ctx, p) => {
    const dict = await ctx.lite().run(async (client) => {
      const block = await masterchainBlockAt(client, p.seqno);
      const answer = await liteQuery(client, { kind: 'liteServer.getConfigAll', mode: 0, id: tlBlockId(block) });
      return configDictionary(answer, block);
    });
    return toConfigInfo(dict);
  },
});
