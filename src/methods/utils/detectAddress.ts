import { toFriendly, toRawForm, param } from '../../params';
import { atHead, defineHandler } from '../define';
import { str, bool, tagged } from '../resultSchema';
import { READ_VERBS } from '../types';

const addressForms = tagged('ext.utils.detectedAddressVariant', { b64: str(), b64url: str() });

export default defineHandler({
  name: 'detectAddress',
  category: 'utils',
  verbs: READ_VERBS,
  summary: 'Every form of an address: raw, bounceable and non-bounceable in both base64 alphabets.',
  cache: 'never',
  session: atHead,
  result: tagged(['ext.utils.detectedAddress'], {
    raw_form: str('workchain:hex'),
    bounceable: addressForms,
    non_bounceable: addressForms,
    given_type: { enum: ['raw_form', 'friendly_bounceable', 'friendly_non_bounceable'] },
    test_only: bool,
  }),
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
