import { toFriendly, param } from '../../params';
import { atHead, defineHandler } from '../define';
import { str } from '../resultSchema';
import { READ_VERBS } from '../types';

export default defineHandler({
  name: 'packAddress',
  category: 'utils',
  verbs: READ_VERBS,
  summary: 'The friendly form of an address (URL-safe base64, the input flags kept; raw input is bounceable).',
  cache: 'never',
  session: atHead,
  result: str('friendly address'),
  params: {
    address: param.address(),
  },
  // The C++ server serialises URL-safe (`rserialize(true)`); the 2023 Python recording
  // (packAddress-01) is standard base64.
  run: async (_ctx, { address }) =>
    toFriendly(address.workchain, address.hash, {
      bounceable: address.bounceable,
      testOnly: address.testOnly,
      urlSafe: true,
    }),
});
