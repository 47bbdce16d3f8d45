import type { BlockIdExtInput } from '../tlb';

/**
 * Block and transaction identifiers in toncenter's JSON form (`ton.blockIdExt`,
 * `internal.transactionId`).
 */

export interface TonBlockIdExtJson {
  '@type': 'ton.blockIdExt';
  workchain: number;
  /** Signed 64-bit shard id in decimal, e.g. "-9223372036854775808" for the whole-chain shard. */
  shard: string;
  seqno: number;
  root_hash: string;
  file_hash: string;
}

export interface InternalTransactionIdJson {
  '@type': 'internal.transactionId';
  lt: string;
  hash: string;
}

/** A zero-state id has no shard/seqno (`tonNode.zeroStateIdExt`). */
export interface ZeroStateIdInput {
  workchain: number;
  rootHash: Buffer;
  fileHash: Buffer;
}

const ZERO_HASH = Buffer.alloc(32);

/**
 * Signed 64-bit shard id. ton-lite-client hands shards around as signed decimal strings, block
 * parsers as unsigned bigints (0x8000000000000000n); both denote the same shard.
 */
export function toSignedShard(shard: bigint | string): bigint {
  const value = typeof shard === 'bigint' ? shard : BigInt(shard.trim());
  return BigInt.asIntN(64, value);
}

/** The shard as toncenter prints it: signed decimal. */
export function shardToString(shard: bigint | string): string {
  return toSignedShard(shard).toString(10);
}

export function hashToBase64(hash: Buffer | bigint): string {
  return hashToBuffer(hash).toString('base64');
}

/** 256-bit hash as 32 bytes (bigints come from @ton/core's Transaction/ShardAccount fields). */
export function hashToBuffer(hash: Buffer | bigint): Buffer {
  if (Buffer.isBuffer(hash)) {
    if (hash.length !== 32) throw new Error(`expected a 32-byte hash, got ${hash.length} bytes`);
    return hash;
  }
  if (hash < 0n || hash >= 1n << 256n) throw new Error('hash out of 256-bit range');
  return Buffer.from(hash.toString(16).padStart(64, '0'), 'hex');
}

export function toBlockIdExt(id: BlockIdExtInput): TonBlockIdExtJson {
  return {
    '@type': 'ton.blockIdExt',
    workchain: id.workchain,
    shard: shardToString(id.shard),
    seqno: id.seqno,
    root_hash: hashToBase64(id.rootHash),
    file_hash: hashToBase64(id.fileHash),
  };
}

/** tonlib reports the zero state (`init` of getMasterchainInfo) as a block id with shard 0 and seqno 0. */
export function zeroStateToBlockIdExt(id: ZeroStateIdInput): TonBlockIdExtJson {
  return toBlockIdExt({ workchain: id.workchain, shard: 0n, seqno: 0, rootHash: id.rootHash, fileHash: id.fileHash });
}

/** `internal.transactionId`; lt 0 with an all-zero hash is tonlib's "no transaction". */
export function toTransactionId(lt: bigint | string | number, hash: Buffer | bigint): InternalTransactionIdJson {
  return { '@type': 'internal.transactionId', lt: BigInt(lt).toString(10), hash: hashToBase64(hash) };
}

export function emptyTransactionId(): InternalTransactionIdJson {
  return toTransactionId(0n, ZERO_HASH);
}

/** The id of an account's last transaction, or the "none" id when there is none. */
export function toLastTransactionId(last: { lt: bigint | string; hash: Buffer | bigint } | null | undefined): InternalTransactionIdJson {
  return last ? toTransactionId(last.lt, last.hash) : emptyTransactionId();
}

export type { BlockIdExtInput };
