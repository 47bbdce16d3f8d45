/**
 * lite_api.tl functions: request shapes and codecs (one module per family, each pairing its
 * functions with their answers), the `LiteQuery` union, the answer type of each function, and
 * boxed encode/decode of whole requests and answers.
 */
import { TlDecodeError, TlReader, TlWriter } from '../buffer';
import { decodeTl, encodeTl, hexId } from '../codec';
import { ACCOUNT_FUNCTIONS, AccountAnswers, AccountQuery } from './accounts';
import { BLOCK_FUNCTIONS, BlockAnswers, BlockQuery } from './blocks';
import { CONFIG_FUNCTIONS, ConfigAnswers, ConfigQuery } from './config';
import { LiteFunctionCodec } from './liteFunction';
import { PROOF_FUNCTIONS, ProofAnswers, ProofQuery } from './proofs';
import { SERVER_INFO_FUNCTIONS, ServerInfoAnswers, ServerInfoQuery } from './serverInfo';
import { SHARD_FUNCTIONS, ShardAnswers, ShardQuery } from './shards';
import { TRANSACTION_FUNCTIONS, TransactionAnswers, TransactionQuery } from './transactions';

export type { LiteFunctionCodec } from './liteFunction';
export type { GetMasterchainInfo, GetMasterchainInfoExt, GetTime, GetVersion } from './serverInfo';
export type { GetBlock, GetState, GetBlockHeader, LookupBlock, LookupBlockWithProof } from './blocks';
export type { SendMessage, GetAccountState, GetAccountStatePrunned, RunSmcMethod } from './accounts';
export type { GetOneTransaction, GetTransactions, ListBlockTransactions, ListBlockTransactionsExt } from './transactions';
export type { GetShardInfo, GetAllShardsInfo, GetOutMsgQueueSizes, GetBlockOutMsgQueueSize } from './shards';
export type { GetBlockProof, GetShardBlockProof } from './proofs';
export type { GetConfigAll, GetConfigParams, GetValidatorStats, GetLibraries, GetLibrariesWithProof } from './config';

/** Every lite function this package can decode, discriminated by `kind`. */
export type LiteQuery = ServerInfoQuery | BlockQuery | AccountQuery | TransactionQuery | ShardQuery | ProofQuery | ConfigQuery;

export type LiteQueryKind = LiteQuery['kind'];
export type LiteQueryOf<K extends LiteQueryKind> = Extract<LiteQuery, { kind: K }>;

/** The answer type each function returns (its boxed result type in lite_api.tl). */
export interface LiteAnswerMap
  extends ServerInfoAnswers, BlockAnswers, AccountAnswers, TransactionAnswers, ShardAnswers, ProofAnswers, ConfigAnswers {}
export type LiteAnswerFor<K extends LiteQueryKind> = LiteAnswerMap[K];
/** Any answer object a lite function can return. */
export type LiteAnswer = LiteAnswerMap[LiteQueryKind];

export const LITE_FUNCTIONS: { readonly [K in LiteQueryKind]: LiteFunctionCodec<LiteQueryOf<K>, LiteAnswerMap[K]> } = {
  ...SERVER_INFO_FUNCTIONS,
  ...BLOCK_FUNCTIONS,
  ...ACCOUNT_FUNCTIONS,
  ...TRANSACTION_FUNCTIONS,
  ...SHARD_FUNCTIONS,
  ...PROOF_FUNCTIONS,
  ...CONFIG_FUNCTIONS,
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
