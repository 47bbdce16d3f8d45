import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Express, Request, RequestHandler, Response } from 'express';
import { startTime as loggedFrom } from 'pino-http';
import type { Handler } from '../methods';
import { gateAdmission, markHandedOver, MAX_URL_BYTES, publishApiRequestStart, readJsonBody } from '../intake';
import { logAnsweredRequest } from '../logging/index';
import { fastPathRequests } from '../metrics';
import { readRpcCall, RefusedCall, sendRpcResult } from './jsonRpc';
import type { AppServices } from './services';
import { assignRequestId, setEdgeHeaders } from './edge';
import { cacheKeyNow, cachePolicyFor, extraOf, parseCall } from './execute';
import { sendResult } from './http';

/**
 * The HTTP server's request listener: a call of a method whose answers are cached (REST `GET` or
 * `POST /api/v2/<method>`, or a single JSON-RPC call) is answered here, ahead of the Express app,
 * when its answer is in the in-memory response cache; everything else goes to the app unchanged.
 *
 * A hit costs what it must (Node's HTTP, the access gate, the body, the parameters, the key, the
 * metrics, the log line) and nothing of the app's stack (pino-http's per-request child logger,
 * the middleware chain, the routers, jayson). The answer is the one the app sends: the same
 * pieces write it (request id and edge headers, the gate with its RateLimit headers and
 * refusals, the bounded body intake, the metrics recorder, parameter parsing, cache key and the
 * envelope), and the request and response have the app's prototypes (from birth: see
 * createApiHttpServer), so `req.ip` (trust proxy), `req.query` and the gate's `res.json` refusals
 * are Express's own.
 *
 * What is not a hit (a miss, an answer in Redis or being computed, a 4xx, a head not known
 * without a round trip) is handed to the app with what the fast path consumed: the gate has
 * admitted it (a token is not taken twice) and its body has been read (a body cannot be read
 * twice); see src/intake/handover.ts.
 */

const REST_PREFIX = '/api/v2/';
/**
 * Characters for which Express's URL parsing (parseurl) leaves its fast split at '?' for Node's
 * legacy url.parse (a '#' ends the query there): such URLs go to the app, so that the path and
 * query read here are always the ones it reads.
 */
