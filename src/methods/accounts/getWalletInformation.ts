import { toWalletInformation } from '../../converters';
import { param } from '../../params';
import { accountAtSeqno } from '../../chain';
import { atSeqno, defineHandler } from '../define';
import { ref, str, int, bool, tagged, amount } from '../resultSchema';
import { READ_VERBS } from '../types';
import { positiveSeqno } from '../validation';

export default defineHandler({
  name: 'getWalletInformation',
  category: 'accounts',
  verbs: READ_VERBS,
  summary: 'Wallet type, seqno and wallet id of a wallet contract.',
  cache: 'seqno',
  session: atSeqno,
  result: tagged(
    'ext.accounts.walletInformation',
    {
      wallet: bool,
      balance: amount,
      account_state: { enum: ['uninitialized', 'active', 'frozen'] },
      last_transaction_id: ref('TransactionId'),
      wallet_type: str(),
      seqno: int,
      wallet_id: int,
      is_signature_allowed: bool,
    },
    ['wallet', 'balance', 'account_state', 'last_transaction_id'],
  ),
  params: {
    address: param.address(),
    seqno: param.int32().optional(),
  },
  validate: (p) => {
    positiveSeqno(p.seqno);
  },
  run: async (ctx, p) => toWalletInformation(await accountAtSeqno(ctx.lite(), p.address.address, p.seqno)),
});
