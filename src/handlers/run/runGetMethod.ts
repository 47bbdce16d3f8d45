import { parseLegacyStack, renderLegacyStack, toBlockIdExt, toLastTransactionId } from '../../converters';
import { getMethodParams } from '../sharedParams';
import { defineHandler } from '../define';
import { loadContract, methodIdOf } from '../getMethod';
import { POST_ONLY } from '../types';
import { positiveSeqno } from '../validation';

export default defineHandler({
  name: 'runGetMethod',
  category: 'run',
  verbs: POST_ONLY,
  summary: 'Runs a get-method; legacy stack form (["num","0x..."], ["cell", {...}]).',
  params: getMethodParams,
  validate: (p) => {
    positiveSeqno(p.seqno);
    methodIdOf(p.method);
  },
  run: async (ctx, p) => {
    const stack = parseLegacyStack(p.stack);
    const { read, outcome } = await ctx.lite().run(async (client) => {
      const contract = await loadContract(client, p.address.address, p.seqno);
      return { read: contract.read, outcome: await contract.run(p.method, stack) };
    });
    return {
      '@type': 'smc.runResult',
      gas_used: outcome.gasUsed,
      stack: renderLegacyStack(outcome.stack),
      exit_code: outcome.exitCode,
      block_id: toBlockIdExt(read.block),
      last_transaction_id: toLastTransactionId(read.lastTransaction),
    };
  },
});
