/** tonNode block identifiers: the ids every other lite_api.tl object points at blocks with. */
import { constructor, int256, int32, int64 } from '../codec';

export interface BlockId {
  readonly kind: 'tonNode.blockId';
  readonly workchain: number;
  readonly shard: string;
  readonly seqno: number;
}
export const blockIdCodec = constructor<BlockId>('tonNode.blockId', { workchain: int32, shard: int64, seqno: int32 });

export interface BlockIdExt {
  readonly kind: 'tonNode.blockIdExt';
  readonly workchain: number;
  readonly shard: string;
  readonly seqno: number;
  readonly rootHash: Buffer;
  readonly fileHash: Buffer;
}
export const blockIdExtCodec = constructor<BlockIdExt>('tonNode.blockIdExt', {
  workchain: int32,
  shard: int64,
  seqno: int32,
  rootHash: int256,
  fileHash: int256,
});

export interface ZeroStateIdExt {
  readonly kind: 'tonNode.zeroStateIdExt';
  readonly workchain: number;
  readonly rootHash: Buffer;
  readonly fileHash: Buffer;
}
export const zeroStateIdExtCodec = constructor<ZeroStateIdExt>('tonNode.zeroStateIdExt', {
  workchain: int32,
  rootHash: int256,
  fileHash: int256,
});
