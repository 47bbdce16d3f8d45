import { toRawForm, param } from '../../params';
import { atHead, defineHandler } from '../define';
import { str } from '../resultSchema';
import { READ_VERBS } from '../types';

export default defineHandler({
  name: 'unpackAddress',
  category: 'utils',
  verbs: READ_VERBS,
  summary: 'The raw form `<workchain>:<hex>` of an address.',
  cache: 'never',
  session: atHead,
  result: str('raw address, workchain:hex'),
  params: {
    address: param.address(),
  },
  // The C++ server answers uppercase hex (its test_different_address_forms); the 2023 Python
  // recordings were lowercase.
  run: async (_ctx, { address }) => toRawForm(address.workchain, address.hash).toUpperCase(),
});
