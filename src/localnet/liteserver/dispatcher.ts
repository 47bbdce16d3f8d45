/**
 * Turns the bytes of an `adnl.message.query` into the bytes of its answer: unwraps
 * `liteServer.query`, honours a `waitMasterchainSeqno` prefix, decodes the function, calls its
 * handler and encodes the result. Every failure becomes a `liteServer.error`; nothing throws.
 */
import { LiteProtocolError } from './liteError';
import { AdnlQueryHandler, ConnectionInfo } from '../adnlServer/connection';
import { LocalnetLogger, silentLogger } from '../adnlServer/logger';
import {
  TlDecodeError,
  decodeLiteServerQuery,
  encodeLiteServerError,
  LiteAnswerMap,
  LiteQuery,
  LiteQueryKind,
  LiteQueryOf,
  UnknownLiteFunctionError,
  decodeLiteQuery,
  encodeLiteAnswer,
} from '../../tl';
import { LITE_ERROR } from '../../constants';

/** Largest answer an `adnl.message.answer` can carry (TL bytes hold at most 2^24 - 1). */
const MAX_ANSWER_BYTES = 2 ** 24 - 1;

/** Context passed to every handler. */
export interface LiteQueryContext {
  readonly connection: ConnectionInfo;
}

export type LiteHandler<K extends LiteQueryKind> = (query: LiteQueryOf<K>, context: LiteQueryContext) => Promise<LiteAnswerMap[K]>;

/** One optional handler per lite function; a missing one answers `unknown query`. */
export type LiteHandlers = { readonly [K in LiteQueryKind]?: LiteHandler<K> };

export interface LiteDispatcherOptions {
  handlers: LiteHandlers;
  /**
   * Resolves true once the masterchain has reached `seqno`, or false when `timeoutMs` passes first.
   * Called only for queries carrying a `liteServer.waitMasterchainSeqno` prefix.
   */
  waitForMasterchainSeqno(seqno: number, timeoutMs: number): Promise<boolean>;
  /**
   * Told when a query's handler starts and when it has answered (after any wait for a seqno): the
   * chain's thread finds its quiet moments with it (thread/quietCollections.ts).
   */
  activity?: LiteActivity;
  /** Upper bound applied to a client's wait timeout. Default 30 000 ms. */
  maxWaitMs?: number;
  logger?: LocalnetLogger;
}

/** Observes the queries being answered (not those still waiting for a seqno). */
export interface LiteActivity {
  started(kind: LiteQueryKind): void;
  finished(kind: LiteQueryKind): void;
  /** A getBlock was answered with the block (before `finished`): its readers have it. */
  blockServed?(rootHash: Buffer): void;
}

export function createLiteDispatcher(options: LiteDispatcherOptions): AdnlQueryHandler {
  const logger = options.logger ?? silentLogger;
  const maxWaitMs = options.maxWaitMs ?? 30_000;

  async function answer(queryBytes: Buffer, connection: ConnectionInfo): Promise<Buffer> {
    let functionData: Buffer;
    let query: LiteQuery;
    try {
      const envelope = decodeLiteServerQuery(queryBytes);
      functionData = envelope.functionData;
      if (envelope.wait) {
        const timeoutMs = Math.min(Math.max(envelope.wait.timeoutMs, 0), maxWaitMs);
        const reached = await options.waitForMasterchainSeqno(envelope.wait.seqno, timeoutMs);
        if (!reached) return encodeLiteServerError(LITE_ERROR.timeout, 'timeout');
      }
      query = decodeLiteQuery(functionData);
    } catch (err) {
      if (err instanceof UnknownLiteFunctionError) {
        logger.debug({ connection: connection.id, constructorId: err.constructorId }, 'unknown lite function');
        return encodeLiteServerError(LITE_ERROR.protoviolation, 'unknown query');
      }
      if (err instanceof TlDecodeError) {
        logger.debug({ connection: connection.id, err: err.message }, 'malformed lite query');
        return encodeLiteServerError(LITE_ERROR.protoviolation, `cannot parse query: ${err.message}`);
      }
      return failure(err, 'lite query envelope failed');
    }

    const handler = options.handlers[query.kind] as LiteHandler<LiteQueryKind> | undefined;
    if (!handler) return encodeLiteServerError(LITE_ERROR.protoviolation, 'unknown query');
    options.activity?.started(query.kind);
    try {
      const result = await handler(query as LiteQueryOf<LiteQueryKind>, { connection });
      const encoded = encodeLiteAnswer(query.kind, result);
      if (encoded.length > MAX_ANSWER_BYTES) {
        logger.error({ connection: connection.id, bytes: encoded.length }, `${query.kind} answer is too large`);
        return encodeLiteServerError(LITE_ERROR.fatal, 'answer is too large');
      }
      if (query.kind === 'liteServer.getBlock') options.activity?.blockServed?.(query.id.rootHash);
      return encoded;
    } catch (err) {
      return failure(err, `lite handler ${query.kind} failed`);
    } finally {
      options.activity?.finished(query.kind);
    }

    function failure(err: unknown, context: string): Buffer {
      if (err instanceof LiteProtocolError) return encodeLiteServerError(err.liteCode, err.liteMessage);
      const message = err instanceof Error ? err.message : String(err);
      logger.error({ connection: connection.id, err: message }, context);
      return encodeLiteServerError(LITE_ERROR.fatal, message);
    }
  }

  return async (queryBytes, connection) => {
    try {
      return await answer(queryBytes, connection);
    } catch (err) {
      // Only an encoding bug can get here; the socket layer must still get an answer.
      logger.error({ err: err instanceof Error ? err.message : String(err) }, 'lite dispatcher failed');
      return encodeLiteServerError(LITE_ERROR.fatal, 'internal error');
    }
  };
}
