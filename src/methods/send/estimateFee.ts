import { param } from '../../params';
import { atHead, defineHandler } from '../define';
import { arrayOf, tagged, int } from '../resultSchema';
import { buildQueryMessage } from '../../tvm';
import { estimateFeeAt } from '../../chain';
import { POST_ONLY } from '../types';

const feesObject = tagged('fees', { in_fwd_fee: int, storage_fee: int, gas_fee: int, fwd_fee: int });

export default defineHandler({
  name: 'estimateFee',
  category: 'send',
  verbs: POST_ONLY,
  summary: 'Estimates the fees of an external message (query.fees).',
  // A send-side read: its answer depends on the message only at the head it runs at, which it reads itself.
  cache: 'never',
  session: atHead,
  result: tagged('query.fees', { source_fees: feesObject, destination_fees: arrayOf(feesObject) }),
  params: {
    address: param.address(),
    body: param.bytes(),
    init_code: param.bytes().withDefault(Buffer.alloc(0)),
    init_data: param.bytes().withDefault(Buffer.alloc(0)),
    ignore_chksig: param.strictBool().withDefault(true),
  },
  run: async (ctx, p) => {
    const message = await buildQueryMessage(p.address.address, p.body, p.init_code, p.init_data, ctx.deadline);
    const session = ctx.lite();
    const block = (await session.head()).last;
    return estimateFeeAt(session, block, { address: p.address.address, message, ignoreChksig: p.ignore_chksig, deadline: ctx.deadline });
  },
});
