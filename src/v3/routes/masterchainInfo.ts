import { toBlockJson } from '../models/block';
import { queryMasterchainEnds } from '../sql/blocks';
import { defineRoute } from './route';
import { IndexUnavailableError } from '../db';

/** GetMasterchainInfo: the newest and the oldest indexed masterchain blocks. */
export const masterchainInfo = defineRoute({
  path: '/masterchainInfo',
  summary: 'First and last indexed masterchain blocks',
  parameters: [],
  parse: () => ({}),
  async run({ db }) {
    const { last, first } = await queryMasterchainEnds(db);
    // ton-index-go fails its row scan (500) on an empty index; we say what it is.
    if (!last || !first) throw new IndexUnavailableError('the index holds no block yet');
    return { last: toBlockJson(last), first: toBlockJson(first) };
  },
});
