import type { IncomingMessage } from 'node:http';

/**
 * A request the fast path (src/routes/fastPath.ts) began and then handed to the Express app (a miss, an
 * error, anything it does not answer itself): what it already did of the intake, so that the
 * app does not do it twice. The gate's first stage has admitted it (a REST call's token is
 * taken and its RateLimit headers are set; a JSON-RPC call's tokens are taken too), a POST body
 * has been read and parsed (a body cannot be read twice) or refused, and its metrics are being
 * recorded (src/monitoring/http.ts).
 */
export interface HandedOver {
  /** The parsed JSON body; undefined for a GET or an empty body. */
  readonly body: unknown;
  /** Why the intake refused the request (the body's 4xx, a gate failure): the app answers it. */
  readonly error?: unknown;
}

const HANDED_OVER = Symbol('handedOver');

type Carrier = IncomingMessage & { [HANDED_OVER]?: HandedOver };

export function markHandedOver(req: IncomingMessage, record: HandedOver): void {
  (req as Carrier)[HANDED_OVER] = record;
}

export function handedOver(req: IncomingMessage): HandedOver | undefined {
  return (req as Carrier)[HANDED_OVER];
}
