import type { Logger } from 'pino';
import { NoHealthyLiteServerError } from '../errors';
import type { Handler, HandlerContext, JsonValue } from '../handlers/types';
import type { LiteSession } from '../liteclient/session';
import type { RequestSource } from '../params/schema';
import type { AppServices } from '../services';

export interface CallOutcome {
  result: JsonValue;
  /** toncenter's `@extra`: `<unix seconds>:<lite server indices or _>:<elapsed ms>`. */
  extra: string;
}

/**
 * Keys that never reach a handler: `api_key` is a transport concern, and the names through
 * which plain objects reach their prototype are never parameters, whatever a client sends.
 */
const EXCLUDED_KEYS = new Set(['api_key', '__proto__', 'constructor', 'prototype']);

/** The parameters of a call, as an object without a prototype (a key cannot reach one). */
export function callParameters(raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(raw)) if (!EXCLUDED_KEYS.has(key)) out[key] = raw[key];
  return out;
}

/**
 * Runs one API call: parse and validate the parameters (422 before any work), then the handler
 * with a context whose lite-server session is opened lazily and kept for the whole call.
 */
export async function executeCall(
  services: AppServices,
  handler: Handler,
  raw: Record<string, unknown>,
  source: RequestSource,
  requestId: string,
  logger: Logger,
): Promise<CallOutcome> {
  const started = performance.now();
  const params = handler.parse(callParameters(raw), source);
  const deadline = Date.now() + services.config.requestTimeout;
  let session: LiteSession | undefined;
  let sentTo: readonly number[] = [];
  const context: HandlerContext = {
    config: services.config,
    logger,
    requestId,
    lite(options = {}) {
      if (!services.lite) throw new NoHealthyLiteServerError('no lite servers are configured');
      session ??= services.lite.openSession(options, deadline);
      return session;
    },
    async sendMessage(boc) {
      if (!services.lite) throw new NoHealthyLiteServerError('no lite servers are configured');
      sentTo = (await services.lite.broadcastMessage(boc, services.config.sendFanout, deadline)).sentTo;
    },
    consensusSeqno: () => services.lite?.consensusSeqno(),
  };
  const result = await handler.run(context, params);
  const used = [...new Set([...(session?.usedServers ?? []), ...sentTo])];
  const servers = used.length ? used.join(',') : '_';
  const elapsed = (performance.now() - started).toFixed(3);
  return { result, extra: `${Math.floor(Date.now() / 1000)}:${servers}:${elapsed}` };
}
