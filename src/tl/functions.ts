/**
 * lite_api.tl functions: request shapes and codecs, the `LiteQuery` union, the answer type of each
 * function, and boxed encode/decode of whole requests and answers.
 */
import { TlDecodeError, TlReader, TlWriter } from './buffer';
import {
  TlCodec,
  TlConstructor,
  bool,
  bytes,
  constructor,
  decodeTl,
  encodeTl,
  hexId,
  int256,
  int32,
  int64,
  nat,
  optional,
  trueFlag,
  vector,
} from './codec';
import {
  AccountId,
  AccountState,
  AllShardsInfo,
  BlockData,
  BlockHeader,
  BlockId,
  BlockIdExt,
  BlockOutMsgQueueSize,
  BlockState,
  BlockTransactions,
  BlockTransactionsExt,
  ConfigInfo,
  CurrentTime,
  LibraryResult,
  LibraryResultWithProof,
  LookupBlockResult,
  MasterchainInfo,
  MasterchainInfoExt,
  OutMsgQueueSizes,
  PartialBlockProof,
  RunMethodResult,
  SendMsgStatus,
  ShardBlockProof,
  ShardInfo,
  TransactionId3,
  TransactionInfo,
  TransactionList,
  ValidatorStats,
  Version,
  accountIdCodec,
  accountStateCodec,
  allShardsInfoCodec,
  blockDataCodec,
  blockHeaderCodec,
  blockIdCodec,
  blockIdExtCodec,
  blockOutMsgQueueSizeCodec,
  blockStateCodec,
  blockTransactionsCodec,
  blockTransactionsExtCodec,
  configInfoCodec,
  currentTimeCodec,
  libraryResultCodec,
  libraryResultWithProofCodec,
  lookupBlockResultCodec,
  masterchainInfoCodec,
  masterchainInfoExtCodec,
  outMsgQueueSizesCodec,
  partialBlockProofCodec,
  runMethodResultCodec,
  sendMsgStatusCodec,
  shardBlockProofCodec,
  shardInfoCodec,
  transactionId3Codec,
  transactionInfoCodec,
  transactionListCodec,
  validatorStatsCodec,
  versionCodec,
} from './objects';

const blockIdExt = blockIdExtCodec.bare;
const blockId = blockIdCodec.bare;
const accountId = accountIdCodec.bare;

// ---- request shapes --------------------------------------------------------------------------

