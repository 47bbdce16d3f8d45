import { BlockIdExtInput, hashToBase64, toBlockIdExt, TonBlockIdExtJson } from './blockId';

/** getMasterchainBlockSignatures: `blocks.blockSignatures` (and the newer simplex variant). */

export interface BlockSignatureJson {
  '@type': 'blocks.signature';
  node_id_short: string;
  signature: string;
}

export interface BlockSignaturesJson {
  '@type': 'blocks.blockSignatures';
  id: TonBlockIdExtJson;
  signatures: BlockSignatureJson[];
}

export interface BlockSignaturesSimplexJson {
  '@type': 'blocks.blockSignatures.simplex';
  id: TonBlockIdExtJson;
  signatures: BlockSignatureJson[];
  session_id: string;
  slot: number;
  candidate: string;
}

export interface BlockSignatureInput {
  nodeIdShort: Buffer | bigint;
  signature: Buffer;
}

export function toBlockSignature(signature: BlockSignatureInput): BlockSignatureJson {
  return {
    '@type': 'blocks.signature',
    node_id_short: hashToBase64(signature.nodeIdShort),
    signature: signature.signature.toString('base64'),
  };
}

export function toBlockSignatures(id: BlockIdExtInput, signatures: BlockSignatureInput[]): BlockSignaturesJson {
  return { '@type': 'blocks.blockSignatures', id: toBlockIdExt(id), signatures: signatures.map(toBlockSignature) };
}

export interface SimplexSignaturesInput {
  id: BlockIdExtInput;
  signatures: BlockSignatureInput[];
  sessionId: Buffer;
  slot: number;
  candidate: Buffer;
}

export function toBlockSignaturesSimplex(input: SimplexSignaturesInput): BlockSignaturesSimplexJson {
  return {
    '@type': 'blocks.blockSignatures.simplex',
    id: toBlockIdExt(input.id),
    signatures: input.signatures.map(toBlockSignature),
    session_id: hashToBase64(input.sessionId),
    slot: input.slot,
    candidate: input.candidate.toString('base64'),
  };
}
