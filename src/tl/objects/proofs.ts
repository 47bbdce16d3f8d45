/** Proof chains: validator signatures, links between (key) blocks, and shard-to-masterchain links. */
import { bool, bytes, constructor, int256, int32, union, vector } from '../codec';
import { BlockIdExt, blockIdExtCodec } from './blockIds';

// Typed fields (`id:tonNode.blockIdExt`) are bare: no constructor id on the wire.
const blockIdExt = blockIdExtCodec.bare;

export interface Signature {
  readonly kind: 'liteServer.signature';
  readonly nodeIdShort: Buffer;
  readonly signature: Buffer;
}
export const signatureCodec = constructor<Signature>('liteServer.signature', { nodeIdShort: int256, signature: bytes });

/** ton-lite-client's older schema calls this constructor `liteServer.signatureSet` (same id). */
export interface SignatureSetOrdinary {
  readonly kind: 'liteServer.signatureSet.ordinary';
  readonly validatorSetHash: number;
  readonly catchainSeqno: number;
  readonly signatures: Signature[];
}
export const signatureSetOrdinaryCodec = constructor<SignatureSetOrdinary>('liteServer.signatureSet.ordinary', {
  validatorSetHash: int32,
  catchainSeqno: int32,
  signatures: vector(signatureCodec.bare),
});

export interface SignatureSetSimplex {
  readonly kind: 'liteServer.signatureSet.simplex';
  readonly ccSeqno: number;
  readonly validatorSetHash: number;
  readonly signatures: Signature[];
  readonly sessionId: Buffer;
  readonly slot: number;
  readonly candidate: Buffer;
}
export const signatureSetSimplexCodec = constructor<SignatureSetSimplex>('liteServer.signatureSet.simplex', {
  ccSeqno: int32,
  validatorSetHash: int32,
  signatures: vector(signatureCodec.bare),
  sessionId: int256,
  slot: int32,
  candidate: bytes,
});

export type SignatureSet = SignatureSetOrdinary | SignatureSetSimplex;
export const signatureSetCodec = union<SignatureSet>(
  'liteServer.SignatureSet',
  {
    'liteServer.signatureSet.ordinary': signatureSetOrdinaryCodec,
    'liteServer.signatureSet.simplex': signatureSetSimplexCodec,
  },
  // ton-lite-client's schema predates the split into ordinary/simplex.
  { 'liteServer.signatureSet': 'liteServer.signatureSet.ordinary' },
);

export interface BlockLinkBack {
  readonly kind: 'liteServer.blockLinkBack';
  readonly toKeyBlock: boolean;
  readonly from: BlockIdExt;
  readonly to: BlockIdExt;
  readonly destProof: Buffer;
  readonly proof: Buffer;
  readonly stateProof: Buffer;
}
export const blockLinkBackCodec = constructor<BlockLinkBack>('liteServer.blockLinkBack', {
  toKeyBlock: bool,
  from: blockIdExt,
  to: blockIdExt,
  destProof: bytes,
  proof: bytes,
  stateProof: bytes,
});

export interface BlockLinkForward {
  readonly kind: 'liteServer.blockLinkForward';
  readonly toKeyBlock: boolean;
  readonly from: BlockIdExt;
  readonly to: BlockIdExt;
  readonly destProof: Buffer;
  readonly configProof: Buffer;
  readonly signatures: SignatureSet;
}
export const blockLinkForwardCodec = constructor<BlockLinkForward>('liteServer.blockLinkForward', {
  toKeyBlock: bool,
  from: blockIdExt,
  to: blockIdExt,
  destProof: bytes,
  configProof: bytes,
  // A field of a polymorphic type (capitalised in the schema) is boxed.
  signatures: signatureSetCodec,
});

export type BlockLink = BlockLinkBack | BlockLinkForward;
export const blockLinkCodec = union<BlockLink>('liteServer.BlockLink', {
  'liteServer.blockLinkBack': blockLinkBackCodec,
  'liteServer.blockLinkForward': blockLinkForwardCodec,
});

export interface ShardBlockLink {
  readonly kind: 'liteServer.shardBlockLink';
  readonly id: BlockIdExt;
  readonly proof: Buffer;
}
export const shardBlockLinkCodec = constructor<ShardBlockLink>('liteServer.shardBlockLink', {
  id: blockIdExt,
  proof: bytes,
});

export interface PartialBlockProof {
  readonly kind: 'liteServer.partialBlockProof';
  readonly complete: boolean;
  readonly from: BlockIdExt;
  readonly to: BlockIdExt;
  readonly steps: BlockLink[];
}
export const partialBlockProofCodec = constructor<PartialBlockProof>('liteServer.partialBlockProof', {
  complete: bool,
  from: blockIdExt,
  to: blockIdExt,
  steps: vector(blockLinkCodec),
});

export interface ShardBlockProof {
  readonly kind: 'liteServer.shardBlockProof';
  readonly masterchainId: BlockIdExt;
  readonly links: ShardBlockLink[];
}
export const shardBlockProofCodec = constructor<ShardBlockProof>('liteServer.shardBlockProof', {
  masterchainId: blockIdExt,
  links: vector(shardBlockLinkCodec.bare),
});
