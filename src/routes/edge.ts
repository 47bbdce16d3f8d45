import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { API_VERSION } from './http';

/**
 * What every answer carries, whichever path wrote it (the Express app or the cached-hit fast path
 * in src/fastpath): the request id, our version and CORS headers.
 */

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Our version and CORS, since browsers call toncenter directly, so every origin may call us too.
 * Checked once here (Node validates each header it is given).
 */
const EDGE_HEADERS: readonly (readonly [string, string])[] = [
  ['X-API-Version', API_VERSION],
  ['Access-Control-Allow-Origin', '*'],
  ['Access-Control-Allow-Methods', 'GET, POST, OPTIONS'],
  ['Access-Control-Allow-Headers', 'Content-Type, X-API-Key, X-Ton-Client-Version, X-Request-Id, Authorization'],
  [
    'Access-Control-Expose-Headers',
    'X-Request-Id, X-API-Version, Retry-After, RateLimit-Policy, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset',
  ],
  ['Access-Control-Max-Age', '86400'],
];

export function setEdgeHeaders(res: ServerResponse): void {
  for (const [name, value] of EDGE_HEADERS) res.setHeader(name, value);
}

/** The request's id: the caller's X-Request-Id when it is sane, else a new UUID; echoed in X-Request-Id. */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}
