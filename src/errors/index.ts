import { LITE_ERROR } from '../constants';
/**
 * The one error hierarchy of the server. Every failure that reaches a client is an ApiError;
 * `toErrorResponse` is the single place where errors become HTTP statuses and bodies.
 */

export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Bad or missing parameter (toncenter: 422 "failed to parse ... request" / "failed to validate request"). */
export class ValidationError extends ApiError {
  constructor(message: string) {
    super(422, message);
  }
}

/** A semantic check failed (toncenter: 422 "failed to validate request: ..."). */
export function invalid(detail: string): never {
  throw new ValidationError(`failed to validate request: ${detail}`);
}

export class NotFoundError extends ApiError {
  constructor(message = 'Not Found') {
    super(404, message);
  }
}

export class MethodNotAllowedError extends ApiError {
  constructor(method: string) {
    super(405, `method ${method} is not supported`);
  }
}

export class PayloadTooLargeError extends ApiError {
  constructor(limitBytes: number) {
    super(413, `request body is larger than ${limitBytes} bytes`);
  }
}

/** A contract is not what the method needs (toncenter: getTokenData on a non-token, 409). */
export class ConflictError extends ApiError {
  constructor(message: string) {
    super(409, message);
  }
}

export class UnauthorizedError extends ApiError {
  constructor(message = 'API key does not exist') {
    super(401, message);
  }
}

export class ForbiddenError extends ApiError {
  constructor(message = 'Network not allowed') {
    super(403, message);
  }
}

export class RateLimitError extends ApiError {
  constructor(
    readonly retryAfterSeconds: number,
    message = 'Ratelimit exceeded',
  ) {
    super(429, message);
  }
}

export class NotImplementedError extends ApiError {
  constructor(method: string) {
    super(501, `not implemented: ${method}`);
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
    super(500, `LITE_SERVER_${liteServerErrorKind(liteCode)}: ${liteMessage} (code ${liteCode})`);
  }
}

/**
 * A lite server sent an answer that does not decode as the answer to the query (TL). Says
 * nothing about the connection or other queries on it, so the server is neither marked down nor
 * disconnected, and the query is not retried: a 502 for this request only.
 */
export class LiteServerInvalidAnswerError extends ApiError {
  constructor(detail: string) {
    super(502, `LITE_SERVER_INVALID_ANSWER: ${detail.length > 200 ? `${detail.slice(0, 200)}...` : detail}`);
  }
}

/**
 * A lite server's answer failed a proof check against a verified block: the server lied or is
 * broken. Unlike an undecodable answer this condemns the server: the pool takes it out for a
 * while and retries the query once on another server; the client gets a 502 if that fails too.
 */
export class LiteServerProofError extends ApiError {
  constructor(readonly detail: string) {
    super(502, `LITE_SERVER_PROOF: ${detail.length > 200 ? `${detail.slice(0, 200)}...` : detail}`);
  }
}

/** No lite server is healthy enough to take the query. */
export class NoHealthyLiteServerError extends ApiError {
  constructor(message = 'no healthy lite server available') {
    super(503, message);
  }
}

/** The request's deadline passed while waiting for a lite server. */
export class LiteServerTimeoutError extends ApiError {
  constructor() {
    super(504, 'LITE_SERVER_NETWORK timeout');
  }
}

/** Any bug of ours: the text never carries internals or stack traces. */
export class InternalError extends ApiError {
  constructor(message = 'internal server error') {
    super(500, message);
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

export interface ErrorBody {
  ok: false;
  error: string;
  code: number;
  /** toncenter's hosted gateway also puts the text of a 429 in `result`; clients read it there. */
  result?: string;
}

export interface ErrorResponse {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
}

/** Longest error text ever sent. */
export const MAX_ERROR_TEXT = 512;

/** The single mapping from any thrown value to the HTTP status, body and extra headers. */
export function toErrorResponse(err: unknown): ErrorResponse {
  const apiError = err instanceof ApiError ? err : new InternalError();
  // A safety net: texts quote client input through quoteInput (~200 characters), so only a
  // missed path could make one this long; the answer stays small either way.
  const message = apiError.message.length > MAX_ERROR_TEXT ? `${apiError.message.slice(0, MAX_ERROR_TEXT)}...` : apiError.message;
  const body: ErrorBody = { ok: false, error: message, code: apiError.code };
  const headers: Record<string, string> = {};
  if (apiError instanceof RateLimitError) {
    body.result = apiError.message;
    headers['Retry-After'] = String(apiError.retryAfterSeconds);
  }
  return { status: apiError.code, body, headers };
}

/** The server cannot start; main.ts prints the message (no stack) and exits 1. */
export class StartupError extends Error {}

/** A lite-server list, global config or trusted block that cannot be used (the option that gave it is named). */
export class LiteServerConfigError extends Error {}
