import type { NextFunction, Request, Response } from 'express';
import type { HandlerTable } from '../handlers';
import { handedOver } from '../intake/handover';
import { httpRequestDuration, httpRequests } from './registry';

export type CallMode = 'rest' | 'jsonrpc';
type Mode = CallMode;

interface CallRecord {
  method: string;
  status: number;
}

/** A method label from the table only: aliases fold into the method, anything else is `unknown`. */
function methodLabel(table: HandlerTable, name: unknown): string {
  return (typeof name === 'string' && table.find(name)?.name) || 'unknown';
}

/** The status of one reply of a JSON-RPC batch: 200 when ok, its envelope code otherwise. */
function elementStatus(reply: unknown, fallback: number): number {
  if (typeof reply !== 'object' || reply === null) return fallback;
  const { ok, code } = reply as { ok?: unknown; code?: unknown };
  if (ok === true) return 200;
  return typeof code === 'number' ? code : fallback;
}

function callsOf(table: HandlerTable, mode: Mode, path: string, body: unknown, reply: unknown, status: number): CallRecord[] {
  if (mode === 'rest') return [{ method: methodLabel(table, path.slice(1)), status }];
  if (!Array.isArray(body)) return [{ method: methodLabel(table, (body as { method?: unknown } | undefined)?.method), status }];
  // A batch: one call per element; a batch refused as a whole (one envelope) gives each its status.
  return body.map((element: unknown, index) => ({
    method: methodLabel(table, (element as { method?: unknown } | null)?.method),
    status: Array.isArray(reply) ? elementStatus(reply[index], status) : status,
  }));
}

/** Counts one API call and its time (`method` from the table only). */
export function recordCall(method: string, mode: CallMode, status: number, seconds: number): void {
  httpRequests.inc({ method, mode, status: String(status) });
  httpRequestDuration.observe({ method, mode }, seconds);
}

/**
 * Counts every API call by method, mode and status and times it. Mounted on /api/v2 before the
 * body parser and the access gate, so refusals (413, 429...) are counted too; the figures are
 * taken when the answer has been written.
 */
export function requestMetrics(table: HandlerTable) {
  return (req: Request, res: Response, next: NextFunction): void => {
    // A request the fast path handed over is timed from its arrival there.
    const started = handedOver(req)?.startedAt ?? performance.now();
    const path = req.path.replace(/\/+$/, '');
    const mode: Mode = req.method === 'POST' && path.toLowerCase() === '/jsonrpc' ? 'jsonrpc' : 'rest';
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
      for (const call of callsOf(table, mode, path, req.body, reply, res.statusCode)) recordCall(call.method, mode, call.status, seconds);
    });
    next();
  };
}
