import express, { type NextFunction, type Request, type Response } from 'express';
import { pinoHttp } from 'pino-http';
import { NotFoundError } from './errors';
import { requestLogLevel, serializeRequest } from './logging/index';
import { createDocsRouter, LOCALNET_PATHS } from './docs';
import { requestMetrics } from './monitoring';
import {
  healthcheck,
  createRestRouter,
  assignRequestId,
  setEdgeHeaders,
  sendError,
  createJsonRpcRouter,
  rewriteJsonRpcAlias,
  rootRedirect,
  createV3Router,
  createLocalnetRouter,
  type AppServices,
} from './routes';
import { createApiIntake, urlError } from './intake';

/**
 * The first steps of every request in one middleware (each router layer costs a match and a
 * `next` per request): edge headers, CORS preflight (204), the URL checks (414, 400), then the
 * JSON-RPC alias rewrite (POST / and /api/v2 become /api/v2/jsonRPC).
 */
function edge(req: Request, res: Response, next: NextFunction): void {
  setEdgeHeaders(res);
  if (req.method === 'OPTIONS') {
    res.status(204).end();
    return;
  }
  const refused = urlError(req);
  if (refused) return next(refused);
  rewriteJsonRpcAlias(req);
  next();
}

/**
 * A router entered only for the paths it serves (`matches` gets the path below the mount point,
 * lower-cased as Express matches routes); other requests skip it without the cost of entering it.
 */
function onlyFor(matches: (path: string) => boolean, router: express.Router): express.RequestHandler {
  return (req, res, next) => (matches(req.path.toLowerCase()) ? router(req, res, next) : next());
}

const isDocsPath = (path: string): boolean => path === '/' || path === '/openapi.json' || path.startsWith('/docs/');
const isJsonRpcRoute = (path: string): boolean => path === '/jsonrpc' || path === '/jsonrpc/';

export function createApp(services: AppServices): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  // req.ip, the keyless rate-limit key: the address the one proxy in front saw, or the peer's.
  app.set('trust proxy', services.config.trustProxy ? 1 : false);

  app.use(
    pinoHttp({
      logger: services.logger,
      // A request the fast path handed over comes with its id (and header) already set.
      genReqId: assignRequestId,
      // Our serializers take the raw request and response: pino-http's wrapping would first copy
      // every header into a std-serializer object per request, only for ours to drop them.
      wrapSerializers: false,
      serializers: { req: serializeRequest, res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }) },
      customLogLevel: (_req, res, err) => requestLogLevel(res.statusCode, err),
    }),
  );
  app.use(edge);
  app.get('/', rootRedirect);

  app.get('/api/v2/healthcheck', healthcheck(services));
  // API docs (Swagger UI, OpenAPI document); like the health route, outside keys and rate limits.
  // One document for v2, the indexed v3 routes and the local chain's controls, at both roots.
  const docs = createDocsRouter(services.table, services.localnet ? LOCALNET_PATHS : {});
  app.use('/api/v2', onlyFor(isDocsPath, docs));
  app.use('/api/v3', onlyFor(isDocsPath, docs));
  app.use('/api/v2', requestMetrics(services.table));

  app.use('/api/v3', createV3Router(services));
  // The embedded chain's developer controls; without it (external lite servers) /localnet/* is a 404.
  if (services.localnet) app.use('/localnet', createLocalnetRouter(services, services.localnet));

  // Gate, then body (read as JSON whatever the Content-Type, as toncenter: curl -d sends form
  // encoding), then the JSON-RPC charge; see src/intake.
  app.use('/api/v2', ...createApiIntake(services));

  app.use('/api/v2', onlyFor(isJsonRpcRoute, createJsonRpcRouter(services)));
  app.use('/api/v2', createRestRouter(services));

  app.use((req: Request, res: Response) => sendError(req, res, new NotFoundError(), services));
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => sendError(req, res, err, services));
  return app;
}
