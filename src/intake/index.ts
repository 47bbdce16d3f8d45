import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { isJsonRpcPath, type JsonRpcTest, type AccessControl } from '../auth';
import { ApiError, UnparseableBodyError, ValidationError } from '../errors';
import type { AppConfig } from '../config';
import { hasBody, precheckBody, readBody, type BodyLimits } from './body';
import { handedOver, type HandedOver } from './handover';
import { JsonBodyError, parseRequestJson } from './json';

/** What the intake needs of the server's services (routes' AppServices has it): limits and the gate. */
export interface IntakeServices {
  readonly config: Pick<AppConfig, 'bodyLimit' | 'requestTimeout' | 'maxBatch'>;
  readonly access?: AccessControl;
}

export { checkUrl, MAX_URL_BYTES, urlError } from './url';
export type { BodyLimits } from './body';
export { createApiHttpServer, MAX_HEADER_BYTES } from './httpServer';
export { boundsRefusal, MAX_JSON_DEPTH, MAX_JSON_ELEMENTS, scanJson } from './json';
export { handedOver, markHandedOver, type HandedOver } from './handover';
export { observeApiRequestStarts, publishApiRequestStart, type ApiRequestStart } from './requestEvents';

/**
 * What every API request goes through before a route sees it, in this order:
 * 1. the access gate's first stage (API key, bucket): a refused client's body is never read;
 * 2. the body: declared size and Content-Encoding checked before reading (413, 415), read
 *    within the byte limit (after decompression too) and a deadline, JSON with bounded nesting
 *    and element count and exact 64-bit integers (422); a JSON-RPC batch bounded by --max-batch (422);
 * 3. the gate's second stage: a JSON-RPC call or batch takes its tokens.
 * Mounts that add routes (JSON-RPC at `/`, v3 endpoints) reuse it with their own JSON-RPC test.
 */
export interface IntakeOptions {
  /** Which requests of the mount are JSON-RPC; default: POST to `.../jsonRPC`. */
  readonly isJsonRpc?: JsonRpcTest;
}

/** A JSON-RPC body refused by the gate is read only this small, to echo the caller's id. */
const REFUSAL_BODY_BYTES = 4096;

export class BatchTooLargeError extends ValidationError {
  constructor(size: number, limit: number) {
    super(`JSON-RPC batch of ${size} calls is larger than the limit of ${limit} (--max-batch)`);
  }
}

function bodyLimits(services: IntakeServices): BodyLimits {
  return { limitBytes: services.config.bodyLimit, timeoutMs: services.config.requestTimeout };
}

/**
 * Reads and parses a POST body under the bounds (undefined when there is none); rejects with the
 * client's 4xx. `jsonRpc`: the request is JSON-RPC, whose batches are bounded by --max-batch.
 */
export async function readJsonBody(req: IncomingMessage, services: IntakeServices, jsonRpc: boolean): Promise<unknown> {
  const body = await readBoundedJson(req, bodyLimits(services), jsonRpc);
  const maxBatch = services.config.maxBatch;
  if (jsonRpc && Array.isArray(body) && body.length > maxBatch) throw new BatchTooLargeError(body.length, maxBatch);
  return body;
}

/**
 * A POST body as JSON within `limits` (the streaming API's subscriptions use a bound of their own):
 * undefined when there is none; rejects with the client's 4xx (ApiError). `jsonRpc`: an unparseable
 * body is answered in JSON-RPC's shape.
 */
export async function readBoundedJson(req: IncomingMessage, limits: BodyLimits, jsonRpc = false): Promise<unknown> {
  if (req.method !== 'POST' || !hasBody(req)) return undefined;
  const decoders = precheckBody(req, limits);
  let bytes: Buffer;
  try {
    bytes = await readBody(req, decoders, limits);
  } catch (err) {
    throw err instanceof ApiError ? err : new ApiError('badRequest', 'the request body could not be read');
  }
  if (bytes.length === 0) return undefined;
  try {
    return parseRequestJson(bytes);
  } catch (err) {
    if (err instanceof JsonBodyError) {
      throw new UnparseableBodyError(err.message, jsonRpc);
    }
    throw err;
  }
}

/** Reads and parses a POST body into req.body (undefined when there is none). */
function jsonBody(services: IntakeServices, isJsonRpc: JsonRpcTest): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction): void => {
    req.body = undefined;
    if (req.method !== 'POST' || !hasBody(req)) return next();
    readJsonBody(req, services, isJsonRpc(req)).then(
      (body) => {
        req.body = body;
        next();
      },
      (err: unknown) => next(err),
    );
  };
}

/** For the gate's JSON-RPC refusals: reads a small plain body so the answer can echo the id. */
function refusalBodyReader(services: IntakeServices) {
  return async (req: Request): Promise<void> => {
    const declared = req.headers['content-length'] === undefined ? undefined : Number(req.headers['content-length']);
    if (req.method !== 'POST' || !hasBody(req) || req.headers['content-encoding']) return;
    if (declared !== undefined && !(declared <= REFUSAL_BODY_BYTES)) return;
    // A chunked body is read up to the same small bound; past it the read stops and the id stays null.
    const bytes = await readBody(req, [], { limitBytes: REFUSAL_BODY_BYTES, timeoutMs: Math.min(1000, services.config.requestTimeout) });
    req.body = parseRequestJson(bytes);
  };
}

/** The gate's first stage (before the body) for the requests of a mount; undefined without access control. */
export function gateAdmission(services: IntakeServices, isJsonRpc: JsonRpcTest = isJsonRpcPath): RequestHandler | undefined {
  return services.access?.gate.admit(isJsonRpc, refusalBodyReader(services));
}

/**
 * The intake chain of a mount: gate (first stage), body, gate (second stage). A request the fast
 * path handed over has been through the first two already: it gets the body (or the refusal)
 * the fast path read.
 */
export function createApiIntake(services: IntakeServices, options: IntakeOptions = {}): RequestHandler[] {
  const isJsonRpc = options.isJsonRpc ?? isJsonRpcPath;
  const admit = gateAdmission(services, isJsonRpc);
  const read = jsonBody(services, isJsonRpc);
  const settle = services.access?.gate.settle;
  const afterFastPath = (req: Request, next: NextFunction, record: HandedOver): void => {
    req.body = record.body;
    next(record.error);
  };
  const chain: RequestHandler[] = [
    (req, res, next) => {
      const record = handedOver(req);
      if (record) return afterFastPath(req, next, record);
      if (admit) return admit(req, res, next);
      next();
    },
    (req, res, next) => (handedOver(req) ? next() : read(req, res, next)),
  ];
  if (settle) chain.push((req, res, next) => (handedOver(req) ? next() : settle(req, res, next)));
  return chain;
}
