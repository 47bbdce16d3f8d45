import { NotFoundError } from '../../errors';
import { toBlockJson } from '../models/block';
import { queryShardState } from '../sql/blocks';
import { queryIntOrZero } from './common';
import { defineRoute } from './route';

/** GetShards: the shard blocks in a masterchain block's state (as v2 `shards`); 404 when none. */
export const masterchainBlockShardState = defineRoute({
  path: '/masterchainBlockShardState',
  summary: 'Shard blocks in a masterchain block state',
  parameters: [{ name: 'seqno', type: 'integer', required: true }],
  parse: (query) => ({ seqno: queryIntOrZero(query, 'seqno') }),
  immutableAt: ({ seqno }) => seqno,
  async run({ db }, { seqno }) {
    const rows = await queryShardState(db, seqno);
    if (rows.length === 0) throw new NotFoundError('blocks not found');
    return { blocks: rows.map(toBlockJson) };
  },
});
