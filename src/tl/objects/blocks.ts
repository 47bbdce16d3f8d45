/** Blocks: their data, states, headers and lookups (by seqno, lt or utime, with proof). */
import { bytes, constructor, int256, nat, vector } from '../codec';
import { BlockIdExt, blockIdExtCodec } from './blockIds';
import { ShardBlockLink, shardBlockLinkCodec } from './proofs';

// Typed fields (`id:tonNode.blockIdExt`) are bare: no constructor id on the wire.
const blockIdExt = blockIdExtCodec.bare;

export interface BlockData {
  readonly kind: 'liteServer.blockData';
  readonly id: BlockIdExt;
  readonly data: Buffer;
}
export const blockDataCodec = constructor<BlockData>('liteServer.blockData', { id: blockIdExt, data: bytes });

export interface BlockState {
  readonly kind: 'liteServer.blockState';
  readonly id: BlockIdExt;
  readonly rootHash: Buffer;
  readonly fileHash: Buffer;
  readonly data: Buffer;
}
export const blockStateCodec = constructor<BlockState>('liteServer.blockState', {
  id: blockIdExt,
  rootHash: int256,
  fileHash: int256,
  data: bytes,
});

export interface BlockHeader {
  readonly kind: 'liteServer.blockHeader';
  readonly id: BlockIdExt;
  readonly mode: number;
  readonly headerProof: Buffer;
}
export const blockHeaderCodec = constructor<BlockHeader>('liteServer.blockHeader', {
  id: blockIdExt,
  mode: nat,
  headerProof: bytes,
});

export interface LookupBlockResult {
  readonly kind: 'liteServer.lookupBlockResult';
  readonly id: BlockIdExt;
  readonly mode: number;
  readonly mcBlockId: BlockIdExt;
  readonly clientMcStateProof: Buffer;
  readonly mcBlockProof: Buffer;
  readonly shardLinks: ShardBlockLink[];
  readonly header: Buffer;
  readonly prevHeader: Buffer;
}
export const lookupBlockResultCodec = constructor<LookupBlockResult>('liteServer.lookupBlockResult', {
  id: blockIdExt,
  mode: nat,
  mcBlockId: blockIdExt,
  clientMcStateProof: bytes,
  mcBlockProof: bytes,
  shardLinks: vector(shardBlockLinkCodec.bare),
  header: bytes,
  prevHeader: bytes,
});
