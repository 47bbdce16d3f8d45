import { toConfigInfo } from '../../converters/config';
import { param } from '../../params/schema';
import { masterchainBlockAt } from '../blockRefs';
import { configDictionary, configParam } from '../configProof';
import { defineHandler } from '../define';
import { liteQuery, tlBlockId } from '../liteAnswers';
import { READ_VERBS } from '../types';
import { configParamSelector, positiveSeqno } from '../validation';

export default defineHandler({
  name: 'getConfigParam',
  category: 'config',
  verbs: READ_VERBS,
  summary: 'One blockchain config parameter as a cell (configInfo).',
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
    const value = await ctx.lite().run(async (client) => {
      const block = await masterchainBlockAt(client, p.seqno);
      const answer = await liteQuery(client, { kind: 'liteServer.getConfigParams', mode: 0, id: tlBlockId(block), paramList: [id] });
      return configParam(configDictionary(answer, block), id);
    });
    return toConfigInfo(value);
  },
});
