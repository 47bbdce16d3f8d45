import type { BlockRow } from '../models/block';
import type { V3Database } from '../db';
import type { Paging, SortOrder } from '../params/rules';
import { SqlParams, whereClause } from './builder';

/**
 * Every column of models.Block; prev_blocks unnested to JSON so the composite type needs no parser.
 * The hashes come as their base64 text, the answer's encoding, not as Buffers to be written back.
 */
const BLOCK_COLUMNS = `B.workchain, B.shard, B.seqno, encode(B.root_hash, 'base64') as root_hash,
  encode(B.file_hash, 'base64') as file_hash, B.mc_block_workchain, B.mc_block_shard,
  B.mc_block_seqno, B.global_id, B.version, B.after_merge, B.before_split, B.after_split, B.want_merge, B.want_split,
  B.key_block, B.vert_seqno_incr, B.flags, B.gen_utime, B.start_lt, B.end_lt, B.validator_list_hash_short,
  B.gen_catchain_seqno, B.min_ref_mc_seqno, B.prev_key_block_seqno, B.vert_seqno, B.master_ref_seqno,
  encode(B.rand_seed, 'base64') as rand_seed, encode(B.created_by, 'base64') as created_by, B.tx_count,
  (select coalesce(json_agg(json_build_array((p).workchain, (p).shard::text, (p).seqno)), '[]'::json)
     from unnest(B.prev_blocks) as p) as prev_blocks`;

export const MASTERCHAIN_SHARD = -(2n ** 63n);

export interface BlockFilter {
  workchain?: number;
  shard?: bigint;
  seqno?: number;
  rootHash?: Buffer;
  fileHash?: Buffer;
  mcSeqno?: number;
  startUtime?: number;
  endUtime?: number;
  startLt?: bigint;
  endLt?: bigint;
}

/**
 * buildBlocksQuery: the filters ANDed, ordered by gen_utime in the requested order. Without a
 * `sort` ton-index-go gives no order at all; we order by gen_utime desc then (workchain, shard,
 * seqno) so pages are stable (docs/v3.md).
 */
export async function queryBlocks(db: V3Database, filter: BlockFilter, paging: Paging): Promise<BlockRow[]> {
  const p = new SqlParams();
  const where: string[] = [];
  if (filter.workchain !== undefined) where.push(`B.workchain = ${p.bind(filter.workchain)}`);
  if (filter.shard !== undefined) where.push(`B.shard = ${p.bind(filter.shard.toString())}`);
  if (filter.seqno !== undefined) where.push(`B.seqno = ${p.bind(filter.seqno)}`);
  if (filter.rootHash) where.push(`B.root_hash = ${p.bind(filter.rootHash)}`);
  if (filter.fileHash) where.push(`B.file_hash = ${p.bind(filter.fileHash)}`);
  if (filter.mcSeqno !== undefined) where.push(`B.mc_block_seqno = ${p.bind(filter.mcSeqno)}`);
  if (filter.startUtime !== undefined) where.push(`B.gen_utime >= ${p.bind(filter.startUtime)}`);
  if (filter.endUtime !== undefined) where.push(`B.gen_utime <= ${p.bind(filter.endUtime)}`);
  if (filter.startLt !== undefined) where.push(`B.start_lt >= ${p.bind(filter.startLt.toString())}`);
  if (filter.endLt !== undefined) where.push(`B.start_lt <= ${p.bind(filter.endLt.toString())}`);
  const order: SortOrder = paging.sort ?? 'desc';
  const text =
    `select ${BLOCK_COLUMNS} from blocks as B${whereClause(where)}` +
    ` order by B.gen_utime ${order}, B.workchain ${order}, B.shard ${order}, B.seqno ${order}` +
    ` limit ${p.bind(paging.limit)} offset ${p.bind(paging.offset)}`;
  return db.query<BlockRow>(text, p.values);
}

/** The newest and the oldest indexed masterchain blocks (QueryMasterchainInfo). */
export async function queryMasterchainEnds(db: V3Database): Promise<{ last?: BlockRow; first?: BlockRow }> {
  const pick = (order: SortOrder) =>
    `select ${BLOCK_COLUMNS} from blocks as B where B.workchain = -1 order by B.seqno ${order} limit 1`;
  const [last] = await db.query<BlockRow>(pick('desc'), []);
  const [first] = await db.query<BlockRow>(pick('asc'), []);
  return { last, first };
}

/** The shard blocks in a masterchain block's state (QueryShards: shard_state joined with blocks). */
export async function queryShardState(db: V3Database, mcSeqno: number): Promise<BlockRow[]> {
  return db.query<BlockRow>(
    `select ${BLOCK_COLUMNS} from shard_state as S join blocks as B
       on S.workchain = B.workchain and S.shard = B.shard and S.seqno = B.seqno
     where S.mc_seqno = $1 order by S.mc_seqno, S.workchain, S.shard, S.seqno`,
    [mcSeqno],
  );
}

export async function masterchainBlockExists(db: V3Database, seqno: number): Promise<boolean> {
  const rows = await db.query<{ seqno: number }>(
    'select seqno from blocks where workchain = -1 and shard = $1 and seqno = $2',
    [MASTERCHAIN_SHARD.toString(), seqno],
  );
  return rows.length > 0;
}

/** The root hash of an indexed masterchain block, or undefined when the index does not hold it. */
export async function masterchainRootHash(db: V3Database, seqno: number): Promise<Buffer | undefined> {
  const rows = await db.query<{ root_hash: Buffer }>(
    'select root_hash from blocks where workchain = -1 and shard = $1 and seqno = $2',
    [MASTERCHAIN_SHARD.toString(), seqno],
  );
  return rows[0]?.root_hash;
}
