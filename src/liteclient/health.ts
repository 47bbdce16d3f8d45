/**
 * Why a lite server cannot be used, in words an operator can act on. The pool keeps the raw
 * transport text (`socket error: connect ECONNREFUSED 1.2.3.4:5`, `no answer within 2000 ms`);
 * the healthcheck, the start-up log and the 503 texts show these instead.
 */

/** `unverified`: answers, but its masterchain head cannot be proven from the trusted block. */
export type ServerState = 'starting' | 'up' | 'down' | 'lagging' | 'unverified';

/** Raw error text patterns, first match wins (a "not connected: ..." text carries the cause). */
const REASONS: ReadonlyArray<readonly [RegExp, string]> = [
  [/ECONNREFUSED/, 'connection refused'],
  [/closed during the handshake|bad handshake answer|handshake failed/, 'handshake failed: wrong server key?'],
  [/ENOTFOUND|EAI_AGAIN/, 'host not found'],
  [/EHOSTUNREACH|ENETUNREACH/, 'host unreachable'],
  [/ECONNRESET|EPIPE|closed by the server/, 'connection closed by the server'],
  // `not connected: connecting`: the connection attempt did not complete within the probe's time.
  [/timed out|no answer within|no pong within|ETIMEDOUT|not connected: connecting$/, 'timeout'],
  [/undecodable|bad frame/, 'garbled answers'],
];

/** The plain reason of a raw transport or lite-server error text. */
export function plainReason(raw: string): string {
  for (const [pattern, reason] of REASONS) if (pattern.test(raw)) return reason;
  return raw;
}

export interface HealthFacts {
  readonly state: ServerState;
  /** Masterchain blocks behind the best server, when known. */
  readonly lag: number | null;
  /** The last probe or query failure, raw. */
  readonly lastError: string | null;
}

/** Why a server is out of rotation; null while it is up. */
export function unhealthyReason(facts: HealthFacts): string | null {
  switch (facts.state) {
    case 'up':
      return null;
    case 'lagging':
      return facts.lag === null ? 'lagging behind' : `lagging ${facts.lag} blocks behind`;
    case 'starting':
      return facts.lastError ? plainReason(facts.lastError) : 'not probed yet';
    case 'down':
      return facts.lastError ? plainReason(facts.lastError) : 'down';
    case 'unverified':
      return `head not verified: ${facts.lastError ?? 'proof pending'}`;
  }
}
