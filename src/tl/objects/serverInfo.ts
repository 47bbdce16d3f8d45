/** What a lite server says about itself: its errors, clock, version and masterchain head. */
import { constructor, int256, int32, int64, nat, string } from '../codec';
import { BlockIdExt, ZeroStateIdExt, blockIdExtCodec, zeroStateIdExtCodec } from './blockIds';

// Typed fields (`id:tonNode.blockIdExt`) are bare: no constructor id on the wire.
const blockIdExt = blockIdExtCodec.bare;

export interface LiteServerErrorObject {
  readonly kind: 'liteServer.error';
  readonly code: number;
  readonly message: string;
}
export const liteServerErrorCodec = constructor<LiteServerErrorObject>('liteServer.error', {
  code: int32,
  message: string,
});

export interface MasterchainInfo {
  readonly kind: 'liteServer.masterchainInfo';
  readonly last: BlockIdExt;
  readonly stateRootHash: Buffer;
  readonly init: ZeroStateIdExt;
}
export const masterchainInfoCodec = constructor<MasterchainInfo>('liteServer.masterchainInfo', {
  last: blockIdExt,
  stateRootHash: int256,
  init: zeroStateIdExtCodec.bare,
});

export interface MasterchainInfoExt {
  readonly kind: 'liteServer.masterchainInfoExt';
  readonly mode: number;
  readonly version: number;
  readonly capabilities: string;
  readonly last: BlockIdExt;
  readonly lastUtime: number;
  readonly now: number;
  readonly stateRootHash: Buffer;
  readonly init: ZeroStateIdExt;
}
export const masterchainInfoExtCodec = constructor<MasterchainInfoExt>('liteServer.masterchainInfoExt', {
  mode: nat,
  version: int32,
  capabilities: int64,
  last: blockIdExt,
  lastUtime: int32,
  now: int32,
  stateRootHash: int256,
  init: zeroStateIdExtCodec.bare,
});

export interface CurrentTime {
  readonly kind: 'liteServer.currentTime';
  readonly now: number;
}
export const currentTimeCodec = constructor<CurrentTime>('liteServer.currentTime', { now: int32 });

export interface Version {
  readonly kind: 'liteServer.version';
  readonly mode: number;
  readonly version: number;
  readonly capabilities: string;
  readonly now: number;
}
export const versionCodec = constructor<Version>('liteServer.version', {
  mode: nat,
  version: int32,
  capabilities: int64,
  now: int32,
});
