import diagnostics_channel from 'node:diagnostics_channel';
import type { Request, Response } from 'express';

/**
 * The API's requests as events, for observers above the HTTP layer (src/monitoring counts and
 * times them): the layers that take requests publish here and import no observer.
 */
export interface ApiRequestStart {
  readonly req: Request;
  readonly res: Response;
  /** The request's path below /api/v2. */
  readonly path: string;
  /** The method a call's name names (aliases fold into it); undefined for an unknown name. */
  readonly methodOf: (name: unknown) => string | undefined;
}

/** Published when the fast path starts answering an API request (the Express app's requests are observed by its own middleware). */
export const apiRequestStarts = diagnostics_channel.channel('ton-http-bridge:api-request-start');

export function publishApiRequestStart(start: ApiRequestStart): void {
  if (apiRequestStarts.hasSubscribers) apiRequestStarts.publish(start);
}
