import { param } from '../../params/schema';
import { defineHandler, invalid } from '../define';
import { buildExternalMessage, parseCellParam, sendToLiteServer, stateInitOf } from '../externalMessage';
import { POST_ONLY } from '../types';

export default defineHandler({
  name: 'sendQuery',
  category: 'send',
  verbs: POST_ONLY,
  summary: 'Builds an external message from address, body and init and sends it.',
  params: {
    address: param.address(),
    body: param.bytes(),
    init_code: param.bytes().withDefault(Buffer.alloc(0)),
    init_data: param.bytes().withDefault(Buffer.alloc(0)),
  },
  validate: (p) => {
    if (!parseCellParam('body', p.body)) invalid('empty body');
    parseCellParam('init_code', p.init_code);
    parseCellParam('init_data', p.init_data);
  },
  run: async (ctx, p) => {
    const body = parseCellParam('body', p.body);
    if (!body) invalid('empty body');
    const init = stateInitOf(parseCellParam('init_code', p.init_code), parseCellParam('init_data', p.init_data));
    const message = buildExternalMessage(p.address.address, body, init);
    await ctx.lite().run((client) => sendToLiteServer(client, message));
    return { '@type': 'ok' };
  },
});
