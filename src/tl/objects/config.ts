/** Config and libraries: config params with proofs, validator stats, and library cells. */
import { bool, bytes, constructor, int256, int32, nat, vector } from '../codec';
import { BlockIdExt, blockIdExtCodec } from './blockIds';

// Typed fields (`id:tonNode.blockIdExt`) are bare: no constructor id on the wire.
const blockIdExt = blockIdExtCodec.bare;

export interface LibraryEntry {
  readonly kind: 'liteServer.libraryEntry';
  readonly hash: Buffer;
  readonly data: Buffer;
}
export const libraryEntryCodec = constructor<LibraryEntry>('liteServer.libraryEntry', { hash: int256, data: bytes });

export interface ConfigInfo {
  readonly kind: 'liteServer.configInfo';
  readonly mode: number;
  readonly id: BlockIdExt;
  readonly stateProof: Buffer;
  readonly configProof: Buffer;
}
export const configInfoCodec = constructor<ConfigInfo>('liteServer.configInfo', {
  mode: nat,
  id: blockIdExt,
  stateProof: bytes,
  configProof: bytes,
});

export interface ValidatorStats {
  readonly kind: 'liteServer.validatorStats';
  readonly mode: number;
  readonly id: BlockIdExt;
  readonly count: number;
  readonly complete: boolean;
  readonly stateProof: Buffer;
  readonly dataProof: Buffer;
}
export const validatorStatsCodec = constructor<ValidatorStats>('liteServer.validatorStats', {
  mode: nat,
  id: blockIdExt,
  count: int32,
  complete: bool,
  stateProof: bytes,
  dataProof: bytes,
});

export interface LibraryResult {
  readonly kind: 'liteServer.libraryResult';
  readonly result: LibraryEntry[];
}
export const libraryResultCodec = constructor<LibraryResult>('liteServer.libraryResult', {
  result: vector(libraryEntryCodec.bare),
});

export interface LibraryResultWithProof {
  readonly kind: 'liteServer.libraryResultWithProof';
  readonly id: BlockIdExt;
  readonly mode: number;
  readonly result: LibraryEntry[];
  readonly stateProof: Buffer;
  readonly dataProof: Buffer;
}
export const libraryResultWithProofCodec = constructor<LibraryResultWithProof>('liteServer.libraryResultWithProof', {
  id: blockIdExt,
  mode: nat,
  result: vector(libraryEntryCodec.bare),
  stateProof: bytes,
  dataProof: bytes,
});
