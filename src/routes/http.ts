import type { ServerResponse } from 'node:http';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { ApiError, InternalError, toErrorResponse } from '../errors';
import type { AppServices } from './services';

export const API_VERSION = '2.1';

export function requestIdOf(req: Request): string {
  return String(req.id ?? '');
}

export function requestLogger(req: Request, services: AppServices): Logger {
  return (req.log as Logger | undefined) ?? services.logger;
}

const RESULT_PREFIX = Buffer.from('{"ok":true,"result":');

/**
 * The success envelope written from the result's bytes (cached ones are sent as they are): the
 * same bytes `res.json({ ok, result, '@extra' })` would send, without serialising the result again.
 */
export function sendResult(res: ServerResponse, outcome: { resultBytes: Buffer; extra: string }): void {
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(Buffer.concat([RESULT_PREFIX, outcome.resultBytes, Buffer.from(`,"@extra":"${outcome.extra}"}`)]));
}

/** Logs what is ours to fix (5xx that are not lite-server answers) and answers in the v2 error shape. */
export function sendError(req: Request, res: Response, err: unknown, services: AppServices): void {
  const { status, body, headers } = errorResponseOf(req, err, services);
  res.set(headers).status(status).json(body);
}

/** The v2 error answer of `err`, logging it first when it is ours to fix (v3 re-shapes the body). */
export function errorResponseOf(req: Request, err: unknown, services: AppServices): ReturnType<typeof toErrorResponse> {
  if (!(err instanceof ApiError) || err instanceof InternalError) {
    requestLogger(req, services).error({ err }, 'unhandled error');
  }
  return toErrorResponse(err);
}
