/** Accounts: their ids and proven states, get-method results, and the status of a sent message. */
import { bytes, constructor, int256, int32, nat, optional } from '../codec';
import { BlockIdExt, blockIdExtCodec } from './blockIds';

// Typed fields (`id:tonNode.blockIdExt`) are bare: no constructor id on the wire.
const blockIdExt = blockIdExtCodec.bare;

export interface AccountId {
  readonly kind: 'liteServer.accountId';
  readonly workchain: number;
  readonly id: Buffer;
}
export const accountIdCodec = constructor<AccountId>('liteServer.accountId', { workchain: int32, id: int256 });

export interface SendMsgStatus {
  readonly kind: 'liteServer.sendMsgStatus';
  readonly status: number;
}
export const sendMsgStatusCodec = constructor<SendMsgStatus>('liteServer.sendMsgStatus', { status: int32 });

export interface AccountState {
  readonly kind: 'liteServer.accountState';
  readonly id: BlockIdExt;
  readonly shardblk: BlockIdExt;
  readonly shardProof: Buffer;
  readonly proof: Buffer;
  readonly state: Buffer;
}
export const accountStateCodec = constructor<AccountState>('liteServer.accountState', {
  id: blockIdExt,
  shardblk: blockIdExt,
  shardProof: bytes,
  proof: bytes,
  state: bytes,
});

/** mode bits: 0 shardProof+proof, 1 stateProof, 2 result, 3 initC7, 4 libExtras. */
export interface RunMethodResult {
  readonly kind: 'liteServer.runMethodResult';
  readonly mode: number;
  readonly id: BlockIdExt;
  readonly shardblk: BlockIdExt;
  readonly shardProof: Buffer | null;
  readonly proof: Buffer | null;
  readonly stateProof: Buffer | null;
  readonly initC7: Buffer | null;
  readonly libExtras: Buffer | null;
  readonly exitCode: number;
  readonly result: Buffer | null;
}
export const runMethodResultCodec = constructor<RunMethodResult>('liteServer.runMethodResult', {
  mode: nat,
  id: blockIdExt,
  shardblk: blockIdExt,
  shardProof: optional('mode', 0, bytes),
  proof: optional('mode', 0, bytes),
  stateProof: optional('mode', 1, bytes),
  initC7: optional('mode', 3, bytes),
  libExtras: optional('mode', 4, bytes),
  exitCode: int32,
  result: optional('mode', 2, bytes),
});