const UNUSUAL_URL = /[\t\n\f\r #\u00a0\ufeff]/;
/** Where JSON-RPC is posted: its route and the aliases the app rewrites to it (jsonRpcAliases.ts). */
const JSON_RPC_PATHS = new Set(['/api/v2/jsonRPC', '/', '/api/v2', '/api/v2/']);

/** A request the fast path takes: a REST call of a cached method (with its query text), or JSON-RPC. */
type Taken =
  | { readonly mode: 'rest'; readonly handler: Handler; readonly query: string }
  | { readonly mode: 'jsonrpc'; readonly handler: undefined; readonly query: '' };

/** What a stage of the gate did: refused (it wrote the answer) or passed, perhaps with an error for the app. */
type GateOutcome = { readonly passed: false } | { readonly passed: true; readonly error?: unknown };

const PASSED: GateOutcome = { passed: true };
const REFUSED: GateOutcome = { passed: false };

/**
 * Runs a stage of the gate (an Express middleware) on a request: what it decided at once (no
 * bucket, a key refused), or a promise of it (a bucket take is asynchronous).
 */
function throughGate(stage: RequestHandler, req: Request, res: Response): GateOutcome | Promise<GateOutcome> {
  let decided: GateOutcome | undefined;
  let settle: ((outcome: GateOutcome) => void) | undefined;
  void stage(req, res, (err?: unknown) => {
    const outcome: GateOutcome = err === undefined ? PASSED : { passed: true, error: err };
    if (settle) settle(outcome);
    else decided = outcome;
  });
  if (decided) return decided;
  if (res.writableEnded) return REFUSED;
  return new Promise((resolve) => {
    // A refusal is written by the gate itself; the response's end is all there is to see of it.
    const refused = () => resolve(REFUSED);
    res.once('close', refused);
    settle = (outcome) => {
      res.off('close', refused);
      resolve(outcome);
    };
  });
}

/** A cached call found in a request: its method, raw parameters and, for JSON-RPC, the id to echo. */
interface Call {
  readonly handler: Handler;
  readonly raw: Record<string, unknown>;
  readonly id: string | number | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function createRequestListener(app: Express, services: AppServices): RequestListener {
  const cache = services.cache;
  if (!cache || !services.lite) return app;
  // The names (aliases included) of the methods a hit can answer.
  const cached = new Map<string, Handler>();
  for (const name of services.table.names()) {
    const handler = services.table.find(name);
    if (handler?.implemented && cachePolicyFor(services, handler) !== 'never') cached.set(name, handler);
  }
  // The gate's stages as the app mounts them, for requests known to be REST or JSON-RPC.
  const admitRest = gateAdmission(services, () => false);
  const admitJsonRpc = gateAdmission(services, () => true);
  const settleJsonRpc = services.access?.gate.settle;

  /** What Express parses `req.query` with (the app's 'query parser' setting). */
  const parseQuery = app.get('query parser fn') as (text: string) => Record<string, unknown>;

  /** Whether the fast path takes the request: `/api/v2/<cached method>` on one of its verbs, or a JSON-RPC POST. */
  const takenOf = (req: IncomingMessage): Taken | undefined => {
    const { url, method } = req;
    if (url === undefined || url.length > MAX_URL_BYTES || UNUSUAL_URL.test(url)) return undefined;
    const queryStart = url.indexOf('?');
    const path = queryStart < 0 ? url : url.slice(0, queryStart);
    if (method === 'POST' && JSON_RPC_PATHS.has(path)) return { mode: 'jsonrpc', handler: undefined, query: '' };
    if ((method !== 'GET' && method !== 'POST') || !path.startsWith(REST_PREFIX)) return undefined;
    const handler = cached.get(path.slice(REST_PREFIX.length));
    if (!handler?.verbs.includes(method)) return undefined;
    return { mode: 'rest', handler, query: queryStart < 0 ? '' : url.slice(queryStart + 1) };
  };

  /** The cached call a request makes, or undefined when the app must answer it (another method, a frame or body it refuses). */
  const callOf = (req: Request, taken: Taken, body: unknown): Call | undefined => {
    if (taken.handler) {
      // The REST route answers a body that is not an object (422); so does the app for it.
      const raw: unknown = req.method === 'GET' ? parseQuery(taken.query) : (body ?? {});
      return isRecord(raw) ? { handler: taken.handler, raw, id: null } : undefined;
    }
    const call = readRpcCall(services, body);
    if (call instanceof RefusedCall || !cached.has(call.method)) return undefined;
    return { handler: call.handler, raw: call.params ?? {}, id: call.id };
  };

  /** Gives the request to the app with what was done of its intake; pino-http times it from its arrival. */
  const handOver = (req: Request, res: Response, startedAt: number, body: unknown, error?: unknown): void => {
    markHandedOver(req, error === undefined ? { body } : { body, error });
    res[loggedFrom] = startedAt;
    fastPathRequests.inc({ outcome: 'handed_over' });
    app(req, res);
  };

  /** A gate stage answered the request: the app would have logged it (and the recorder counts it). */
  const refused = (req: Request, res: Response, startedAt: number): void => {
    fastPathRequests.inc({ outcome: 'refused' });
    logAnsweredRequest(services.logger, req, res, startedAt);
  };

  const serve = async (req: Request, res: Response, taken: Taken): Promise<void> => {
    const { mode } = taken;
    const started = performance.now();
    const startedAt = Date.now();
    // What Express's app.handle does first (the prototypes are the app's already when the server
    // was given them, and setting the same one again costs nothing).
    req.res = res;
    res.req = req;
    Object.setPrototypeOf(req, app.request);
    Object.setPrototypeOf(res, app.response);
    res.locals ??= Object.create(null) as Record<string, unknown>;
    req.id = assignRequestId(req, res);
    setEdgeHeaders(res);
    publishApiRequestStart({
      req,
      res,
      path: mode === 'rest' ? `/${taken.handler.name}` : '/jsonRPC',
      methodOf: (name) => (typeof name === 'string' ? services.table.find(name)?.name : undefined),
    });
    let body: unknown;
    try {
      const admit = mode === 'rest' ? admitRest : admitJsonRpc;
      if (admit) {
        const decided = throughGate(admit, req, res);
        const gate = decided instanceof Promise ? await decided : decided;
        if (!gate.passed) return refused(req, res, startedAt);
        if (gate.error !== undefined) return handOver(req, res, startedAt, body, gate.error);
      }
      if (req.method === 'POST') body = await readJsonBody(req, services, mode === 'jsonrpc');
      if (mode === 'jsonrpc' && settleJsonRpc) {
        // The second stage takes a JSON-RPC request's tokens, one per call, from its body.
        req.body = body;
        const decided = throughGate(settleJsonRpc, req, res);
        const gate = decided instanceof Promise ? await decided : decided;
        if (!gate.passed) return refused(req, res, startedAt);
        if (gate.error !== undefined) return handOver(req, res, startedAt, body, gate.error);
      }
    } catch (err) {
      return handOver(req, res, startedAt, body, err);
    }
    req.body = body;
    const call = callOf(req, taken, body);
    let key;
    try {
      key = call && cacheKeyNow(services, call.handler, parseCall(call.handler, call.raw, req.method === 'GET' ? 'get' : 'post'));
    } catch {
      // A parameter the app answers 422 for.
    }
    const answer = key && cache.memoryResult(key.key);
    if (!call || !key || !answer) return handOver(req, res, startedAt, body);
    const outcome = { resultBytes: answer.bytes, extra: extraOf(started, key.servers) };
    if (mode === 'rest') {
      res.setHeader('X-Cache', 'hit');
      sendResult(res, outcome);
    } else {
      sendRpcResult(res, outcome, call.id);
    }
    fastPathRequests.inc({ outcome: 'hit' });
    logAnsweredRequest(services.logger, req, res, startedAt);
  };

  return (req: IncomingMessage, res: ServerResponse): void => {
    const taken = takenOf(req);
    if (!taken) {
      app(req, res);
      return;
    }
    const request = req as Request;
    const response = res as Response;
    serve(request, response, taken).catch((err: unknown) => {
      // Our bug: the app's error handler answers it (500) and logs it, unless an answer is out.
      if (res.headersSent) services.logger.error({ err }, 'fast path failed after answering');
      else handOver(request, response, Date.now(), undefined, err);
    });
  };
}
