import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import pino, { type DestinationStream, type Logger } from 'pino';

/** Paths pino blanks out wherever they appear in a log line (Node lowercases header names). */
const REDACTED_PATHS = ['req.headers["x-api-key"]', 'req.headers.authorization', 'req.query.api_key', 'req.params.api_key'];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, destination);
}

/** Longest URL written to a log line (URLs up to 16 KiB are served). */
const MAX_LOGGED_URL = 2048;

/**
 * Whether a query-string pair carries an API key. Decided on the pair as the app's query parser
 * (node:querystring, Express's `simple` parser) decodes it, so every spelling that parser turns
 * into `api_key` (`api%5Fkey`, `api%5fkey`, `%61pi_key`, ...) counts; other letter cases
 * (`API_KEY`) are not read as a key but are redacted all the same.
 */
function isKeyPair(pair: string): boolean {
  const name = Object.keys(parseQueryString(pair))[0];
  return name !== undefined && name.toLowerCase() === 'api_key';
}

/** A URL with the value of every API-key parameter replaced, so keys never reach the logs. */
export function redactUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const clipped = url.length > MAX_LOGGED_URL ? `${url.slice(0, MAX_LOGGED_URL)}...` : url;
  const queryStart = clipped.indexOf('?');
  if (queryStart < 0) return clipped;
  // A name decodes to api_key only from those letters (any case) or from percent-escapes: a query
  // with neither, as most are, is logged as it is without parsing its pairs.
  const query = clipped.slice(queryStart + 1);
  if (!query.includes('%') && !query.toLowerCase().includes('api_key')) return clipped;
  const pairs = query.split('&').map((pair) => {
    if (!isKeyPair(pair)) return pair;
    const equals = pair.indexOf('=');
    return `${equals < 0 ? pair : pair.slice(0, equals)}=[redacted]`;
  });
  return `${clipped.slice(0, queryStart + 1)}${pairs.join('&')}`;
}

export interface LoggedRequest {
  id: unknown;
  method: string | undefined;
  url: string | undefined;
  remoteAddress: string | undefined;
}

export function serializeRequest(req: IncomingMessage & { id?: unknown }): LoggedRequest {
  return { id: req.id, method: req.method, url: redactUrl(req.url), remoteAddress: req.socket?.remoteAddress };
}

/** The level of a request's log line: errors and 5xx are errors, other 4xx warnings. */
export function requestLogLevel(statusCode: number, err?: unknown): 'error' | 'warn' | 'info' {
  if (err || statusCode >= 500) return 'error';
  return statusCode >= 400 ? 'warn' : 'info';
}

/**
 * The line pino-http writes when a request it saw is answered (the app's logger), for answers
 * written outside it (src/routes/fastPath.ts): the same fields in the same order (pino-http puts
 * `req` in a child logger's bindings, which land where this object's first key does) and the same
 * levels and messages. One difference: a 5xx line's `err` is made here, so its stack differs.
 */
export function logAnsweredRequest(logger: Logger, req: IncomingMessage & { id?: unknown }, res: ServerResponse, startedAt: number): void {
  const level = requestLogLevel(res.statusCode);
  if (!logger.isLevelEnabled(level)) return;
  const answered = { statusCode: res.statusCode };
  const responseTime = Date.now() - startedAt;
  if (level === 'error') {
    const err = new Error(`failed with status code ${res.statusCode}`);
    logger.error({ req: serializeRequest(req), res: answered, err, responseTime }, 'request errored');
    return;
  }
  const message = !req.readableAborted && res.writableEnded ? 'request completed' : 'request aborted';
  logger[level]({ req: serializeRequest(req), res: answered, responseTime }, message);
}
