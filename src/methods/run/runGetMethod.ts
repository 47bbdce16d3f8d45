import { toBlockIdExt, toLastTransactionId } from '../../converters';
import { masterchainBlockAt, methodIdOf, runGetMethodAt, tvmStack } from '../../chain';
import { legacyGetMethodParams } from '../sharedParams';
import { atSeqno, defineHandler } from '../define';
import { ref, arrayOf, tagged, runResult } from '../resultSchema';
import { POST_ONLY } from '../types';
import { positiveSeqno } from '../validation';

export default defineHandler({
  name: 'runGetMethod',
  category: 'run',
  verbs: POST_ONLY,
  summary: 'Runs a get-method; legacy stack form (["num","0x..."], ["cell", {...}]).',
  cache: 'seqno',
  session: atSeqno,
  result: tagged('smc.runResult', { ...runResult, stack: arrayOf(ref('StackEntry')) }, ['gas_used', 'exit_code', 'stack']),
  params: legacyGetMethodParams,
  validate: (p) => {
    positiveSeqno(p.seqno);
    methodIdOf(p.method);
  },
  run: async (ctx, p) => {
    const stack = tvmStack(p.stack);
    const session = ctx.lite();
    const block = await masterchainBlockAt(session, p.seqno);
    const { read, outcome } = await runGetMethodAt(session, block, {
      address: p.address.address,
      method: p.method,
      stack,
      form: 'legacy',
      deadline: ctx.deadline,
    });
    return {
      '@type': 'smc.runResult',
      gas_used: outcome.gasUsed,
      stack: outcome.stack,
      exit_code: outcome.exitCode,
      block_id: toBlockIdExt(read.block),
      last_transaction_id: toLastTransactionId(read.lastTransaction),
    };
  },
});
