import { ExtBlkRef } from '../../tlb';

/** The single basechain shard and the masterchain shard: the full shard, `0x8000000000000000`. */
export const FULL_SHARD = 0x8000000000000000n;
export const MASTERCHAIN = -1;
export const BASECHAIN = 0;

/** A full block id (`tonNode.blockIdExt`); `shard` is the unsigned 64-bit shard id. */
export interface BlockId {
  workchain: number;
  shard: bigint;
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
}

export function sameBlockId(a: BlockId, b: BlockId): boolean {
  return (
    a.workchain === b.workchain &&
    a.shard === b.shard &&
    a.seqno === b.seqno &&
    a.rootHash.equals(b.rootHash) &&
    a.fileHash.equals(b.fileHash)
  );
}

export function blockIdString(id: BlockId): string {
  return `(${id.workchain},${id.shard.toString(16)},${id.seqno}):${id.rootHash.toString('hex').toUpperCase()}:${id.fileHash.toString('hex').toUpperCase()}`;
}

/** The shard id as TL `long` text (signed 64-bit decimal, as lite-server TL carries it). */
export function shardToLong(shard: bigint): string {
  return BigInt.asIntN(64, shard).toString();
}

export function longToShard(value: string | bigint): bigint {
  return BigInt.asUintN(64, BigInt(value));
}

/** Whether an account prefix (its top 64 bits) belongs to `shard`. */
export function shardContains(shard: bigint, accountPrefix: bigint): boolean {
  const lowest = shard & -shard;
  const mask = ~((lowest << 1n) - 1n) & 0xffffffffffffffffn;
  return (accountPrefix & mask) === (shard & mask);
}

export function extBlkRef(id: BlockId, endLt: bigint): ExtBlkRef {
  return { endLt, seqno: id.seqno, rootHash: id.rootHash, fileHash: id.fileHash };
}
