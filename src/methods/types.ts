import type { Logger } from 'pino';
import type { AppConfig } from '../config';
import type { LiteSession } from '../liteclient';
import type { ParamInputs, ParamShape, ParamValues, RequestSource } from '../params';
import type { JsonSchema } from './resultSchema';

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
  /**
   * The request's lite-server session, with the options the method's record asks for (its
   * `session`); created on first use, sticky for the whole request.
   */
  lite(): LiteSession;
  /**
   * Sends an external message to several lite servers at once (`--send-fanout`); resolves only
   * once one of them accepted it, rejects with the first rejection or a timeout otherwise.
   */
  sendMessage(boc: Buffer): Promise<void>;
  /** The pool's consensus seqno, for getConsensusBlock. */
  consensusSeqno(): number | undefined;
}

/**
 * Which masterchain block a method's answer is a function of, which decides its cache key:
 *
 * - `head`: the request's head (every "latest" read, and reads whose inputs name blocks or
 *   transactions: keyed under the head they were answered at, which is always right and lets a
 *   new head end them);
 * - `seqno`: the masterchain block the call's `session` names (its `seqno` parameter) when given,
 *   else the head;
 * - `never`: not cached (sends, anything answered without the chain, the pool's own view).
 */
export type CachePolicy = 'head' | 'seqno' | 'never';

/** What the executor needs from a call's parameters before it runs: read from them, typed. */
export interface CallSession {
  /** The pool's choice of servers: true archival only, false non-archival only, undefined any. */
  readonly archival?: boolean | undefined;
  /** The masterchain block the answer is read at (keys a `seqno` method's answer); undefined: the head. */
  readonly seqno?: number | undefined;
}

export interface HandlerDefinition<S extends ParamShape> {
  readonly name: string;
  /** Other names toncenter serves the same handler under (`shards`, `tryLocateTx`). */
  readonly aliases?: readonly string[];
  readonly category: HandlerCategory;
  readonly verbs: readonly HttpVerb[];
  readonly summary: string;
  readonly params: S;
  /** How the answers are cached. */
  readonly cache: CachePolicy;
  /** The session options and the block a call asks for, from its parameters. */
  readonly session: (params: ParamValues<S>) => CallSession;
  /** The JSON Schema of `result` (the OpenAPI document's `<Method>Result`). */
  readonly result: JsonSchema;
  /** Cross-parameter checks, on the parsed forms; throw ValidationError('failed to validate request: ...'). */
  readonly validate?: (params: ParamInputs<S>) => void;
  /** Absent while the method is not built yet: the table, routes and docs still list it (501). */
  readonly run?: (ctx: HandlerContext, params: ParamValues<S>) => Promise<JsonValue>;
}

/** A call whose parameters were parsed and checked: what the executor keys, opens and runs. */
export interface ParsedCall {
  /** The parsed parameters, for the cache key (parsed values: formatting cannot split entries). */
  readonly params: Readonly<Record<string, unknown>>;
  readonly session: CallSession;
  run(ctx: HandlerContext): Promise<JsonValue>;
}

/** A table entry with its parameter types closed over, so every handler fits in one list. */
export interface Handler {
  readonly name: string;
  readonly aliases: readonly string[];
  readonly category: HandlerCategory;
  readonly verbs: readonly HttpVerb[];
  readonly summary: string;
  readonly params: ParamShape;
  readonly cache: CachePolicy;
  readonly result: JsonSchema;
  readonly implemented: boolean;
  /** Parses and validates raw values; throws ValidationError (422) naming the parameter. */
  parse(raw: Record<string, unknown>, source: RequestSource): ParsedCall;
}
