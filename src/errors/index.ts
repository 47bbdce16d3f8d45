import { LITE_ERROR } from '../constants';
/**
 * The one error hierarchy of the server: domain errors, each of a kind, carrying no HTTP status.
 * The HTTP edge (src/httpErrors) is the single place where kinds become statuses and bodies.
 */

/** What went wrong, as the domain sees it. */
export type ErrorKind =
  /** The request itself is malformed (not its parameters). */
  | 'badRequest'
  /** A parameter is missing, malformed or out of bounds; or the chain cannot serve the request as asked. */
  | 'badInput'
  | 'unauthorized'
  | 'forbidden'
  | 'notFound'
  | 'methodNotAllowed'
  /** The request's body did not arrive in time. */
  | 'requestTimeout'
  /** The contract or state is not what the method needs. */
  | 'conflict'
  | 'tooLarge'
  | 'uriTooLong'
  | 'unsupportedEncoding'
  | 'rateLimited'
  /** A failure this request met (a contract's unexpected answer, a worker replaced...). */
  | 'failed'
  /** A bug of ours. */
  | 'internal'
  | 'notImplemented'
  /** A lite server answered `liteServer.error` (its code is kept). */
  | 'liteServer'
  /** A lite server's answer does not decode as the answer to the query. */
  | 'invalidAnswer'
  /** A lite server's answer failed a proof check. */
  | 'proof'
  /** No lite server or TVM worker can take the work now. */
  | 'unavailable'
  /** The request's deadline passed. */
  | 'timeout'
  /** A get-method's result stack is deeper than a client may be given (toncenter's 533). */
  | 'resultTooDeep';

export class ApiError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Bad or missing parameter (toncenter: 422 "failed to parse ... request" / "failed to validate request"). */
export class ValidationError extends ApiError {
  constructor(message: string) {
    super('badInput', message);
  }
}

/**
 * A request body that is not JSON (or nests too deep to parse). `jsonRpc`: it was sent to the
 * JSON-RPC endpoint, whose answer then names no call (JSON-RPC 2.0: a parse error has `id: null`).
 */
export class UnparseableBodyError extends ValidationError {
  constructor(
    detail: string,
    readonly jsonRpc: boolean,
  ) {
    super(`failed to parse post request: ${detail}`);
  }
}

/** The text of a failed semantic check (toncenter's wording). */
export function invalidText(detail: string): string {
  return `failed to validate request: ${detail}`;
}

/** A semantic check failed (toncenter: 422 "failed to validate request: ..."). */
export function invalid(detail: string): never {
  throw new ValidationError(invalidText(detail));
}

/** A request that is not what the route takes (toncenter's Emulate API: 400 "invalid request: ..."). */
export class InvalidRequestError extends ApiError {
  constructor(detail: string) {
    super('badRequest', `invalid request: ${detail}`);
  }
}

export class NotFoundError extends ApiError {
  constructor(message = 'Not Found') {
    super('notFound', message);
  }
}

export class MethodNotAllowedError extends ApiError {
  constructor(method: string) {
    super('methodNotAllowed', `method ${method} is not supported`);
  }
}

export class PayloadTooLargeError extends ApiError {
  constructor(limitBytes: number) {
    super('tooLarge', `request body is larger than ${limitBytes} bytes`);
  }
}

/** A contract is not what the method needs (toncenter: getTokenData on a non-token, 409). */
export class ConflictError extends ApiError {
  constructor(message: string) {
    super('conflict', message);
  }
}

export class UnauthorizedError extends ApiError {
  constructor(message = 'API key does not exist') {
    super('unauthorized', message);
  }
}

export class ForbiddenError extends ApiError {
  constructor(message = 'Network not allowed') {
    super('forbidden', message);
  }
}

export class RateLimitError extends ApiError {
  constructor(
    readonly retryAfterSeconds: number,
    message = 'Ratelimit exceeded',
  ) {
    super('rateLimited', message);
  }
}

export class NotImplementedError extends ApiError {
  constructor(method: string) {
    super('notImplemented', `not implemented: ${method}`);
  }
}

/**
 * A lite server answered `liteServer.error`. Deterministic: never retried on another server.
 * The lite-server code is kept so callers can tell "block not found" (651) from others.
 */
export class LiteServerError extends ApiError {
  constructor(
    readonly liteCode: number,
    readonly liteMessage: string,
  ) {
    super('liteServer', `LITE_SERVER_${liteServerErrorKind(liteCode)}: ${liteMessage} (code ${liteCode})`);
  }
}

/**
 * A lite server sent an answer that does not decode as the answer to the query (TL). Says
 * nothing about the connection or other queries on it, so the server is neither marked down nor
 * disconnected, and the query is not retried: a 502 for this request only.
 */
export class LiteServerInvalidAnswerError extends ApiError {
  constructor(detail: string) {
    super('invalidAnswer', `LITE_SERVER_INVALID_ANSWER: ${detail.length > 200 ? `${detail.slice(0, 200)}...` : detail}`);
  }
}

/**
 * A lite server's answer failed a proof check against a verified block: the server lied or is
 * broken. Unlike an undecodable answer this condemns the server: the pool takes it out for a
 * while and retries the query once on another server; the client gets a 502 if that fails too.
 */
export class LiteServerProofError extends ApiError {
  constructor(readonly detail: string) {
    super('proof', `LITE_SERVER_PROOF: ${detail.length > 200 ? `${detail.slice(0, 200)}...` : detail}`);
  }
}

/** No lite server is healthy enough to take the query. */
export class NoHealthyLiteServerError extends ApiError {
  constructor(message = 'no healthy lite server available') {
    super('unavailable', message);
  }
}

/** The request's deadline passed while waiting for a lite server. */
export class LiteServerTimeoutError extends ApiError {
  constructor() {
    super('timeout', 'LITE_SERVER_NETWORK timeout');
  }
}

/**
 * The destination of an external message being emulated did not accept it (toncenter's trace
 * emulator: "EmulationExternalNotAccepted"). The client's message: a 422, not toncenter's 500.
 */
export class EmulationNotAcceptedError extends ApiError {
  constructor(
    readonly exitCode: number | undefined,
    detail: string | undefined,
  ) {
    super('badInput', `EmulationExternalNotAccepted: ${exitCode ?? detail ?? 'the contract did not accept the message'}`);
  }
}

/** Any bug of ours: the text never carries internals or stack traces. */
export class InternalError extends ApiError {
  constructor(message = 'internal server error') {
    super('internal', message);
  }
}

/** tonlib's names for the lite-server error codes, as toncenter prints them. */
export function liteServerErrorKind(code: number): string {
  switch (code) {
    case LITE_ERROR.notReady:
      return 'NOTREADY';
    case LITE_ERROR.timeout:
      return 'TIMEOUT';
    case LITE_ERROR.protoviolation:
      return 'PROTOVIOLATION';
    case LITE_ERROR.network:
      return 'NETWORK';
    default:
      return 'UNKNOWN';
  }
}

/** The server cannot start; main.ts prints the message (no stack) and exits 1. */
export class StartupError extends Error {}

/** A lite-server list, global config or trusted block that cannot be used (the option that gave it is named). */
export class LiteServerConfigError extends Error {}
