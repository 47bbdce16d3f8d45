/**
 * lite_api.tl data types (everything that is not a function): TypeScript shapes and codecs.
 * Shapes follow ton-lite-client's generated schema: camelCase fields, `long` as a decimal string,
 * `int256`/`bytes` as Buffer, optional fields as `T | null`, `true` flags as `boolean | null`.
 */
import { bool, bytes, constructor, int256, int32, int64, nat, optional, string, union, vector } from './codec';

// ---- tonNode ---------------------------------------------------------------------------------

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

// Typed fields (`id:tonNode.blockIdExt`) are bare: no constructor id on the wire.
const blockIdExt = blockIdExtCodec.bare;

// ---- small liteServer objects ----------------------------------------------------------------

export interface LiteServerErrorObject {
  readonly kind: 'liteServer.error';
  readonly code: number;
  readonly message: string;
}
export const liteServerErrorCodec = constructor<LiteServerErrorObject>('liteServer.error', {
  code: int32,
  message: string,
});

export interface AccountId {
  readonly kind: 'liteServer.accountId';
  readonly workchain: number;
  readonly id: Buffer;
}
export const accountIdCodec = constructor<AccountId>('liteServer.accountId', { workchain: int32, id: int256 });

export interface LibraryEntry {
  readonly kind: 'liteServer.libraryEntry';
  readonly hash: Buffer;
  readonly data: Buffer;
}
export const libraryEntryCodec = constructor<LibraryEntry>('liteServer.libraryEntry', { hash: int256, data: bytes });

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

export interface OutMsgQueueSize {
  readonly kind: 'liteServer.outMsgQueueSize';
  readonly id: BlockIdExt;
  readonly size: number;
}
export const outMsgQueueSizeCodec = constructor<OutMsgQueueSize>('liteServer.outMsgQueueSize', {
  id: blockIdExt,
  size: int32,
});

// ---- answers ---------------------------------------------------------------------------------

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

export interface ShardBlockProof {
  readonly kind: 'liteServer.shardBlockProof';
  readonly masterchainId: BlockIdExt;
  readonly links: ShardBlockLink[];
}
export const shardBlockProofCodec = constructor<ShardBlockProof>('liteServer.shardBlockProof', {
  masterchainId: blockIdExt,
  links: vector(shardBlockLinkCodec.bare),
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
