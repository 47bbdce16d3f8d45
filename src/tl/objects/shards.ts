/** Shards: one shard's or all shards' descriptions, and outbound message queue sizes. */
import { bytes, constructor, int32, int64, nat, optional, vector } from '../codec';
import { BlockIdExt, blockIdExtCodec } from './blockIds';

// Typed fields (`id:tonNode.blockIdExt`) are bare: no constructor id on the wire.
const blockIdExt = blockIdExtCodec.bare;

export interface OutMsgQueueSize {
  readonly kind: 'liteServer.outMsgQueueSize';
  readonly id: BlockIdExt;
  readonly size: number;
}
export const outMsgQueueSizeCodec = constructor<OutMsgQueueSize>('liteServer.outMsgQueueSize', {
  id: blockIdExt,
  size: int32,
});

export interface ShardInfo {
  readonly kind: 'liteServer.shardInfo';
  readonly id: BlockIdExt;
  readonly shardblk: BlockIdExt;
  readonly shardProof: Buffer;
  readonly shardDescr: Buffer;
}
export const shardInfoCodec = constructor<ShardInfo>('liteServer.shardInfo', {
  id: blockIdExt,
  shardblk: blockIdExt,
  shardProof: bytes,
  shardDescr: bytes,
});

export interface AllShardsInfo {
  readonly kind: 'liteServer.allShardsInfo';
  readonly id: BlockIdExt;
  readonly proof: Buffer;
  readonly data: Buffer;
}
export const allShardsInfoCodec = constructor<AllShardsInfo>('liteServer.allShardsInfo', {
  id: blockIdExt,
  proof: bytes,
  data: bytes,
});

export interface OutMsgQueueSizes {
  readonly kind: 'liteServer.outMsgQueueSizes';
  readonly shards: OutMsgQueueSize[];
  readonly extMsgQueueSizeLimit: number;
}
export const outMsgQueueSizesCodec = constructor<OutMsgQueueSizes>('liteServer.outMsgQueueSizes', {
  shards: vector(outMsgQueueSizeCodec.bare),
  extMsgQueueSizeLimit: int32,
});

export interface BlockOutMsgQueueSize {
  readonly kind: 'liteServer.blockOutMsgQueueSize';
  readonly mode: number;
  readonly id: BlockIdExt;
  readonly size: string;
  readonly proof: Buffer | null;
}
export const blockOutMsgQueueSizeCodec = constructor<BlockOutMsgQueueSize>('liteServer.blockOutMsgQueueSize', {
  mode: nat,
  id: blockIdExt,
  size: int64,
  proof: optional('mode', 0, bytes),
});