export interface GetMasterchainInfo {
  readonly kind: 'liteServer.getMasterchainInfo';
}
export interface GetMasterchainInfoExt {
  readonly kind: 'liteServer.getMasterchainInfoExt';
  readonly mode: number;
}
export interface GetTime {
  readonly kind: 'liteServer.getTime';
}
export interface GetVersion {
  readonly kind: 'liteServer.getVersion';
}
export interface GetBlock {
  readonly kind: 'liteServer.getBlock';
  readonly id: BlockIdExt;
}
export interface GetState {
  readonly kind: 'liteServer.getState';
  readonly id: BlockIdExt;
}
export interface GetBlockHeader {
  readonly kind: 'liteServer.getBlockHeader';
  readonly id: BlockIdExt;
  readonly mode: number;
}
export interface SendMessage {
  readonly kind: 'liteServer.sendMessage';
  readonly body: Buffer;
}
export interface GetAccountState {
  readonly kind: 'liteServer.getAccountState';
  readonly id: BlockIdExt;
  readonly account: AccountId;
}
export interface GetAccountStatePrunned {
  readonly kind: 'liteServer.getAccountStatePrunned';
  readonly id: BlockIdExt;
  readonly account: AccountId;
}
export interface RunSmcMethod {
  readonly kind: 'liteServer.runSmcMethod';
  readonly mode: number;
  readonly id: BlockIdExt;
  readonly account: AccountId;
  readonly methodId: string;
  readonly params: Buffer;
}
export interface GetShardInfo {
  readonly kind: 'liteServer.getShardInfo';
  readonly id: BlockIdExt;
  readonly workchain: number;
  readonly shard: string;
  readonly exact: boolean;
}
export interface GetAllShardsInfo {
  readonly kind: 'liteServer.getAllShardsInfo';
  readonly id: BlockIdExt;
}
export interface GetOneTransaction {
  readonly kind: 'liteServer.getOneTransaction';
  readonly id: BlockIdExt;
  readonly account: AccountId;
  readonly lt: string;
}
export interface GetTransactions {
  readonly kind: 'liteServer.getTransactions';
  readonly count: number;
  readonly account: AccountId;
  readonly lt: string;
  readonly hash: Buffer;
}
/** mode bits: 0 by seqno, 1 by lt, 2 by utime. */
export interface LookupBlock {
  readonly kind: 'liteServer.lookupBlock';
  readonly mode: number;
  readonly id: BlockId;
  readonly lt: string | null;
  readonly utime: number | null;
}
export interface LookupBlockWithProof {
  readonly kind: 'liteServer.lookupBlockWithProof';
  readonly mode: number;
  readonly id: BlockId;
  readonly mcBlockId: BlockIdExt;
  readonly lt: string | null;
  readonly utime: number | null;
}
/** mode bits: 0 account, 1 lt, 2 hash (of each id), 5 wantProof, 6 reverseOrder, 7 after. */
export interface ListBlockTransactions {
  readonly kind: 'liteServer.listBlockTransactions';
  readonly id: BlockIdExt;
  readonly mode: number;
  readonly count: number;
  readonly after: TransactionId3 | null;
  readonly reverseOrder: boolean | null;
  readonly wantProof: boolean | null;
}
export interface ListBlockTransactionsExt {
  readonly kind: 'liteServer.listBlockTransactionsExt';
  readonly id: BlockIdExt;
  readonly mode: number;
  readonly count: number;
  readonly after: TransactionId3 | null;
  readonly reverseOrder: boolean | null;
  readonly wantProof: boolean | null;
}
export interface GetBlockProof {
  readonly kind: 'liteServer.getBlockProof';
  readonly mode: number;
  readonly knownBlock: BlockIdExt;
  readonly targetBlock: BlockIdExt | null;
}
export interface GetConfigAll {
  readonly kind: 'liteServer.getConfigAll';
  readonly mode: number;
  readonly id: BlockIdExt;
}
export interface GetConfigParams {
  readonly kind: 'liteServer.getConfigParams';
  readonly mode: number;
  readonly id: BlockIdExt;
  readonly paramList: number[];
}
export interface GetValidatorStats {
  readonly kind: 'liteServer.getValidatorStats';
  readonly mode: number;
  readonly id: BlockIdExt;
  readonly limit: number;
  readonly startAfter: Buffer | null;
  readonly modifiedAfter: number | null;
}
export interface GetLibraries {
  readonly kind: 'liteServer.getLibraries';
  readonly libraryList: Buffer[];
}
export interface GetLibrariesWithProof {
  readonly kind: 'liteServer.getLibrariesWithProof';
  readonly id: BlockIdExt;
  readonly mode: number;
  readonly libraryList: Buffer[];
}
export interface GetShardBlockProof {
  readonly kind: 'liteServer.getShardBlockProof';
  readonly id: BlockIdExt;
}
/** mode bit 0: only the shard `wc:shard`. */
export interface GetOutMsgQueueSizes {
  readonly kind: 'liteServer.getOutMsgQueueSizes';
  readonly mode: number;
  readonly wc: number | null;
  readonly shard: string | null;
}
export interface GetBlockOutMsgQueueSize {
  readonly kind: 'liteServer.getBlockOutMsgQueueSize';
  readonly mode: number;
  readonly id: BlockIdExt;
  readonly wantProof: boolean | null;
}

/** Every lite function this package can decode, discriminated by `kind`. */
export type LiteQuery =
  | GetMasterchainInfo
  | GetMasterchainInfoExt
  | GetTime
  | GetVersion
  | GetBlock
  | GetState
  | GetBlockHeader
  | SendMessage
  | GetAccountState
  | GetAccountStatePrunned
  | RunSmcMethod
  | GetShardInfo
  | GetAllShardsInfo
  | GetOneTransaction
  | GetTransactions
  | LookupBlock
  | LookupBlockWithProof
  | ListBlockTransactions
  | ListBlockTransactionsExt
  | GetBlockProof
  | GetConfigAll
  | GetConfigParams
  | GetValidatorStats
  | GetLibraries
  | GetLibrariesWithProof
  | GetShardBlockProof
  | GetOutMsgQueueSizes
  | GetBlockOutMsgQueueSize;

