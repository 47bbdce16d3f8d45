import type { IncomingMessage } from 'node:http';
import pino, { type DestinationStream, type Logger } from 'pino';

/** Paths pino blanks out wherever they appear in a log line. */
const REDACTED_PATHS = ['req.headers["x-api-key"]', 'req.headers.authorization', 'req.query.api_key', 'req.params.api_key'];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, destination);
}

/** A URL with the value of `api_key` replaced, so keys sent in the query never reach the logs. */
export function redactUrl(url: string | undefined): string | undefined {
  return url?.replace(/([?&]api_key=)[^&#]*/gi, '$1[redacted]');
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
