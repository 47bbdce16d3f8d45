import { ApiError, InternalError, RateLimitError, type ErrorKind } from '../errors';

/**
 * The HTTP edge's one mapping of domain errors (src/errors) to statuses, toncenter's bodies and
 * headers. Only the folders that write HTTP answers import it (lint: http-errors-at-the-edge).
 */

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

/** The HTTP status of each kind of domain error: toncenter's statuses. */
const STATUS_OF_KIND: Readonly<Record<ErrorKind, number>> = {
  badRequest: 400,
  unauthorized: 401,
  forbidden: 403,
  notFound: 404,
  methodNotAllowed: 405,
  requestTimeout: 408,
  conflict: 409,
  tooLarge: 413,
  uriTooLong: 414,
  unsupportedEncoding: 415,
  badInput: 422,
  rateLimited: 429,
  failed: 500,
  internal: 500,
  liteServer: 500,
  notImplemented: 501,
  invalidAnswer: 502,
  proof: 502,
  unavailable: 503,
  timeout: 504,
  resultTooDeep: 533,
};

export function httpStatusOf(err: ApiError): number {
  return STATUS_OF_KIND[err.kind];
}

/** The single mapping from any thrown value to the HTTP status, body and extra headers. */
export function toErrorResponse(err: unknown): ErrorResponse {
  const apiError = err instanceof ApiError ? err : new InternalError();
  const status = httpStatusOf(apiError);
  // A safety net: texts quote client input through quoteInput (~200 characters), so only a
  // missed path could make one this long; the answer stays small either way.
  const message = apiError.message.length > MAX_ERROR_TEXT ? `${apiError.message.slice(0, MAX_ERROR_TEXT)}...` : apiError.message;
  const body: ErrorBody = { ok: false, error: message, code: status };
  const headers: Record<string, string> = {};
  if (apiError instanceof RateLimitError) {
    body.result = apiError.message;
    headers['Retry-After'] = String(apiError.retryAfterSeconds);
  }
  return { status, body, headers };
}
