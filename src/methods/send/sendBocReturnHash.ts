import { param } from '../../params';
import { atHead, defineHandler } from '../define';
import { extMessageInfo } from '../resultSchema';
import { checkSendableBoc, externalMessageInfo } from '../../tvm';
import { POST_ONLY } from '../types';

export default defineHandler({
  name: 'sendBocReturnHash',
  category: 'send',
  verbs: POST_ONLY,
  summary: 'Sends a signed external message and returns its hash and normalized hash.',
  cache: 'never',
  session: atHead,
  result: extMessageInfo,
  params: {
    boc: param.bytes(),
  },
  validate: (p) => checkSendableBoc(p.boc),
  run: async (ctx, p) => {
    const info = await externalMessageInfo(p.boc, ctx.deadline);
    await ctx.sendMessage(p.boc);
    return info;
  },
});
