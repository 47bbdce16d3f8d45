import { toFullAccountState } from '../../converters';
import { param } from '../../params';
import { accountAtSeqno } from '../../chain';
import { defineHandler } from '../define';
import { READ_VERBS } from '../types';

export default defineHandler({
  name: 'getExtendedAddressInformation',
  category: 'accounts',
  verbs: READ_VERBS,
  summary: 'Account state with the contract type recognised (fullAccountState).',
  params: {
    address: param.address(),
    seqno: param.int32().optional(),
  },
  run: async (ctx, p) => {
    const read = await accountAtSeqno(ctx.lite(), p.address.address, p.seqno);
    return toFullAccountState(read, { addressFlags: { bounceable: p.address.bounceable, testOnly: p.address.testOnly } });
  },
});
