import { NotFoundError } from '../../errors';
import { toBlockJson } from '../models/block';
import { queryBlocks } from '../sql/blocks';
import { PAGING_PARAMETERS, pagingGroup, queryIntOrZero } from './common';
import { defineRoute } from './route';

/** GetShardsDiff: every block that appeared with a masterchain block; 404 when none. */
export const masterchainBlockShards = defineRoute({
  path: '/masterchainBlockShards',
  summary: 'Blocks committed with a masterchain block',
  parameters: [{ name: 'seqno', type: 'integer', required: true }, ...PAGING_PARAMETERS.slice(0, 2)],
  parse: (query) => ({ seqno: queryIntOrZero(query, 'seqno'), paging: pagingGroup(query) }),
  immutableAt: ({ seqno }) => seqno,
  async run({ db }, { seqno, paging }) {
    const rows = await queryBlocks(db, { mcSeqno: seqno }, paging);
    if (rows.length === 0) throw new NotFoundError('blocks not found');
    return { blocks: rows.map(toBlockJson) };
  },
});
