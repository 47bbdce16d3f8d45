import type { Logger } from 'pino';
import type { AppConfig } from '../config';
import type { LiteSession, LiteSessionOptions } from '../liteclient';
import type { ParamShape, ParamValues, RequestSource } from '../params';

export type HttpVerb = 'GET' | 'POST';

/** toncenter serves read methods on both verbs; runGetMethod(Std), sendBoc*, estimateFee are POST only. */
export const READ_VERBS: readonly HttpVerb[] = ['GET', 'POST'];
export const POST_ONLY: readonly HttpVerb[] = ['POST'];

export type HandlerCategory = 'utils' | 'accounts' | 'blocks' | 'transactions' | 'config' | 'run' | 'send';

/**
 * A method's `result`: JSON-serialisable data (the converters' interfaces are objects without index
 * signatures, so `object` rather than a recursive JSON type).
 */
export type JsonValue = string | number | boolean | null | object;

/** Everything a handler may use besides its parameters. */
export interface HandlerContext {
  readonly config: AppConfig;
  readonly logger: Logger;
  readonly requestId: string;
  /** When the request must be answered (ms since the epoch): lite queries and worker tasks stop there. */
  readonly deadline: number;
  /** The request's lite-server session; created on first use, sticky for the whole request. */
  lite(options?: LiteSessionOptions): LiteSession;
  /**
   * Sends an external message to several lite servers at once (`--send-fanout`); resolves only
   * once one of them accepted it, rejects with the first rejection or a timeout otherwise.
   */
  sendMessage(boc: Buffer): Promise<void>;
  /** The pool's consensus seqno, for getConsensusBlock. */
  consensusSeqno(): number | undefined;
}

export interface HandlerDefinition<S extends ParamShape> {
  readonly name: string;
  /** Other names toncenter serves the same handler under (`shards`, `tryLocateTx`). */
  readonly aliases?: readonly string[];
  readonly category: HandlerCategory;
  readonly verbs: readonly HttpVerb[];
  readonly summary: string;
  readonly params: S;
  /** Cross-parameter checks; throw ValidationError('failed to validate request: ...'). */
  readonly validate?: (params: ParamValues<S>) => void;
  /** Absent while the method is not built yet: the table, routes and docs still list it (501). */
  readonly run?: (ctx: HandlerContext, params: ParamValues<S>) => Promise<JsonValue>;
}

/** A table entry with its parameter types erased, so every handler fits in one list. */
export interface Handler {
  readonly name: string;
  readonly aliases: readonly string[];
  readonly category: HandlerCategory;
  readonly verbs: readonly HttpVerb[];
  readonly summary: string;
  readonly params: ParamShape;
  readonly implemented: boolean;
  /** Parses and validates raw values; throws ValidationError (422) naming the parameter. */
  parse(raw: Record<string, unknown>, source: RequestSource): unknown;
  run(ctx: HandlerContext, parsed: unknown): Promise<JsonValue>;
}
