import { param } from '../../params/schema';
import { defineHandler } from '../define';
import { parseExternalMessage } from '../../chain';
import { POST_ONLY } from '../types';
import { nonEmptyBoc } from '../validation';

export default defineHandler({
  name: 'sendBoc',
  category: 'send',
  verbs: POST_ONLY,
  summary: 'Sends a signed external message; ok only once a lite server accepted it.',
  params: {
    boc: param.bytes(),
  },
  validate: (p) => {
    nonEmptyBoc(p.boc);
    parseExternalMessage(p.boc);
  },
  run: async (ctx, p) => {
    await ctx.sendMessage(p.boc);
    return { '@type': 'ok' };
  },
});
