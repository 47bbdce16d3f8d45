import { toFriendly, toRawForm, param } from '../../params';
import { defineHandler } from '../define';
import { READ_VERBS } from '../types';

export default defineHandler({
  name: 'detectAddress',
  category: 'utils',
  verbs: READ_VERBS,
  summary: 'Every form of an address: raw, bounceable and non-bounceable in both base64 alphabets.',
  params: {
    address: param.address(),
  },
  run: async (_ctx, { address }) => {
    const { workchain, hash } = address;
    // The C++ server keeps the test-only flag of the input in the friendly forms (it re-serialises
    // the parsed address); the 2023 Python recording (detectAddress-03) dropped it there.
    const testOnly = address.testOnly;
    const variant = (bounceable: boolean) => ({
      '@type': 'ext.utils.detectedAddressVariant',
      b64: toFriendly(workchain, hash, { bounceable, testOnly, urlSafe: false }),
      b64url: toFriendly(workchain, hash, { bounceable, testOnly, urlSafe: true }),
    });
    return {
      '@type': 'ext.utils.detectedAddress',
      raw_form: toRawForm(workchain, hash),
      bounceable: variant(true),
      non_bounceable: variant(false),
      given_type: address.form,
      test_only: address.testOnly,
    };
  },
});
