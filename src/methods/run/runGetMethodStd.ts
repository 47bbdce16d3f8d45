import { masterchainBlockAt, methodIdOf, runGetMethodAt, tvmStack } from '../../chain';
import { typedGetMethodParams } from '../sharedParams';
import { atSeqno, defineHandler } from '../define';
import { ref, arrayOf, tagged, runResult } from '../resultSchema';
import { POST_ONLY } from '../types';
import { positiveSeqno } from '../validation';

export default defineHandler({
  name: 'runGetMethodStd',
  category: 'run',
  verbs: POST_ONLY,
  summary: 'Runs a get-method; typed tonlib stack form (tvm.stackEntry*).',
  cache: 'seqno',
  session: atSeqno,
  result: tagged('smc.runResult', { ...runResult, stack: arrayOf(ref('TypedStackEntry')) }, ['gas_used', 'exit_code', 'stack']),
  params: typedGetMethodParams,
  validate: (p) => {
    positiveSeqno(p.seqno);
    methodIdOf(p.method);
  },
  run: async (ctx, p) => {
    const stack = tvmStack(p.stack);
    const session = ctx.lite();
    const block = await masterchainBlockAt(session, p.seqno);
    const { outcome } = await runGetMethodAt(session, block, {
      address: p.address.address,
      method: p.method,
      stack,
      form: 'typed',
      deadline: ctx.deadline,
    });
    return {
      '@type': 'smc.runResult',
      gas_used: outcome.gasUsed,
      stack: outcome.stack,
      exit_code: outcome.exitCode,
    };
  },
});
