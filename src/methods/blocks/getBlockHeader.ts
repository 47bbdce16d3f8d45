import { blockHeader, resolveBlock } from '../../chain';
import { toBlockHeader } from '../../converters';
import { param } from '../../params';
import { atHead, defineHandler } from '../define';
import { ref, int, bool, arrayOf, decimal, tagged } from '../resultSchema';
import { READ_VERBS } from '../types';
import { positiveSeqno } from '../validation';

export default defineHandler({
  name: 'getBlockHeader',
  category: 'blocks',
  verbs: READ_VERBS,
  summary: 'Header fields of a block.',
  cache: 'head',
  session: atHead,
  result: tagged(
    'blocks.header',
    {
      id: ref('BlockIdExt'),
      global_id: int,
      version: int,
      flags: int,
      after_merge: bool,
      after_split: bool,
      before_split: bool,
      want_merge: bool,
      want_split: bool,
      validator_list_hash_short: int,
      catchain_seqno: int,
      min_ref_mc_seqno: int,
      is_key_block: bool,
      prev_key_block_seqno: int,
      start_lt: decimal('logical time'),
      end_lt: decimal('logical time'),
      gen_utime: int,
      vert_seqno: int,
      prev_blocks: arrayOf(ref('BlockIdExt')),
    },
    [
      'id',
      'global_id',
      'version',
      'after_merge',
      'after_split',
      'before_split',
      'want_merge',
      'want_split',
      'validator_list_hash_short',
      'catchain_seqno',
      'min_ref_mc_seqno',
      'is_key_block',
      'prev_key_block_seqno',
      'start_lt',
      'end_lt',
      'gen_utime',
      'prev_blocks',
    ],
  ),
  params: {
    workchain: param.int32(),
    shard: param.int64(),
    seqno: param.int32(),
    root_hash: param.hash().optional(),
    file_hash: param.hash().optional(),
  },
  validate: (p) => {
    positiveSeqno(p.seqno);
  },
  run: async (ctx, p) => {
    const session = ctx.lite();
    return toBlockHeader(await blockHeader(session, await resolveBlock(session, p)));
  },
});
