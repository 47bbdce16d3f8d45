import { param } from '../../params/schema';
import { defineHandler } from '../define';
import { queryMessage } from '../../chain';
import { estimateExternalMessageFees } from '../fees';
import { POST_ONLY } from '../types';

export default defineHandler({
  name: 'estimateFee',
  category: 'send',
  verbs: POST_ONLY,
  summary: 'Estimates the fees of an external message (query.fees).',
  params: {
    address: param.address(),
    body: param.bytes(),
    init_code: param.bytes().withDefault(Buffer.alloc(0)),
    init_data: param.bytes().withDefault(Buffer.alloc(0)),
    ignore_chksig: param.strictBool().withDefault(true),
  },
  run: async (ctx, p) => {
    const message = queryMessage(p.address.address, p.body, p.init_code, p.init_data);
    const deadline = Date.now() + ctx.config.requestTimeout;
    return ctx.lite().run((client) => estimateExternalMessageFees(client, p.address.address, message, p.ignore_chksig, deadline));
  },
});
