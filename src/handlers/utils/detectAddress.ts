import { toFriendly, toRawForm } from '../../params/address';
import { param } from '../../params/schema';
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
    // Recorded toncenter output (detectAddress-03) keeps the friendly forms non-test even for a
    // test-only input; only `test_only` carries the flag.
    const variant = (bounceable: boolean) => ({
      '@type': 'ext.utils.detectedAddressVariant',
      b64: toFriendly(workchain, hash, { bounceable, testOnly: false, urlSafe: false }),
      b64url: toFriendly(workchain, hash, { bounceable, testOnly: false, urlSafe: true }),
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
