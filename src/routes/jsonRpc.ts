import { Router, type Request, type Response } from 'express';
import * as jayson from 'jayson';
import { ApiError, MethodNotAllowedError, ValidationError, toErrorResponse } from '../errors';
import { quoteInput } from '../params';
import { executeCall, type CallOutcome } from './execute';
import { requestIdOf, requestLogger } from './http';
import type { Handler } from '../methods';
import type { AppServices } from './services';

/**
 * JSON-RPC 2.0 at `/api/v2/jsonRPC` over the same handler table as REST.
 *
 * jayson routes each call to the table and shapes the JSON-RPC frame, but its replies
 * (`{jsonrpc, id, result}` / `{jsonrpc, id, error: {code, message}}`) are not what toncenter's
 * clients read, so every reply is re-shaped into the v2 envelope plus `jsonrpc` and the caller's
 * own `id`, and a single call's HTTP status is the envelope's code.
 */

type RpcId = string | number | null;

interface RpcReply {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
  /** The call's outcome when it succeeded (a single call's answer is written from its bytes). */
  outcome?: CallOutcome;
}

interface CallContext {
  req: Request;
  element: number;
}

/** jayson errors carry our ApiError so that codes, texts and headers survive the round trip. */
interface CarriedError {
  code: number;
  message: string;
  data: ApiError;
}

function envelopeError(err: unknown, id: RpcId): RpcReply {
  const { status, body, headers } = toErrorResponse(err);
  return { status, body: { ...body, jsonrpc: '2.0', id }, headers };
}

function readId(value: unknown): RpcId {
  // An id beyond 2^53 arrives as a bigint (src/intake/json.ts); echo it as JSON.parse would have.
  if (typeof value === 'bigint') return Number(value);
  return typeof value === 'string' || typeof value === 'number' ? value : null;
}

/** A JSON-RPC call the frame rules refuse before any method runs: the error and the id to echo. */
export class RefusedCall {
  constructor(
    readonly error: ApiError,
    readonly id: RpcId,
  ) {}
}

/** One well-formed call of the table's method `handler`. */
export interface RpcCall {
  readonly id: RpcId;
  readonly method: string;
  readonly handler: Handler;
  readonly params: Record<string, unknown> | null | undefined;
}

/** Reads one call of a JSON-RPC body (a single call or a batch element) under the frame rules. */
export function readRpcCall(services: AppServices, element: unknown): RpcCall | RefusedCall {
  if (typeof element !== 'object' || element === null || Array.isArray(element)) {
    return new RefusedCall(new ValidationError('a JSON-RPC request must be a JSON object'), null);
  }
  const request = element as Record<string, unknown>;
  const id = readId(request['id']);
  const method = request['method'];
  const params = request['params'];
  if (typeof method !== 'string' || method.length === 0) {
    return new RefusedCall(new ValidationError('JSON-RPC request has no method'), id);
  }
  if (params !== undefined && params !== null && (typeof params !== 'object' || Array.isArray(params))) {
    return new RefusedCall(new ValidationError('params must be a JSON object of named parameters'), id);
  }
  const handler = services.table.find(method);
  if (!handler) return new RefusedCall(new ValidationError(`Unknown method ${quoteInput(method)}`), id);
  return { id, method, handler, params: params as Record<string, unknown> | null | undefined };
}

const RPC_RESULT_PREFIX = Buffer.from('{"ok":true,"result":');

/**
 * A single call's success, written from the result's bytes: the bytes `res.json` writes for
 * `{ ok, result, '@extra', jsonrpc, id }`, with Express's own send (Content-Type, ETag).
 */
export function sendRpcResult(res: Response, outcome: { resultBytes: Buffer; extra: string }, id: RpcId): void {
  res.status(200).set('Content-Type', 'application/json; charset=utf-8');
  const tail = Buffer.from(`,"@extra":${JSON.stringify(outcome.extra)},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`);
  res.send(Buffer.concat([RPC_RESULT_PREFIX, outcome.resultBytes, tail]));
}

export function createJsonRpcRouter(services: AppServices): Router {
  const server = new jayson.Server(
    {},
    {
      useContext: true,
      router(methodName: string) {
        const handler = services.table.find(methodName);
        if (!handler) return undefined as unknown as jayson.Method;
        return new jayson.Method({
          useContext: true,
          params: Object,
          handler: (
            args: jayson.RequestParamsLike,
            context: object,
            done: (error: CarriedError | null, outcome?: CallOutcome) => void,
          ) => {
            const { req } = context as CallContext;
            // JSON-RPC goes through the same checks as a REST POST (toncenter forwards it there).
            executeCall(services, handler, args as Record<string, unknown>, 'post', requestIdOf(req), requestLogger(req, services)).then(
              (outcome) => done(null, outcome),
              (err: unknown) => {
                const apiError = err instanceof ApiError ? err : undefined;
                const { body } = toErrorResponse(err);
                done({ code: body.code, message: body.error, data: apiError ?? new ApiError(body.code, body.error) });
              },
            );
          },
        });
      },
    },
  );

  async function callOne(req: Request, element: unknown, index: number): Promise<RpcReply> {
    const call = readRpcCall(services, element);
    if (call instanceof RefusedCall) return envelopeError(call.error, call.id);
    const { id, method, params } = call;
    // jayson answers nothing to notifications; toncenter always answers, so give it an id of ours.
    const framed = { jsonrpc: '2.0', id: index, method, params: params ?? {} };
    const context: CallContext = { req, element: index };
    type JaysonReply = { result?: CallOutcome; error?: { code: number; message: string; data?: unknown } };
    const response = await new Promise<JaysonReply>((resolve) => {
      server.call(framed, context, (error: unknown, success: unknown) => resolve((error ?? success) as JaysonReply));
    });
    if (response.result) {
      const outcome = response.result;
      return { status: 200, body: { ok: true, result: outcome.result, '@extra': outcome.extra, jsonrpc: '2.0', id }, headers: {}, outcome };
    }
    const carried = response.error?.data;
    return envelopeError(carried instanceof ApiError ? carried : new ApiError(500, response.error?.message ?? 'internal server error'), id);
  }

  const router = Router();
  router.post('/jsonRPC', async (req: Request, res: Response) => {
    const body: unknown = req.body;
    if (Array.isArray(body)) {
      if (body.length === 0) {
        const reply = envelopeError(new ValidationError('empty JSON-RPC batch'), null);
        res.status(reply.status).json(reply.body);
        return;
      }
      // Neither toncenter server takes batches; ours answers each element in order, status 200.
      const replies = await Promise.all(body.map((element, index) => callOne(req, element, index)));
      res.status(200).json(replies.map((reply) => reply.body));
      return;
    }
    const reply = await callOne(req, body, 0);
    if (reply.outcome) sendRpcResult(res, reply.outcome, reply.body['id'] as RpcId);
    else res.set(reply.headers).status(reply.status).json(reply.body);
  });
  router.all('/jsonRPC', (req: Request, res: Response) => {
    const { status, body } = toErrorResponse(new MethodNotAllowedError(req.method));
    res.status(status).json(body);
  });
  return router;
}
