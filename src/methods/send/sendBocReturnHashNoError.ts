import { ApiError, LiteServerError } from '../../errors';
import { param } from '../../params';
import { atHead, defineHandler } from '../define';
import { extMessageInfo } from '../resultSchema';
import { checkSendableBoc, externalMessageInfo } from '../../tvm';
import { POST_ONLY } from '../types';

/** A message that cannot be sent is the caller's problem here: 400 with the reason, never 422/500. */
function asBadRequest(err: unknown): unknown {
  if ((err instanceof ApiError && err.kind === 'badInput') || err instanceof LiteServerError) return new ApiError('badRequest', err.message);
  return err;
}

export default defineHandler({
  name: 'sendBocReturnHashNoError',
  category: 'send',
  verbs: POST_ONLY,
  summary: 'As sendBocReturnHash, but a rejected message is a 400.',
  cache: 'never',
  session: atHead,
  result: extMessageInfo,
  params: {
    boc: param.bytes(),
  },
  run: async (ctx, p) => {
    try {
      checkSendableBoc(p.boc);
      const info = await externalMessageInfo(p.boc, ctx.deadline);
      await ctx.sendMessage(p.boc);
      return info;
    } catch (err) {
      throw asBadRequest(err);
    }
  },
});
