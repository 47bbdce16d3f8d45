import { locateSourceTransaction } from '../../chain';
import { toTransactionJson } from '../../converters';
import { locateParams } from '../sharedParams';
import { atHead, defineHandler, invalid } from '../define';
import { ref } from '../resultSchema';
import { READ_VERBS } from '../types';

export default defineHandler({
  name: 'tryLocateSourceTx',
  category: 'transactions',
  verbs: READ_VERBS,
  summary: 'The transaction on source that sent the message to destination with created_lt.',
  cache: 'head',
  session: atHead,
  result: ref('Transaction'),
  params: locateParams,
  validate: (p) => {
    if (p.created_lt < 0n) invalid('created_lt should be non-negative');
  },
  run: async (ctx, p) => {
    const ref = { source: p.source.address, destination: p.destination.address, createdLt: p.created_lt };
    const tx = await locateSourceTransaction(ctx.lite(), ref);
    return toTransactionJson(tx, ref.source.workChain);
  },
});
