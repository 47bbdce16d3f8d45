import type { Request, Response } from 'express';

/**
 * The API's requests as events, for observers above the HTTP layer (src/monitoring counts and
 * times them): the layers that take requests publish here and import no observer. A set of
 * listeners of this module (not a process-wide diagnostics channel), so that each loaded copy of
 * the server (tests load several in one process) has its own observers.
 */
export interface ApiRequestStart {
  readonly req: Request;
  readonly res: Response;
  /** The request's path below /api/v2. */
  readonly path: string;
  /** The method a call's name names (aliases fold into it); undefined for an unknown name. */
  readonly methodOf: (name: unknown) => string | undefined;
}

type ApiRequestObserver = (start: ApiRequestStart) => void;

const observers = new Set<ApiRequestObserver>();

/** Calls `observer` when the fast path starts answering an API request (the Express app's requests are observed by its own middleware). */
export function observeApiRequestStarts(observer: ApiRequestObserver): () => void {
  observers.add(observer);
  return () => observers.delete(observer);
}

export function publishApiRequestStart(start: ApiRequestStart): void {
  for (const observer of observers) observer(start);
}
