import { Builder, Cell, Dictionary, DictionaryValue, Slice } from '@ton/core';
import { shardChild, type BlockIdExtInput } from './shardIds';

/**
 * TL-B of the masterchain's shard configuration (block.tlb): `ShardHashes = HashmapE 32
 * ^(BinTree ShardDescr)`, as liteServer.allShardsInfo's `data` carries it. Only the head of
 * `ShardDescr` is read: everything up to the top block's hashes.
 */

export interface ShardDescrHead {
  seqno: number;
  regMcSeqno: number;
  startLt: bigint;
  endLt: bigint;
  rootHash: Buffer;
  fileHash: Buffer;
}

/** `shard_descr#b` (fees inline) and `shard_descr_new#a` (fees behind a reference) share this head. */
const SHARD_DESCR_TAGS = new Set([0xa, 0xb]);
/** The whole-workchain shard, unsigned. */
const ROOT_SHARD = 0x8000000000000000n;
/** shard_pfx_bits never exceeds 60, so a shard tree is never deeper. */
const MAX_SHARD_DEPTH = 60;

export function loadShardDescrHead(slice: Slice): ShardDescrHead {
  const tag = slice.loadUint(4);
  if (!SHARD_DESCR_TAGS.has(tag)) throw new Error(`invalid ShardDescr tag 0x${tag.toString(16)}`);
  return {
    seqno: slice.loadUint(32),
    regMcSeqno: slice.loadUint(32),
    startLt: slice.loadUintBig(64),
    endLt: slice.loadUintBig(64),
    rootHash: slice.loadBuffer(32),
    fileHash: slice.loadBuffer(32),
  };
}

const binTreeRef: DictionaryValue<Cell> = {
  serialize: (src: Cell, builder: Builder) => {
    builder.storeRef(src);
  },
  parse: (slice: Slice) => slice.loadRef(),
};

function collectLeaves(workchain: number, tree: Cell, shard: bigint, depth: number, out: BlockIdExtInput[]): void {
  if (depth > MAX_SHARD_DEPTH) throw new Error('shard tree is deeper than 60 levels');
  const slice = tree.beginParse();
  if (slice.loadBit()) {
    // bt_fork$1 left:^(BinTree X) right:^(BinTree X)
    collectLeaves(workchain, slice.loadRef(), shardChild(shard, true), depth + 1, out);
    collectLeaves(workchain, slice.loadRef(), shardChild(shard, false), depth + 1, out);
    return;
  }
  const descr = loadShardDescrHead(slice);
  out.push({ workchain, shard, seqno: descr.seqno, rootHash: descr.rootHash, fileHash: descr.fileHash });
}

/**
 * The shard top blocks of a `ShardHashes` HashmapE (its presence bit and root), in tonlib's order:
 * workchains by key bits (0 before negative ids), each workchain's shards left to right.
 */
export function loadShardHashesTopBlocks(slice: Slice): BlockIdExtInput[] {
  const root = slice.loadMaybeRef();
  if (!root) return [];
  const dict = Dictionary.loadDirect(Dictionary.Keys.Int(32), binTreeRef, root);
  const workchains = dict.keys().sort((a, b) => (a >>> 0) - (b >>> 0));
  const out: BlockIdExtInput[] = [];
  for (const workchain of workchains) collectLeaves(workchain, dict.get(workchain) as Cell, ROOT_SHARD, 0, out);
  return out;
}
