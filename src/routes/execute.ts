import type { Logger } from 'pino';
import { type CachedAnswer, type ResponseCache, responseKey } from '../cache';
import { masterchainBlock } from '../chain';
import type { McBlock } from '../proofs';
import { ApiError, NoHealthyLiteServerError, type ErrorKind } from '../errors';
import { httpStatusOf } from '../httpErrors';
import type { CachePolicy, CallSession, Handler, HandlerContext, JsonValue, ParsedCall } from '../methods';
import type { LiteSession, LiteSessionOptions } from '../liteclient';
import type { RequestSource } from '../params';
import type { AppServices } from './services';

export interface CallOutcome {
  /** The JSON of `result`, as sent (cached answers are these very bytes). */
  readonly resultBytes: Buffer;
  /** toncenter's `@extra`: `<unix seconds>:<lite server indices or _>:<elapsed ms>`. */
  readonly extra: string;
  /** Whether the answer came from the response cache; undefined for methods that are never cached. */
  readonly cache: 'hit' | 'miss' | undefined;
  /** `result` as a value (parsed on demand; the REST path never needs it). */
  readonly result: JsonValue;
}

/** A deterministic 4xx answered from the cache: the same error, plus where it came from. */
export class CachedApiError extends ApiError {
  constructor(
    kind: ErrorKind,
    message: string,
    readonly cache: 'hit' | 'miss',
  ) {
    super(kind, message);
  }
}

/**
 * Keys that never reach a handler: `api_key` is a transport concern, and the names through
 * which plain objects reach their prototype are never parameters, whatever a client sends.
 */
const EXCLUDED_KEYS = new Set(['api_key', '__proto__', 'constructor', 'prototype']);

/** The parameters of a call, as an object without a prototype (a key cannot reach one). */
export function callParameters(raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(raw)) if (!EXCLUDED_KEYS.has(key)) out[key] = raw[key];
  return out;
}

/**
 * Client mistakes whose answer depends only on the parameters and the block: cached like results
 * (the cache keeps an answer's HTTP status; the kind is recovered from it).
 */
const DETERMINISTIC_CLIENT_ERRORS: ReadonlyMap<number, ErrorKind> = new Map<number, ErrorKind>([
  [400, 'badRequest'],
  [404, 'notFound'],
  [409, 'conflict'],
  [422, 'badInput'],
]);

function cachedErrorKind(status: number): ErrorKind {
  return DETERMINISTIC_CLIENT_ERRORS.get(status) ?? 'failed';
}

async function computeAnswer(call: ParsedCall, context: HandlerContext): Promise<CachedAnswer> {
  try {
    return { status: 200, bytes: Buffer.from(JSON.stringify(await call.run(context))) };
  } catch (err) {
    if (err instanceof ApiError && DETERMINISTIC_CLIENT_ERRORS.has(httpStatusOf(err)) && err.constructor !== CachedApiError) {
      return { status: httpStatusOf(err), bytes: Buffer.from(err.message) };
    }
    throw err;
  }
}

/** The parameters of a call as its handler parses and validates them (422 before any work). */
export function parseCall(handler: Handler, raw: Record<string, unknown>, source: RequestSource): ParsedCall {
  return handler.parse(callParameters(raw), source);
}

/** How a method's answers are cached here: never without a cache or a chain to key them by. */
export function cachePolicyFor(services: AppServices, handler: Handler): CachePolicy {
  return services.cache && services.lite ? handler.cache : 'never';
}

/** The seqno whose block keys the answer (the block a `seqno` method's call reads); undefined: the request's head. */
function keySeqno(policy: CachePolicy, call: ParsedCall): number | undefined {
  return policy === 'seqno' ? call.session.seqno : undefined;
}

/** The masterchain block an answer is keyed by: the block the call reads, or the request's head. */
async function keyBlock(session: LiteSession, policy: CachePolicy, call: ParsedCall): Promise<McBlock> {
  const seqno = keySeqno(policy, call);
  if (seqno !== undefined) return masterchainBlock(session, seqno);
  return (await session.head()).last;
}

/** The pool options a call asks for (getTransactions' `archival`). */
function sessionOptionsOf(session: CallSession): LiteSessionOptions {
  return session.archival === undefined ? {} : { archival: session.archival };
}

