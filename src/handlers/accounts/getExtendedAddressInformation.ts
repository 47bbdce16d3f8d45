import { param } from '../../params/schema';
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
});
