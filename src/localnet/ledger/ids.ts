import { BASECHAIN, FULL_SHARD, MASTERCHAIN } from '../../constants';
import { ExtBlkRef } from '../../tlb';

// The embedded chain's single basechain shard and the masterchain shard are the full shard.
export { BASECHAIN, FULL_SHARD, MASTERCHAIN };

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

/** Shard counts the basechain can be split into at genesis. */
export const SHARD_COUNTS = [1, 2, 4, 8] as const;
export type ShardCount = (typeof SHARD_COUNTS)[number];

/** The `count` basechain shards of equal size, left to right (`count` a power of two). */
export function basechainShards(count: ShardCount): bigint[] {
  const bits = BigInt(Math.log2(count));
  const tag = 1n << (63n - bits);
  const out: bigint[] = [];
  for (let i = 0n; i < BigInt(count); i++) out.push((i << (64n - bits)) | tag);
  return count === 1 ? [FULL_SHARD] : out;
}

/** Number of prefix bits of a shard id (0 for the full shard). */
export function shardPrefixBits(shard: bigint): number {
  let bits = 63;
  for (let s = shard; (s & 1n) === 0n; s >>= 1n) bits--;
  return bits;
}

/** TL-B `ShardIdent` of a shard: the prefix without its tag bit, as TON serializes it. */
export function shardIdent(workchain: number, shard: bigint): { workchainId: number; shardPrefixBits: number; shardPrefix: bigint } {
  return { workchainId: workchain, shardPrefixBits: shardPrefixBits(shard), shardPrefix: shard & (shard - 1n) };
}

/** The shard id a TL-B `ShardIdent` names. */
export function shardOfIdent(ident: { shardPrefixBits: number; shardPrefix: bigint }): bigint {
  return ident.shardPrefix | (1n << BigInt(63 - ident.shardPrefixBits));
}

/** The top 64 bits of an account id, the part shards split on. */
export function accountPrefix(address: Buffer): bigint {
  return address.readBigUInt64BE(0);
}

/** A valid shard count (default 2), or an error naming the allowed ones. */
export function shardCountOf(count: number | undefined): ShardCount {
  const n = count ?? 2;
  if (!(SHARD_COUNTS as readonly number[]).includes(n)) throw new Error(`shards must be one of ${SHARD_COUNTS.join(', ')}`);
  return n as ShardCount;
}