/** A cache key known without a round trip, and the lite servers resolving it used (for `@extra`). */
export interface KnownKey {
  readonly key: string;
  readonly servers: readonly number[];
}

/**
 * The response-cache key of a parsed call when its block is known now, without waiting or asking
 * a lite server (what the fast path needs to find a hit): the block `seqno` names if the head
 * tracker knows it, else the head a session would resolve now. The very key executeCall looks
 * up for the same request at the same moment; undefined when resolving it needs a round trip.
 */
export function cacheKeyNow(services: AppServices, handler: Handler, call: ParsedCall): KnownKey | undefined {
  const policy = cachePolicyFor(services, handler);
  const lite = services.lite;
  if (policy === 'never' || !lite) return undefined;
  const seqno = keySeqno(policy, call);
  if (seqno !== undefined) {
    const block = lite.knownMasterchainBlock?.(seqno);
    return block && { key: responseKey(handler.name, call.params, block.rootHash), servers: [] };
  }
  const head = lite.trackedHead?.(sessionOptionsOf(call.session));
  return head && { key: responseKey(handler.name, call.params, head.info.last.rootHash), servers: [head.server] };
}

/** toncenter's `@extra` of a call that started at `started` (performance.now()) and used these servers. */
export function extraOf(started: number, servers: readonly number[]): string {
  const elapsed = (performance.now() - started).toFixed(3);
  return `${Math.floor(Date.now() / 1000)}:${servers.length ? servers.join(',') : '_'}:${elapsed}`;
}

class Outcome implements CallOutcome {
  private parsed: JsonValue | undefined;

  constructor(
    readonly resultBytes: Buffer,
    readonly extra: string,
    readonly cache: 'hit' | 'miss' | undefined,
  ) {}

  get result(): JsonValue {
    this.parsed ??= JSON.parse(this.resultBytes.toString('utf8')) as JsonValue;
    return this.parsed;
  }
}

/**
 * Runs one API call: parse and validate the parameters (422 before any work), then, for a method
 * whose answer is a function of a masterchain block, the response cache keyed by that block (the
 * request's head from the head tracker, or the block its `seqno` names), else the handler, with a
 * context whose lite-server session is opened lazily and kept for the whole call.
 */
export async function executeCall(
  services: AppServices,
  handler: Handler,
  raw: Record<string, unknown>,
  source: RequestSource,
  requestId: string,
  logger: Logger,
): Promise<CallOutcome> {
  const started = performance.now();
  const call = parseCall(handler, raw, source);
  const deadline = Date.now() + services.config.requestTimeout;
  let session: LiteSession | undefined;
  let sentTo: readonly number[] = [];
  const lite = (): LiteSession => {
    if (!services.lite) throw new NoHealthyLiteServerError('no lite servers are configured');
    session ??= services.lite.openSession(sessionOptionsOf(call.session), deadline);
    return session;
  };
  const context: HandlerContext = {
    config: services.config,
    logger,
    requestId,
    deadline,
    lite,
    async sendMessage(boc) {
      if (!services.lite) throw new NoHealthyLiteServerError('no lite servers are configured');
      sentTo = (await services.lite.broadcastMessage(boc, services.config.sendFanout, deadline)).sentTo;
      // Accepted: its trace is emulated in the background and served as pending; the answer never waits for it.
      services.pending?.track(boc);
    },
    consensusSeqno: () => services.lite?.consensusSeqno(),
  };
  const cache: ResponseCache | undefined = services.cache;
  const policy = cachePolicyFor(services, handler);
  let answer: CachedAnswer;
  let cacheState: 'hit' | 'miss' | undefined;
  if (!cache || policy === 'never') {
    answer = await computeAnswer(call, context);
    if (answer.status !== 200) throw new ApiError(cachedErrorKind(answer.status), answer.bytes.toString('utf8'));
  } else {
    const block = await keyBlock(lite(), policy, call);
    const found = await cache.lookup(responseKey(handler.name, call.params, block.rootHash), () => computeAnswer(call, context));
    answer = found.answer;
    cacheState = found.hit ? 'hit' : 'miss';
    if (answer.status !== 200) throw new CachedApiError(cachedErrorKind(answer.status), answer.bytes.toString('utf8'), cacheState);
  }
  const used = [...new Set([...(session?.usedServers ?? []), ...sentTo])];
  return new Outcome(answer.bytes, extraOf(started, used), cacheState);
}