export type LiteQueryKind = LiteQuery['kind'];
export type LiteQueryOf<K extends LiteQueryKind> = Extract<LiteQuery, { kind: K }>;

/** The answer type each function returns (its boxed result type in lite_api.tl). */
export interface LiteAnswerMap {
  'liteServer.getMasterchainInfo': MasterchainInfo;
  'liteServer.getMasterchainInfoExt': MasterchainInfoExt;
  'liteServer.getTime': CurrentTime;
  'liteServer.getVersion': Version;
  'liteServer.getBlock': BlockData;
  'liteServer.getState': BlockState;
  'liteServer.getBlockHeader': BlockHeader;
  'liteServer.sendMessage': SendMsgStatus;
  'liteServer.getAccountState': AccountState;
  'liteServer.getAccountStatePrunned': AccountState;
  'liteServer.runSmcMethod': RunMethodResult;
  'liteServer.getShardInfo': ShardInfo;
  'liteServer.getAllShardsInfo': AllShardsInfo;
  'liteServer.getOneTransaction': TransactionInfo;
  'liteServer.getTransactions': TransactionList;
  'liteServer.lookupBlock': BlockHeader;
  'liteServer.lookupBlockWithProof': LookupBlockResult;
  'liteServer.listBlockTransactions': BlockTransactions;
  'liteServer.listBlockTransactionsExt': BlockTransactionsExt;
  'liteServer.getBlockProof': PartialBlockProof;
  'liteServer.getConfigAll': ConfigInfo;
  'liteServer.getConfigParams': ConfigInfo;
  'liteServer.getValidatorStats': ValidatorStats;
  'liteServer.getLibraries': LibraryResult;
  'liteServer.getLibrariesWithProof': LibraryResultWithProof;
  'liteServer.getShardBlockProof': ShardBlockProof;
  'liteServer.getOutMsgQueueSizes': OutMsgQueueSizes;
  'liteServer.getBlockOutMsgQueueSize': BlockOutMsgQueueSize;
}
export type LiteAnswerFor<K extends LiteQueryKind> = LiteAnswerMap[K];
/** Any answer object a lite function can return. */
export type LiteAnswer = LiteAnswerMap[LiteQueryKind];

// ---- codecs ----------------------------------------------------------------------------------

/** Request codec (boxed, with the function's constructor id) and answer codec (boxed) of one function. */
export interface LiteFunctionCodec<Q extends LiteQuery, A> {
  readonly request: TlConstructor<Q>;
  readonly answer: TlCodec<A>;
}

const lookupFields = {
  mode: nat,
  id: blockId,
  lt: optional('mode', 1, int64),
  utime: optional('mode', 2, int32),
};
const listTransactionsFields = {
  id: blockIdExt,
  mode: nat,
  count: nat,
  after: optional('mode', 7, transactionId3Codec.bare),
  reverseOrder: trueFlag('mode', 6),
  wantProof: trueFlag('mode', 5),
};

