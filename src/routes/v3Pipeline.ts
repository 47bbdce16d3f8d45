import { Router, type NextFunction, type Request, type Response } from 'express';
import { ApiError, NotFoundError, ValidationError } from '../errors';
import { createApiIntake } from '../intake';
import type { AppServices } from './services';
import { V3_API_VERSION } from '../v3';
import { executeCall } from './execute';
import { errorResponseOf, requestIdOf, requestLogger } from './http';

/**
 * The plumbing of toncenter v3's endpoints: errors as ton-index-go writes them at runtime
 * (`{"error": "..."}`, HTTP status = its code; `IndexError.Code` is `json:"-"`), and calls into
 * our own v2 handler table.
 */

export function sendV3Error(req: Request, res: Response, err: unknown, services: AppServices): void {
  const { status, body, headers } = errorResponseOf(req, err, services);
  res.set(headers).status(status).json({ error: body.error });
}

/**
 * The access gate answers in the v2 envelope; under /api/v3 the same refusal (401/403/429/503,
 * with its headers) is re-shaped into the v3 error form.
 */
function v3Refusals(_req: Request, res: Response, next: NextFunction): void {
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    if (typeof body === 'object' && body !== null && (body as Record<string, unknown>)['ok'] === false) {
      const { error } = body as { error: unknown };
      return json({ error });
    }
    return json(body);
  };
  next();
}

/**
 * The same intake as v2 (gate before the body, bounded body, exact JSON), v3 error shapes for its
 * refusals and for its errors.
 */
export function v3Pipeline(services: AppServices): Router {
  const router = Router();
  // ton-index-go's version, where v2 routes carry ours (src/routes/edge.ts).
  router.use((_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('X-API-Version', V3_API_VERSION);
    next();
  });
  router.use(v3Refusals);
  router.use(...createApiIntake(services, { isJsonRpc: () => false }));
  router.use((err: unknown, req: Request, res: Response, _next: NextFunction) => sendV3Error(req, res, err, services));
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
