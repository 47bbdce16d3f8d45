import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import type { Logger } from 'pino';
import { ApiError, ForbiddenError, RateLimitError, UnauthorizedError, toErrorResponse } from '../errors';
import { LimiterUnavailableError, reportBucket, type BucketRate, type BucketStore, type TakeOutcome } from './bucket';
import type { Keyring, NetworkName } from './keys';
import { rateLimitDecisions } from '../metrics';
import { TokenBucketRateLimitStore, chargeScope, currentCharge, type Charge } from './rate-limit-store';

export type FailurePolicy = 'open' | 'closed';

export interface AccessGateOptions {
  /** The network this server serves; keys must list it. */
  readonly network: NetworkName;
  /** The current keys (changes on reload); undefined when no keys file is configured. */
  readonly keyring: () => Keyring | undefined;
  /** Limit per client IP without a key; undefined = not limited. */
  readonly keylessRate: BucketRate | undefined;
  readonly buckets: BucketStore;
  /** What happens while the bucket store cannot answer: pass unlimited, or answer 503. */
  readonly failurePolicy: FailurePolicy;
  readonly logger: Logger;
}

/** The key of a request: the X-API-Key header, else the api_key query parameter. */
export function presentedKey(req: Request): string | undefined {
  const header = req.headers['x-api-key'];
  if (typeof header === 'string' && header.length > 0) return header;
  const query = (req.query as Record<string, unknown> | undefined)?.['api_key'];
  const value = Array.isArray(query) ? query[0] : query;
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** Express matches routes case-insensitively and with a trailing slash, so this does too. */
export function isJsonRpcPath(req: Request): boolean {
  return req.method === 'POST' && req.path.replace(/\/+$/, '').toLowerCase() === '/jsonrpc';
}

/** Which requests of a mount are JSON-RPC (their body decides the cost). */
export type JsonRpcTest = (req: Request) => boolean;

/** Every element of a JSON-RPC batch is a call and costs one token. */
export function requestCost(req: Request, isJsonRpc: JsonRpcTest = isJsonRpcPath): number {
  return isJsonRpc(req) && Array.isArray(req.body) ? Math.max(1, req.body.length) : 1;
}

function rpcId(body: unknown): string | number | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const id = (body as Record<string, unknown>)['id'];
  if (typeof id === 'bigint') return Number(id);
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/**
 * Answers in the v2 error shape with status = code. JSON-RPC calls get the same envelope plus
 * `jsonrpc` and their `id`; a refused batch gets one envelope with `id: null`, since none of
 * its calls ran (JSON-RPC's answer for a batch refused as a whole).
 */
function sendRefusal(req: Request, res: Response, err: ApiError, extraHeaders: Record<string, string> = {}): void {
  const { status, body, headers } = toErrorResponse(err);
  const payload =
    res.locals[JSON_RPC_LOCAL] === true ? { ...body, jsonrpc: '2.0', id: Array.isArray(req.body) ? null : rpcId(req.body) } : body;
  res
    .set({ ...extraHeaders, ...headers })
    .status(status)
    .json(payload);
}

/**
 * IETF draft-6 RateLimit-* fields for a token bucket: the limit is the burst, remaining is the
 * whole tokens left, reset is the time to a full bucket, and the policy's window is the time a
 * full burst takes to refill (so `20;w=2` reads "20 per 2 s", i.e. 10 rps).
 */
function rateLimitHeaders(charge: Charge): Record<string, string> {
  if (!charge.outcome) return {};
  const report = reportBucket(charge.outcome, charge.rate, charge.cost);
  const windowSeconds = Math.max(1, Math.ceil(charge.rate.burst / charge.rate.rps - 1e-9));
  return {
    'RateLimit-Policy': `${charge.rate.burst};w=${windowSeconds}`,
    'RateLimit-Limit': String(charge.rate.burst),
    'RateLimit-Remaining': String(report.remaining),
    'RateLimit-Reset': String(report.resetSeconds),
  };
}

/** res.locals keys the two stages share. */
const JSON_RPC_LOCAL = 'accessJsonRpc';
const CHARGE_LOCAL = 'accessCharge';

/**
 * Hook of the first stage for JSON-RPC refusals: the caller's `id` is echoed when the body is
 * small enough to read for nothing (it sets req.body, or leaves it undefined).
 */
export type RefusalBodyReader = (req: Request) => Promise<void>;

/**
 * The gate in two stages around the body:
 * - `admit`, before a byte of the body is read: the API key (401 unknown, 403 wrong network),
 *   then the bucket. A REST call takes its one token here (429 when empty). A JSON-RPC request
 *   costs one token per call, which only its body tells, so here it only has to find at least
 *   one token in the bucket (none taken); an empty bucket is a 429 before the body.
 * - `settle`, after the body is parsed: a JSON-RPC call or batch takes its tokens whole or not
 *   at all (a refused batch takes nothing, as before the gate moved).
 * So a refused client's body is never parsed, and the batch semantics stay. Keys are never
 * logged nor echoed.
 */
export interface AccessGate {
  admit(isJsonRpc: JsonRpcTest, readRefusalBody: RefusalBodyReader): RequestHandler;
  readonly settle: RequestHandler;
}

interface PendingCharge {
  readonly bucketId: string;
  readonly rate: BucketRate;
}

export function createAccessGate(options: AccessGateOptions): AccessGate {
  const { logger } = options;
  const limiter = rateLimit({
    store: new TokenBucketRateLimitStore(options.buckets),
    keyGenerator: () => currentCharge().bucketId,
    limit: () => currentCharge().rate.burst,
    // The library's headers assume a fixed window; the gate writes bucket-true ones itself.
    standardHeaders: false,
    legacyHeaders: false,
    passOnStoreError: false,
    handler: (req: Request, res: Response) => {
      const charge = currentCharge();
      const report = reportBucket(charge.outcome ?? { allowed: false, tokens: 0 }, charge.rate, charge.cost);
      rateLimitDecisions.inc({ decision: 'limited' });
      sendRefusal(req, res, new RateLimitError(report.retryAfterSeconds), rateLimitHeaders(charge));
    },
    logger: {
      error: (err: unknown, message?: string) => logger.error({ err }, message ?? 'express-rate-limit error'),
      warn: (err: unknown, message?: string) => logger.warn({ err }, message ?? 'express-rate-limit warning'),
    },
  });

  const storeFailure = (req: Request, res: Response, next: NextFunction, err: LimiterUnavailableError): void => {
    if (options.failurePolicy === 'open') {
      // The outage itself is logged once by the store; this is per request.
      logger.debug({ reason: err.message }, 'rate limit not applied: store unavailable (policy open)');
      rateLimitDecisions.inc({ decision: 'store_unavailable_open' });
      next();
      return;
    }
    rateLimitDecisions.inc({ decision: 'store_unavailable_closed' });
    sendRefusal(req, res, new ApiError(503, 'rate limiter unavailable'), { 'Retry-After': '1' });
  };

  /** Takes `cost` tokens through express-rate-limit; refuses with 429 or applies the failure policy. */
  const take = (req: Request, res: Response, next: NextFunction, pending: PendingCharge, cost: number): void => {
    const charge: Charge = { ...pending, cost };
    chargeScope.run(charge, () => {
      void limiter(req, res, (err?: unknown) => {
        if (err === undefined) {
          rateLimitDecisions.inc({ decision: 'allowed' });
          res.set(rateLimitHeaders(charge));
          next();
        } else if (err instanceof LimiterUnavailableError) {
          storeFailure(req, res, next, err);
        } else {
          next(err);
        }
      });
    });
  };

  /** Checks that one token is there without taking it (a take of cost 0 refills and reports). */
  const requireToken = async (
    res: Response,
    next: NextFunction,
    pending: PendingCharge,
    refuse: (err: ApiError, headers?: Record<string, string>) => void,
  ): Promise<void> => {
    let outcome: TakeOutcome;
    try {
      outcome = await options.buckets.take(pending.bucketId, pending.rate, 0);
    } catch (err) {
      if (!(err instanceof LimiterUnavailableError)) throw err;
      if (options.failurePolicy === 'open') {
        rateLimitDecisions.inc({ decision: 'store_unavailable_open' });
        res.locals[CHARGE_LOCAL] = undefined;
        next();
        return;
      }
      rateLimitDecisions.inc({ decision: 'store_unavailable_closed' });
      refuse(new ApiError(503, 'rate limiter unavailable'), { 'Retry-After': '1' });
      return;
    }
    if (outcome.tokens + 1e-9 >= 1) {
      next();
      return;
    }
    const charge: Charge = { ...pending, cost: 1, outcome: { allowed: false, tokens: outcome.tokens } };
    rateLimitDecisions.inc({ decision: 'limited' });
    refuse(new RateLimitError(reportBucket(charge.outcome!, charge.rate, 1).retryAfterSeconds), rateLimitHeaders(charge));
  };

  const admit = (isJsonRpc: JsonRpcTest, readRefusalBody: RefusalBodyReader): RequestHandler => {
    return (req: Request, res: Response, next: NextFunction): void => {
      const jsonRpc = isJsonRpc(req);
      res.locals[JSON_RPC_LOCAL] = jsonRpc;
      res.locals[CHARGE_LOCAL] = undefined;
      const refuse = (err: ApiError, headers: Record<string, string> = {}) => {
        if (!jsonRpc) return sendRefusal(req, res, err, headers);
        // JSON-RPC answers carry the caller's id; a small body is read to find it.
        readRefusalBody(req).then(
          () => sendRefusal(req, res, err, headers),
          () => sendRefusal(req, res, err, headers),
        );
      };
      let rate: BucketRate | undefined;
      let bucketId: string | undefined;
      // Without a keys file a key is ignored, so the query is not even parsed for one.
      const keyring = options.keyring();
      const key = keyring && presentedKey(req);
      if (key !== undefined && keyring) {
        const record = keyring.lookup(key);
        if (!record) {
          rateLimitDecisions.inc({ decision: 'unknown_key' });
          return refuse(new UnauthorizedError());
        }
        if (!record.networks.has(options.network)) {
          rateLimitDecisions.inc({ decision: 'wrong_network' });
          return refuse(new ForbiddenError());
        }
        rate = record.rate;
        bucketId = `${options.network}:key:${record.name}`;
      } else {
        rate = options.keylessRate;
        // ipKeyGenerator folds IPv4-mapped addresses and groups IPv6 clients by /56.
        if (rate) bucketId = `${options.network}:ip:${ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? 'unknown')}`;
      }
      if (!rate || bucketId === undefined) {
        rateLimitDecisions.inc({ decision: 'unlimited' });
        return next();
      }
      const pending: PendingCharge = { bucketId, rate };
      if (!jsonRpc) return take(req, res, next, pending, 1);
      res.locals[CHARGE_LOCAL] = pending;
      requireToken(res, next, pending, refuse).catch(next);
    };
  };

  const settle: RequestHandler = (req: Request, res: Response, next: NextFunction): void => {
    const pending = res.locals[CHARGE_LOCAL] as PendingCharge | undefined;
    if (!pending) return next();
    res.locals[CHARGE_LOCAL] = undefined;
    take(
      req,
      res,
      next,
      pending,
      requestCost(req, () => true),
    );
  };

  return { admit, settle };
}