export const LITE_FUNCTIONS: { readonly [K in LiteQueryKind]: LiteFunctionCodec<LiteQueryOf<K>, LiteAnswerMap[K]> } = {
  'liteServer.getMasterchainInfo': {
    request: constructor<GetMasterchainInfo>('liteServer.getMasterchainInfo', {}),
    answer: masterchainInfoCodec,
  },
  'liteServer.getMasterchainInfoExt': {
    request: constructor<GetMasterchainInfoExt>('liteServer.getMasterchainInfoExt', { mode: nat }),
    answer: masterchainInfoExtCodec,
  },
  'liteServer.getTime': { request: constructor<GetTime>('liteServer.getTime', {}), answer: currentTimeCodec },
  'liteServer.getVersion': { request: constructor<GetVersion>('liteServer.getVersion', {}), answer: versionCodec },
  'liteServer.getBlock': {
    request: constructor<GetBlock>('liteServer.getBlock', { id: blockIdExt }),
    answer: blockDataCodec,
  },
  'liteServer.getState': {
    request: constructor<GetState>('liteServer.getState', { id: blockIdExt }),
    answer: blockStateCodec,
  },
  'liteServer.getBlockHeader': {
    request: constructor<GetBlockHeader>('liteServer.getBlockHeader', { id: blockIdExt, mode: nat }),
    answer: blockHeaderCodec,
  },
  'liteServer.sendMessage': {
    request: constructor<SendMessage>('liteServer.sendMessage', { body: bytes }),
    answer: sendMsgStatusCodec,
  },
  'liteServer.getAccountState': {
    request: constructor<GetAccountState>('liteServer.getAccountState', { id: blockIdExt, account: accountId }),
    answer: accountStateCodec,
  },
  'liteServer.getAccountStatePrunned': {
    request: constructor<GetAccountStatePrunned>('liteServer.getAccountStatePrunned', {
      id: blockIdExt,
      account: accountId,
    }),
    answer: accountStateCodec,
  },
  'liteServer.runSmcMethod': {
    request: constructor<RunSmcMethod>('liteServer.runSmcMethod', {
      mode: nat,
      id: blockIdExt,
      account: accountId,
      methodId: int64,
      params: bytes,
    }),
    answer: runMethodResultCodec,
  },
  'liteServer.getShardInfo': {
    request: constructor<GetShardInfo>('liteServer.getShardInfo', {
      id: blockIdExt,
      workchain: int32,
      shard: int64,
      exact: bool,
    }),
    answer: shardInfoCodec,
  },
  'liteServer.getAllShardsInfo': {
    request: constructor<GetAllShardsInfo>('liteServer.getAllShardsInfo', { id: blockIdExt }),
    answer: allShardsInfoCodec,
  },
  'liteServer.getOneTransaction': {
    request: constructor<GetOneTransaction>('liteServer.getOneTransaction', {
      id: blockIdExt,
      account: accountId,
      lt: int64,
    }),
    answer: transactionInfoCodec,
  },
  'liteServer.getTransactions': {
    request: constructor<GetTransactions>('liteServer.getTransactions', {
      count: nat,
      account: accountId,
      lt: int64,
      hash: int256,
    }),
    answer: transactionListCodec,
  },
  'liteServer.lookupBlock': {
    request: constructor<LookupBlock>('liteServer.lookupBlock', lookupFields),
    answer: blockHeaderCodec,
  },
  'liteServer.lookupBlockWithProof': {
    request: constructor<LookupBlockWithProof>('liteServer.lookupBlockWithProof', {
      mode: nat,
      id: blockId,
      mcBlockId: blockIdExt,
      lt: optional('mode', 1, int64),
      utime: optional('mode', 2, int32),
    }),
    answer: lookupBlockResultCodec,
  },
  'liteServer.listBlockTransactions': {
    request: constructor<ListBlockTransactions>('liteServer.listBlockTransactions', listTransactionsFields),
    answer: blockTransactionsCodec,
  },
  'liteServer.listBlockTransactionsExt': {
    request: constructor<ListBlockTransactionsExt>('liteServer.listBlockTransactionsExt', listTransactionsFields),
    answer: blockTransactionsExtCodec,
  },
  'liteServer.getBlockProof': {
    request: constructor<GetBlockProof>('liteServer.getBlockProof', {
      mode: nat,
      knownBlock: blockIdExt,
      targetBlock: optional('mode', 0, blockIdExt),
    }),
    answer: partialBlockProofCodec,
  },
  'liteServer.getConfigAll': {
    request: constructor<GetConfigAll>('liteServer.getConfigAll', { mode: nat, id: blockIdExt }),
    answer: configInfoCodec,
  },
  'liteServer.getConfigParams': {
    request: constructor<GetConfigParams>('liteServer.getConfigParams', {
      mode: nat,
      id: blockIdExt,
      paramList: vector(int32),
    }),
    answer: configInfoCodec,
  },
  'liteServer.getValidatorStats': {
    request: constructor<GetValidatorStats>('liteServer.getValidatorStats', {
      mode: nat,
      id: blockIdExt,
      limit: int32,
      startAfter: optional('mode', 0, int256),
      modifiedAfter: optional('mode', 2, int32),
    }),
    answer: validatorStatsCodec,
  },
  'liteServer.getLibraries': {
    request: constructor<GetLibraries>('liteServer.getLibraries', { libraryList: vector(int256) }),
    answer: libraryResultCodec,
  },
  'liteServer.getLibrariesWithProof': {
    request: constructor<GetLibrariesWithProof>('liteServer.getLibrariesWithProof', {
      id: blockIdExt,
      mode: nat,
      libraryList: vector(int256),
    }),
    answer: libraryResultWithProofCodec,
  },
  'liteServer.getShardBlockProof': {
    request: constructor<GetShardBlockProof>('liteServer.getShardBlockProof', { id: blockIdExt }),
    answer: shardBlockProofCodec,
  },
  'liteServer.getOutMsgQueueSizes': {
    request: constructor<GetOutMsgQueueSizes>('liteServer.getOutMsgQueueSizes', {
      mode: nat,
      wc: optional('mode', 0, int32),
      shard: optional('mode', 0, int64),
    }),
    answer: outMsgQueueSizesCodec,
  },
  'liteServer.getBlockOutMsgQueueSize': {
    request: constructor<GetBlockOutMsgQueueSize>('liteServer.getBlockOutMsgQueueSize', {
      mode: nat,
      id: blockIdExt,
      wantProof: trueFlag('mode', 0),
    }),
    answer: blockOutMsgQueueSizeCodec,
  },
};

