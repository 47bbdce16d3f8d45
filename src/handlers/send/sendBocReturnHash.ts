import { toExtMessageInfo } from '../../converters/extMessage';
import { param } from '../../params/schema';
import { defineHandler } from '../define';
import { parseExternalMessage } from '../../chain';
import { POST_ONLY } from '../types';
import { nonEmptyBoc } from '../validation';

export default defineHandler({
  name: 'sendBocReturnHash',
  category: 'send',
  verbs: POST_ONLY,
  summary: 'Sends a signed external message and returns its hash and normalized hash.',
  params: {
    boc: param.bytes(),
  },
  validate: (p) => {
    nonEmptyBoc(p.boc);
    parseExternalMessage(p.boc);
  },
  run: async (ctx, p) => {
    const message = parseExternalMessage(p.boc);
    await ctx.sendMessage(p.boc);
    return toExtMessageInfo(message);
  },
});
