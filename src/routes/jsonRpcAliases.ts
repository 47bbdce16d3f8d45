import type { NextFunction, Request, Response } from 'express';

/**
 * Where clients post JSON-RPC besides `/api/v2/jsonRPC`: `@ton/blueprint` posts to the URL the
 * user typed (its prompt proposes `http://localhost:8081/`), TonClient to its `endpoint` as given,
 * and people drop the `/jsonRPC` suffix. These POSTs are rewritten to `/api/v2/jsonRPC` before any
 * parser or gate runs, so they get exactly the same body limit, keys, rate limits and answers.
 */
const JSON_RPC_ALIASES = new Set(['/', '/api/v2', '/api/v2/']);

export function jsonRpcAliases(req: Request, _res: Response, next: NextFunction): void {
  rewriteJsonRpcAlias(req);
  next();
}

/** The rewrite itself, for the app's first middleware (which runs it without a router layer of its own). */
export function rewriteJsonRpcAlias(req: Request): void {
  if (req.method === 'POST' && JSON_RPC_ALIASES.has(req.path)) {
    const queryStart = req.url.indexOf('?');
    req.url = '/api/v2/jsonRPC' + (queryStart >= 0 ? req.url.slice(queryStart) : '');
  }
}

/** `GET /`: the API docs live under `/api/v2/`. */
export function rootRedirect(_req: Request, res: Response): void {
  res.redirect(302, '/api/v2/');
}
