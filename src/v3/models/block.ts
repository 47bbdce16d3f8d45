import { b64, num, shardHex, str64, type Bytes } from './format';

/** A `blocks` row as sql/blocks.ts selects it (bigint columns arrive as strings, hashes as base64 text). */
export interface BlockRow {
  workchain: number;
  shard: string;
  seqno: number;
  root_hash: Bytes;
  file_hash: Bytes;
  mc_block_workchain: number | null;
  mc_block_shard: string | null;
  mc_block_seqno: number | null;
  global_id: number | null;
  version: number | null;
  after_merge: boolean | null;
  before_split: boolean | null;
  after_split: boolean | null;
  want_merge: boolean | null;
  want_split: boolean | null;
  key_block: boolean | null;
  vert_seqno_incr: boolean | null;
  flags: number | null;
  gen_utime: string | null;
  start_lt: string | null;
  end_lt: string | null;
  validator_list_hash_short: number | null;
  gen_catchain_seqno: number | null;
  min_ref_mc_seqno: number | null;
  prev_key_block_seqno: number | null;
  vert_seqno: number | null;
  master_ref_seqno: number | null;
  rand_seed: Bytes | null;
  created_by: Bytes | null;
  tx_count: number | null;
  /** [[workchain, shard text, seqno], ...] (sql/blocks.ts unnests the blockid[] column). */
  prev_blocks: [number, string, number][] | null;
}

export interface BlockIdJson {
  workchain: number;
  shard: string;
  seqno: number;
}

/** models.Block of ton-index-go. */
export function toBlockJson(row: BlockRow): Record<string, unknown> {
  const blockId = (workchain: number, shard: string, seqno: number): BlockIdJson => ({ workchain, shard: shardHex(shard), seqno });
  return {
    workchain: row.workchain,
    shard: shardHex(row.shard),
    seqno: row.seqno,
    root_hash: b64(row.root_hash),
    file_hash: b64(row.file_hash),
    global_id: row.global_id ?? 0,
    version: row.version ?? 0,
    after_merge: row.after_merge ?? false,
    before_split: row.before_split ?? false,
    after_split: row.after_split ?? false,
    want_merge: row.want_merge ?? false,
    want_split: row.want_split ?? false,
    key_block: row.key_block ?? false,
    vert_seqno_incr: row.vert_seqno_incr ?? false,
    flags: row.flags ?? 0,
    gen_utime: str64(row.gen_utime) ?? '0',
    start_lt: str64(row.start_lt) ?? '0',
    end_lt: str64(row.end_lt) ?? '0',
    validator_list_hash_short: row.validator_list_hash_short ?? 0,
    gen_catchain_seqno: row.gen_catchain_seqno ?? 0,
    min_ref_mc_seqno: row.min_ref_mc_seqno ?? 0,
    prev_key_block_seqno: row.prev_key_block_seqno ?? 0,
    vert_seqno: row.vert_seqno ?? 0,
    master_ref_seqno: row.master_ref_seqno ?? 0,
    rand_seed: b64(row.rand_seed) ?? '',
    created_by: b64(row.created_by) ?? '',
    tx_count: num(row.tx_count) ?? 0,
    // A masterchain block refers to itself (the indexer writes its own id there).
    masterchain_block_ref:
      row.mc_block_seqno === null
        ? blockId(row.workchain, row.shard, row.seqno)
        : blockId(row.mc_block_workchain ?? -1, row.mc_block_shard ?? '-9223372036854775808', row.mc_block_seqno),
    prev_blocks: (row.prev_blocks ?? []).map(([workchain, shard, seqno]) => blockId(workchain, shard, seqno)),
  };
}
