import { parseLegacyStack, toBlockIdExt, toLastTransactionId } from '../../converters';
import { masterchainBlockAt, methodIdOf, runGetMethodAt, tvmStack } from '../../chain';
import { getMethodParams } from '../sharedParams';
import { defineHandler } from '../define';
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
    // The stack's bounds are part of parsing (422 before the cache, the head or a lite server).
    parseLegacyStack(p.stack);
  },
  run: async (ctx, p) => {
    // Checked in validate; parsed again here (at most 256 entries, so cheap).
    const stack = tvmStack(parseLegacyStack(p.stack));
    const deadline = Date.now() + ctx.config.requestTimeout;
    const session = ctx.lite();
    const block = await masterchainBlockAt(session, p.seqno);
    const { read, outcome } = await runGetMethodAt(session, block, {
      address: p.address.address,
      method: p.method,
      stack,
      form: 'legacy',
      deadline,
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
