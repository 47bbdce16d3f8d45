import { param } from '../../params';
import { atHead, defineHandler } from '../define';
import { tagged } from '../resultSchema';
import { checkSendableBoc, externalMessageInfo } from '../../tvm';
import { POST_ONLY } from '../types';

export default defineHandler({
  name: 'sendBoc',
  category: 'send',
  verbs: POST_ONLY,
  summary: 'Sends a signed external message; ok only once a lite server accepted it.',
  cache: 'never',
  session: atHead,
  result: tagged('ok', {}),
  params: {
    boc: param.bytes(),
  },
  validate: (p) => checkSendableBoc(p.boc),
  run: async (ctx, p) => {
    await externalMessageInfo(p.boc, ctx.deadline);
    await ctx.sendMessage(p.boc);
    return { '@type': 'ok' };
  },
});
