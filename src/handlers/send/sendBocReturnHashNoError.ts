import { param } from '../../params/schema';
import { defineHandler } from '../define';
import { POST_ONLY } from '../types';
import { nonEmptyBoc } from '../validation';

export default defineHandler({
  name: 'sendBocReturnHashNoError',
  category: 'send',
  verbs: POST_ONLY,
  summary: 'As sendBocReturnHash, but a rejected message is a 400.',
  params: {
    boc: param.bytes(),
  },
  validate: (p) => {
    nonEmptyBoc(p.boc);
  },
});
