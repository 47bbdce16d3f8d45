import { param } from '../../params/schema';
import { defineHandler, invalid } from '../define';
import { buildExternalMessage, parseCellParam, stateInitOf } from '../externalMessage';
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
    return ctx.lite().run((client) => estimateExternalMessageFees(client, p.address.address, message, p.ignore_chksig));
  },
});
