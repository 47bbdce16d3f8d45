import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '../errors';

/** Longest URL (path and query) answered; longer ones are a 414. */
export const MAX_URL_BYTES = 16 * 1024;

export class UriTooLongError extends ApiError {
  constructor() {
    super('uriTooLong', `URI Too Long: the URL may have at most ${MAX_URL_BYTES} bytes; send long parameters in a POST body`);
  }
}

export class MalformedPathError extends ApiError {
  constructor() {
    super('badRequest', 'malformed percent-escape in the path');
  }
}

/**
 * First check of every request: the URL length (Node's parser lets through up to its header
 * limit, which is larger) and the path's percent-escapes (the router would throw a bare 400
 * error deep inside when it decodes a route parameter).
 */
export function checkUrl(req: Request, _res: Response, next: NextFunction): void {
  next(urlError(req));
}

/** What checkUrl refuses a request's URL for, or undefined when the URL is fine. */
export function urlError(req: Request): ApiError | undefined {
  if (req.url.length > MAX_URL_BYTES) return new UriTooLongError();
  try {
    decodeURIComponent(req.path);
  } catch {
    return new MalformedPathError();
  }
  return undefined;
}
