import type { NextFunction, Request, Response } from 'express';
import { apiRequestStarts, handedOver, type ApiRequestStart } from '../intake';
import type { HandlerTable } from '../methods';
import { httpRequestDuration, httpRequests } from '../metrics';

type Mode = 'rest' | 'jsonrpc';

interface CallRecord {
  method: string;
  status: number;
}

/** Which method a call's name names (aliases fold into the method); undefined for an unknown name. */
type MethodOf = ApiRequestStart['methodOf'];

/** A method label from the table only: aliases fold into the method, anything else is `unknown`. */
function methodLabel(methodOf: MethodOf, name: unknown): string {
  return methodOf(name) || 'unknown';
}

/** The status of one reply of a JSON-RPC batch: 200 when ok, its envelope code otherwise. */
function elementStatus(reply: unknown, fallback: number): number {
  if (typeof reply !== 'object' || reply === null) return fallback;
  const { ok, code } = reply as { ok?: unknown; code?: unknown };
  if (ok === true) return 200;
  return typeof code === 'number' ? code : fallback;
}

function callsOf(methodOf: MethodOf, mode: Mode, path: string, body: unknown, reply: unknown, status: number): CallRecord[] {
  if (mode === 'rest') return [{ method: methodLabel(methodOf, path.slice(1)), status }];
  if (!Array.isArray(body)) return [{ method: methodLabel(methodOf, (body as { method?: unknown } | undefined)?.method), status }];
  // A batch: one call per element; a batch refused as a whole (one envelope) gives each its status.
  return body.map((element: unknown, index) => ({
    method: methodLabel(methodOf, (element as { method?: unknown } | null)?.method),
    status: Array.isArray(reply) ? elementStatus(reply[index], status) : status,
  }));
}

/**
 * Starts counting the calls of one request (by method, mode and status) and timing it; they are
 * counted when its answer has been written. `path` is the request's path below /api/v2.
 */
function recordRequest(methodOf: MethodOf, req: Request, res: Response, path: string): void {
  const started = performance.now();
  const trimmed = path.endsWith('/') ? path.replace(/\/+$/, '') : path;
  const mode: Mode = req.method === 'POST' && trimmed.toLowerCase() === '/jsonrpc' ? 'jsonrpc' : 'rest';
  let reply: unknown;
  // Only a JSON-RPC batch needs the reply (each element's status); REST calls skip the wrapper.
  if (mode === 'jsonrpc') {
    const json = res.json.bind(res);
    res.json = (payload: unknown) => {
      reply = payload;
      return json(payload);
    };
  }
  res.once('finish', () => {
    const seconds = (performance.now() - started) / 1000;
    for (const call of callsOf(methodOf, mode, trimmed, req.body, reply, res.statusCode)) {
      httpRequests.inc({ method: call.method, mode, status: String(call.status) });
      httpRequestDuration.observe({ method: call.method, mode }, seconds);
    }
  });
}

/**
 * Counts every API call by method, mode and status and times it. Mounted on /api/v2 before the
 * body parser and the access gate, so refusals (413, 429...) are counted too. A request the fast
 * path handed over is being counted already (the fast path starts the same recording).
 */
export function requestMetrics(table: HandlerTable) {
  const methodOf: MethodOf = (name) => (typeof name === 'string' ? table.find(name)?.name : undefined);
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!handedOver(req)) recordRequest(methodOf, req, res, req.path);
    next();
  };
}

// The fast path (src/routes/fastPath.ts) announces the requests it takes; they are counted the same way.
apiRequestStarts.subscribe((message) => {
  const start = message as ApiRequestStart;
  recordRequest(start.methodOf, start.req, start.res, start.path);
});
