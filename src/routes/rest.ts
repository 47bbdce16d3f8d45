import { Router, type Request, type Response } from 'express';
import { MethodNotAllowedError, NotFoundError, ValidationError } from '../errors';
import type { HttpVerb } from '../methods';
import type { AppServices } from './services';
import { CachedApiError, executeCall } from './execute';
import { requestLogger, requestIdOf, sendError, sendResult } from './http';

/** `/api/v2/<method>` for every method of the table, on the verbs each one allows. */
export function createRestRouter(services: AppServices): Router {
  const router = Router();
  router.all('/:method', async (req: Request, res: Response) => {
    const methodName = String(req.params['method']);
    try {
      const handler = services.table.find(methodName);
      if (!handler) throw new NotFoundError();
      const verb: HttpVerb | undefined = req.method === 'GET' || req.method === 'HEAD' ? 'GET' : req.method === 'POST' ? 'POST' : undefined;
      if (!verb || !handler.verbs.includes(verb)) throw new MethodNotAllowedError(req.method);
      let raw: Record<string, unknown>;
      if (verb === 'GET') {
        raw = req.query as Record<string, unknown>;
      } else {
        const body: unknown = req.body ?? {};
        if (typeof body !== 'object' || body === null || Array.isArray(body)) {
          throw new ValidationError('failed to parse post request: the body must be a JSON object');
        }
        raw = body as Record<string, unknown>;
      }
      const outcome = await executeCall(services, handler, raw, verb === 'GET' ? 'get' : 'post', requestIdOf(req), requestLogger(req, services));
      if (outcome.cache) res.setHeader('X-Cache', outcome.cache);
      sendResult(res, outcome);
    } catch (err) {
      if (err instanceof CachedApiError) res.setHeader('X-Cache', err.cache);
      sendError(req, res, err, services);
    }
  });
  return router;
}
