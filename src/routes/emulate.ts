import { Router, type NextFunction, type Request, type Response } from 'express';
import { EMULATE_RECORDS, type EmulateContext } from '../emulate';
import { ApiError, NoHealthyLiteServerError } from '../errors';
import { createApiIntake } from '../intake';
import type { LiteSession } from '../liteclient';
import type { AppServices } from './services';
import { errorResponseOf } from './http';

/**
 * toncenter's Emulate API (ton-emulate-go) under /api/emulate: the records of src/emulate behind
 * the same intake as v2 (gate before the body, bounded body, exact JSON). Errors as ton-emulate-go
 * writes them: `{"error": "..."}` with the HTTP status.
 */

/** Time kept from the request's deadline for rendering and writing the answer. */
const ANSWER_MARGIN_MS = 250;

function sendEmulateError(req: Request, res: Response, err: unknown, services: AppServices): void {
  const { status, body, headers } = errorResponseOf(req, err, services);
  res.set(headers).status(status).json({ error: body.error });
}

/** The access gate answers in the v2 envelope; here the same refusal is re-shaped into `{error}`. */
function emulateRefusals(_req: Request, res: Response, next: NextFunction): void {
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    if (typeof body === 'object' && body !== null && (body as Record<string, unknown>)['ok'] === false) {
      return json({ error: (body as Record<string, unknown>)['error'] });
    }
    return json(body);
  };
  next();
}

export function createEmulateRouter(services: AppServices): Router {
  const router = Router();
  router.use(emulateRefusals);
  router.use(...createApiIntake(services, { isJsonRpc: () => false }));
  router.use((err: unknown, req: Request, res: Response, _next: NextFunction) => sendEmulateError(req, res, err, services));
  for (const record of EMULATE_RECORDS) {
    router.post(record.path, async (req: Request, res: Response) => {
      const started = performance.now();
      try {
        const params = record.parse(req.body);
        const deadline = Date.now() + services.config.requestTimeout;
        let session: LiteSession | undefined;
        const context: EmulateContext = {
          deadline: deadline - ANSWER_MARGIN_MS,
          testnet: services.config.network === 'testnet',
          session() {
            if (!services.lite) throw new NoHealthyLiteServerError('no lite servers are configured');
            session ??= services.lite.openSession({}, deadline);
            return session;
          },
        };
        const result = await record.run(context, params);
        res.set('Server-Timing', `app;dur=${(performance.now() - started).toFixed(1)}`);
        res.status(200).json(result);
      } catch (err) {
        sendEmulateError(req, res, err, services);
      }
    });
    router.all(record.path, (req, res) => sendEmulateError(req, res, new ApiError('methodNotAllowed', 'Method Not Allowed'), services));
  }
  return router;
}
