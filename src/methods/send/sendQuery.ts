import { param } from '../../params';
import { atHead, defineHandler } from '../define';
import { tagged } from '../resultSchema';
import { buildQueryMessage } from '../../tvm';
import { POST_ONLY } from '../types';

export default defineHandler({
  name: 'sendQuery',
  category: 'send',
  verbs: POST_ONLY,
  summary: 'Builds an external message from address, body and init and sends it.',
  cache: 'never',
  session: atHead,
  result: tagged('ok', {}),
  params: {
    address: param.address(),
    body: param.bytes(),
    init_code: param.bytes().withDefault(Buffer.alloc(0)),
    init_data: param.bytes().withDefault(Buffer.alloc(0)),
  },
  run: async (ctx, p) => {
    const message = await buildQueryMessage(p.address.address, p.body, p.init_code, p.init_data, ctx.deadline);
    await ctx.sendMessage(message.boc);
    return { '@type': 'ok' };
  },
});
