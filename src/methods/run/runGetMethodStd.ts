import { parseTypedStack } from '../../converters';
import { masterchainBlockAt, methodIdOf, runGetMethodAt, tvmStack } from '../../chain';
import { getMethodParams } from '../sharedParams';
import { defineHandler } from '../define';
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
    // The stack's bounds are part of parsing (422 before the cache, the head or a lite server).
    parseTypedStack(p.stack);
  },
  run: async (ctx, p) => {
    // Checked in validate; parsed again here (at most 256 entries, so cheap).
    const stack = tvmStack(parseTypedStack(p.stack));
    const deadline = Date.now() + ctx.config.requestTimeout;
    const session = ctx.lite();
    const block = await masterchainBlockAt(session, p.seqno);
    const { outcome } = await runGetMethodAt(session, block, {
      address: p.address.address,
      method: p.method,
      stack,
      form: 'typed',
      deadline,
    });
    return {
      '@type': 'smc.runResult',
      gas_used: outcome.gasUsed,
      stack: outcome.stack,
      exit_code: outcome.exitCode,
    };
  },
});
