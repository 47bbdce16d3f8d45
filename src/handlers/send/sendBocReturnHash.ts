import { param } from '../../params/schema';
import { defineHandler } from '../define';
import { POST_ONLY } from '../types';
import { nonEmptyBoc } from '../validation';

export default defineHandler({
  name: 'sendBocReturnHash',
  category: 'send',
  verbs: POST_ONLY,
  summary: 'Sends a signed external message and returns its hash and normalized hash.',
  params: {
    boc: param.bytes(),
  },
  validate: (p) => {
    nonEmptyBoc(p.boc);
  },
});
