import { toBlockIdExt, zeroStateToBlockIdExt } from '../../converters';
import { atHead, defineHandler } from '../define';
import { ref, tagged, hash } from '../resultSchema';
import { READ_VERBS } from '../types';

export default defineHandler({
  name: 'getMasterchainInfo',
  category: 'blocks',
  verbs: READ_VERBS,
  summary: 'Last and initial masterchain block ids and the state root hash.',
  cache: 'head',
  session: atHead,
  result: tagged('blocks.masterchainInfo', { last: ref('BlockIdExt'), state_root_hash: hash, init: ref('BlockIdExt') }),
  params: {},
  run: async (ctx) => {
    // The request's head, as the head tracker knows it: no lite-server round trip.
    const info = await ctx.lite().head();
    return {
      '@type': 'blocks.masterchainInfo',
      last: toBlockIdExt(info.last),
      state_root_hash: info.stateRootHash.toString('base64'),
      init: zeroStateToBlockIdExt(info.init),
    };
  },
});
