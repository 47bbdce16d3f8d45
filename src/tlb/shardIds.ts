/** Shard ids as unsigned 64-bit prefixes (TON's `shard_parent`/`shard_child`), and the block id shape loaders return. */

/** What every lite-server block id carries; `shard` as a bigint (signed or unsigned) or decimal/0x string. */
export interface BlockIdExtInput {
  workchain: number;
  shard: bigint | string;
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
}

const U64 = (1n << 64n) - 1n;

function lowerBit(shard: bigint): bigint {
  return shard & (-shard & U64);
}

/** Parent shard of an unsigned 64-bit shard id. */
export function shardParent(shard: bigint): bigint {
  const bit = lowerBit(shard);
  return ((shard - bit) | (bit << 1n)) & U64;
}

/** Left or right child of an unsigned 64-bit shard id. */
export function shardChild(shard: bigint, left: boolean): bigint {
  const half = lowerBit(shard) >> 1n;
  return (left ? shard - half : shard + half) & U64;
}
