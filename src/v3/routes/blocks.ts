import { toBlockJson } from '../models/block';
import { queryBlocks } from '../sql/blocks';
import { blockGroup, ltGroup, PAGING_PARAMETERS, pagingGroup, RANGE_PARAMETERS, utimeGroup } from './common';
import { defineRoute } from './route';

/** GetBlocks: blocks by id parts, hashes, mc block, gen_utime and start_lt ranges. */
export const blocks = defineRoute({
  path: '/blocks',
  summary: 'Blocks by filters',
  parameters: [
    { name: 'workchain', type: 'integer' },
    { name: 'shard', type: 'string', description: 'Hex (8000000000000000) or signed decimal.' },
    { name: 'seqno', type: 'integer' },
    { name: 'root_hash', type: 'string' },
    { name: 'file_hash', type: 'string' },
    { name: 'mc_seqno', type: 'integer' },
    ...RANGE_PARAMETERS,
    ...PAGING_PARAMETERS,
  ],
  parse: (query) => ({ block: blockGroup(query), utime: utimeGroup(query), lt: ltGroup(query), paging: pagingGroup(query) }),
  // Blocks of one masterchain block: that block's rows.
  immutableAt: ({ block }) => block.mcSeqno,
  async run({ db }, { block, utime, lt, paging }) {
    const rows = await queryBlocks(db, { ...block, ...utime, ...lt }, paging);
    return { blocks: rows.map(toBlockJson) };
  },
});
