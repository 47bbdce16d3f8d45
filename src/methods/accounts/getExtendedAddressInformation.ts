import { toFullAccountState } from '../../converters';
import { param } from '../../params';
import { accountAtSeqno } from '../../chain';
import { atSeqno, defineHandler } from '../define';
import { accountStateCommon, ref, str, int, tagged } from '../resultSchema';
import { READ_VERBS } from '../types';

export default defineHandler({
  name: 'getExtendedAddressInformation',
  category: 'accounts',
  verbs: READ_VERBS,
  summary: 'Account state with the contract type recognised (fullAccountState).',
  cache: 'seqno',
  session: atSeqno,
  result: tagged(
    'fullAccountState',
    {
      address: ref('AccountAddress'),
      ...accountStateCommon,
      account_state: {
        type: 'object',
        required: ['@type'],
        properties: { '@type': str('raw.accountState, wallet.v4.accountState, uninited.accountState...') },
      },
      revision: int,
    },
    ['address', 'balance', 'last_transaction_id', 'block_id', 'sync_utime', 'account_state', 'revision'],
  ),
  params: {
    address: param.address(),
    seqno: param.int32().optional(),
  },
  run: async (ctx, p) => {
    const read = await accountAtSeqno(ctx.lite(), p.address.address, p.seqno);
    return toFullAccountState(read, { addressFlags: { bounceable: p.address.bounceable, testOnly: p.address.testOnly } });
  },
});
