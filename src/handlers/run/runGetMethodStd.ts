import { parseTypedStack, renderTypedStack } from '../../converters';
import { getMethodParams } from '../sharedParams';
import { defineHandler } from '../define';
import { loadContract, methodIdOf } from '../getMethod';
import { POST_ONLY } from '../types';
import { positiveSeqno } from '../validation';

export default defineHandler({
  name: 'runGetMethodStd',
  category: 'run',
  verbs: POST_ONLY,
  summary: 'Runs a get-method; typed tonlib stack form (tvm.stackEntry*).',
  params: getMethodParams,
  validate: (p) => {
    positiveSeqno(p.seqno);
    methodIdOf(p.method);
  },
  run: async (ctx, p) => {
    const stack = parseTypedStack(p.stack);
    const outcome = await ctx.lite().run(async (client) => (await loadContract(client, p.address.address, p.seqno)).run(p.method, stack));
    return {
      '@type': 'smc.runResult',
      gas_used: outcome.gasUsed,
      stack: renderTypedStack(outcome.stack),
      exit_code: outcome.exitCode,
    };
  },
});