export const LITE_QUERY_KINDS = Object.keys(LITE_FUNCTIONS) as LiteQueryKind[];

const functionById = new Map<number, LiteFunctionCodec<LiteQuery, LiteAnswer>>(
  LITE_QUERY_KINDS.map((kind) => {
    const fn = LITE_FUNCTIONS[kind] as unknown as LiteFunctionCodec<LiteQuery, LiteAnswer>;
    return [fn.request.id, fn];
  }),
);

/** The request's constructor id is not a lite function this package knows. */
export class UnknownLiteFunctionError extends TlDecodeError {
  override name = 'UnknownLiteFunctionError';
  constructor(readonly constructorId: number) {
    super(`unknown lite function ${hexId(constructorId)}`);
  }
}

export function liteFunction<K extends LiteQueryKind>(kind: K): LiteFunctionCodec<LiteQueryOf<K>, LiteAnswerMap[K]> {
  return LITE_FUNCTIONS[kind] as LiteFunctionCodec<LiteQueryOf<K>, LiteAnswerMap[K]>;
}

/** Boxed function (constructor id + fields), e.g. the body of `liteServer.query` after any prefix. */
export function encodeLiteQuery(query: LiteQuery): Buffer {
  const fn = liteFunction(query.kind) as unknown as LiteFunctionCodec<LiteQuery, LiteAnswer>;
  return encodeTl(fn.request, query);
}

/**
 * Decodes a boxed lite function. Throws UnknownLiteFunctionError for an unknown constructor id and
 * TlDecodeError for malformed fields or trailing bytes.
 */
export function decodeLiteQuery(data: Buffer): LiteQuery {
  const reader = new TlReader(data);
  const id = reader.peekUint32();
  const fn = functionById.get(id);
  if (!fn) throw new UnknownLiteFunctionError(id);
  const query = fn.request.read(reader);
  reader.expectEnd();
  return query;
}

export function encodeLiteAnswer<K extends LiteQueryKind>(kind: K, answer: LiteAnswerMap[K]): Buffer {
  const writer = new TlWriter();
  liteFunction(kind).answer.write(writer, answer);
  return writer.build();
}

export function decodeLiteAnswer<K extends LiteQueryKind>(kind: K, data: Buffer): LiteAnswerMap[K] {
  return decodeTl(liteFunction(kind).answer, data);
}
