import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { ApiError, InternalError, NotFoundError, PayloadTooLargeError, toErrorResponse, ValidationError } from '../../errors';
import type { AppServices } from '../../services';
import { executeCall } from '../execute';
import { requestIdOf, requestLogger } from '../http';

/**
 * The plumbing of toncenter v3's legacy endpoints: errors as ton-index-go writes them
 * (`{"error": "...", "code": n}`, HTTP status = code), and calls into our own v2 handler table.
 */

export function sendV3Error(req: Request, res: Response, err: unknown, services: AppServices): void {
  if (!(err instanceof ApiError) || err instanceof InternalError) requestLogger(req, services).error({ err }, 'unhandled error');
  const { status, body, headers } = toErrorResponse(err);
  res.set(headers).status(status).json({ error: body.error, code: body.code });
}

/**
 * The access gate answers in the v2 envelope; under /api/v3 the same refusal (401/403/429/503,
 * with its headers) is re-shaped into the v3 error form.
 */
function v3Refusals(_req: Request, res: Response, next: NextFunction): void {
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    if (typeof body === 'object' && body !== null && (body as Record<string, unknown>)['ok'] === false) {
      const { error, code } = body as { error: unknown; code: unknown };
      return json({ error, code });
    }
    return json(body);
  };
  next();
}

/** Body parsing (same limit as v2, JSON whatever the Content-Type), v3 error shapes, the gate. */
export function v3Pipeline(services: AppServices): Router {
  const router = Router();
  router.use(v3Refusals);
  router.use(express.json({ limit: services.config.bodyLimit, type: () => true, strict: false }));
  router.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
    const parserError = err as { type?: string; status?: number };
    if (parserError?.type === 'entity.too.large')
      return sendV3Error(req, res, new PayloadTooLargeError(services.config.bodyLimit), services);
    if (parserError?.type === 'entity.parse.failed')
      return sendV3Error(req, res, new ValidationError('the body is not valid JSON'), services);
    if (parserError?.status && parserError.status >= 400 && parserError.status < 500) {
      return sendV3Error(req, res, new ApiError(parserError.status, `failed to read the request body: ${parserError.type}`), services);
    }
    next(err);
  });
  if (services.access) router.use(services.access.middleware);
  return router;
}

/** Calls a v2 method of our handler table; its errors keep their code and text. */
export async function callV2(
  services: AppServices,
  req: Request,
  method: string,
  params: Record<string, unknown>,
  source: 'get' | 'post',
): Promise<unknown> {
  const handler = services.table.find(method);
  if (!handler) throw new NotFoundError();
  const outcome = await executeCall(services, handler, params, source, requestIdOf(req), requestLogger(req, services));
  return outcome.result;
}

/** ton-index-go answers a missing required parameter with 401 and this text (sic). */
export function missingParameter(message: string): ApiError {
  return new ApiError(401, message);
}

/** The request body as an object (v3 endpoints take JSON objects). */
export function bodyObject(req: Request): Record<string, unknown> {
  const body: unknown = req.body ?? {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ValidationError('the body must be a JSON object');
  return body as Record<string, unknown>;
}
