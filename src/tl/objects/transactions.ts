/** Transactions: their ids (with metadata), single transactions, account histories and block lists. */
import { bool, bytes, constructor, int256, int32, int64, nat, optional, vector } from '../codec';
import { AccountId, accountIdCodec } from './accounts';
import { BlockIdExt, blockIdExtCodec } from './blockIds';

// Typed fields (`id:tonNode.blockIdExt`) are bare: no constructor id on the wire.
const blockIdExt = blockIdExtCodec.bare;

export interface TransactionMetadata {
  readonly kind: 'liteServer.transactionMetadata';
  readonly mode: number;
  readonly depth: number;
  readonly initiator: AccountId;
  readonly initiatorLt: string;
}
export const transactionMetadataCodec = constructor<TransactionMetadata>('liteServer.transactionMetadata', {
  mode: nat,
  depth: int32,
  initiator: accountIdCodec.bare,
  initiatorLt: int64,
});

/** Current schema (#b12f65af): mode bits 0 account, 1 lt, 2 hash, 8 metadata. */
export interface TransactionId {
  readonly kind: 'liteServer.transactionId';
  readonly mode: number;
  readonly account: Buffer | null;
  readonly lt: string | null;
  readonly hash: Buffer | null;
  readonly metadata: TransactionMetadata | null;
}
export const transactionIdCodec = constructor<TransactionId>('liteServer.transactionId', {
  mode: nat,
  account: optional('mode', 0, int256),
  lt: optional('mode', 1, int64),
  hash: optional('mode', 2, int256),
  metadata: optional('mode', 8, transactionMetadataCodec.bare),
});

export interface TransactionId3 {
  readonly kind: 'liteServer.transactionId3';
  readonly account: Buffer;
  readonly lt: string;
}
export const transactionId3Codec = constructor<TransactionId3>('liteServer.transactionId3', {
  account: int256,
  lt: int64,
});

export interface TransactionInfo {
  readonly kind: 'liteServer.transactionInfo';
  readonly id: BlockIdExt;
  readonly proof: Buffer;
  readonly transaction: Buffer;
}
export const transactionInfoCodec = constructor<TransactionInfo>('liteServer.transactionInfo', {
  id: blockIdExt,
  proof: bytes,
  transaction: bytes,
});

export interface TransactionList {
  readonly kind: 'liteServer.transactionList';
  readonly ids: BlockIdExt[];
  readonly transactions: Buffer;
}
export const transactionListCodec = constructor<TransactionList>('liteServer.transactionList', {
  ids: vector(blockIdExt),
  transactions: bytes,
});

export interface BlockTransactions {
  readonly kind: 'liteServer.blockTransactions';
  readonly id: BlockIdExt;
  readonly reqCount: number;
  readonly incomplete: boolean;
  readonly ids: TransactionId[];
  readonly proof: Buffer;
}
export const blockTransactionsCodec = constructor<BlockTransactions>('liteServer.blockTransactions', {
  id: blockIdExt,
  reqCount: nat,
  incomplete: bool,
  ids: vector(transactionIdCodec.bare),
  proof: bytes,
});

export interface BlockTransactionsExt {
  readonly kind: 'liteServer.blockTransactionsExt';
  readonly id: BlockIdExt;
  readonly reqCount: number;
  readonly incomplete: boolean;
  readonly transactions: Buffer;
  readonly proof: Buffer;
}
export const blockTransactionsExtCodec = constructor<BlockTransactionsExt>('liteServer.blockTransactionsExt', {
  id: blockIdExt,
  reqCount: nat,
  incomplete: bool,
  transactions: bytes,
  proof: bytes,
});
