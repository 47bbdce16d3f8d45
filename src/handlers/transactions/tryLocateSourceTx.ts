import { param } from '../../params/schema';
import { defineHandler, invalid } from '../define';
import { READ_VERBS } from '../types';

export default defineHandler({
  name: 'tryLocateSourceTx',
  category: 'transactions',
  verbs: READ_VERBS,
  summary: 'The transaction on source that sent the message to destination with created_lt.',
  params: {
    source: param.address(),
    destination: param.address(),
    created_lt: param.int64(),
  },
  validate: (p) => {
    if (p.created_lt < 0n) invalid('created_lt should be non-negative');
  },
});
