import { toRawFullAccountState } from '../../converters';
import { param } from '../../params';
import { accountAtSeqno } from '../../chain';
import { atSeqno, defineHandler } from '../define';
import { accountStateCommon, str, bool, tagged, boc } from '../resultSchema';
import { READ_VERBS } from '../types';
import { positiveSeqno } from '../validation';

export default defineHandler({
  name: 'getAddressInformation',
  category: 'accounts',
  verbs: READ_VERBS,
  summary: 'Balance, code, data and last transaction of an account (raw.fullAccountState).',
  cache: 'seqno',
  session: atSeqno,
  result: tagged(
    'raw.fullAccountState',
    {
      ...accountStateCommon,
      code: boc,
      data: boc,
      frozen_hash: str('hash of the frozen state, base64; empty otherwise'),
      state: { enum: ['uninitialized', 'active', 'frozen'] },
      suspended: bool,
    },
    ['balance', 'last_transaction_id', 'block_id', 'code', 'data', 'frozen_hash', 'sync_utime', 'state'],
  ),
  params: {
    address: param.address(),
    seqno: param.int32().optional(),
  },
  validate: (p) => {
    positiveSeqno(p.seqno);
  },
  run: async (ctx, p) => toRawFullAccountState(await accountAtSeqno(ctx.lite(), p.address.address, p.seqno)),
});
