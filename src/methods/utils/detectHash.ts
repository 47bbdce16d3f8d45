import { param } from '../../params';
import { atHead, defineHandler } from '../define';
import { str, tagged } from '../resultSchema';
import { READ_VERBS } from '../types';

export default defineHandler({
  name: 'detectHash',
  category: 'utils',
  verbs: READ_VERBS,
  summary: 'A 256-bit hash in base64, unpadded URL-safe base64 and hex.',
  cache: 'never',
  session: atHead,
  result: tagged('ext.utils.detectedHash', { b64: str(), b64url: str(), hex: str() }),
  params: {
    hash: param.hash(),
  },
  run: async (_ctx, { hash }) => ({
    '@type': 'ext.utils.detectedHash',
    b64: hash.toString('base64'),
    b64url: hash.toString('base64url'),
    hex: hash.toString('hex'),
  }),
});
