import type { IncomingMessage } from 'node:http';
import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { ApiError, PayloadTooLargeError } from '../errors';
import { quoteInput } from '../params';

/**
 * Reads a request body into memory within bounds: the declared length is checked before a byte
 * is read, the bytes on the wire and the bytes after decompression are each capped at the body
 * limit (a gzip bomb stops at the limit), and the whole body must arrive within a deadline.
 */

export class UnsupportedEncodingError extends ApiError {
  constructor(encoding: string) {
    super(415, `unsupported Content-Encoding ${quoteInput(encoding, 40)}: use gzip, deflate, br or identity`);
  }
}

export class BadBodyError extends ApiError {
  constructor(message: string) {
    super(400, message);
  }
}

export class BodyTimeoutError extends ApiError {
  constructor(ms: number) {
    super(408, `the request body did not arrive within ${ms} ms`);
  }
}

type Decoder = () => Transform;

const DECODERS: Record<string, Decoder | undefined> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** The decompression steps of a Content-Encoding header, outermost first; throws 415 for others. */
export function contentDecoders(header: string | undefined): Decoder[] {
  if (header === undefined) return [];
  const codings = header
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding.length > 0 && coding !== 'identity');
  // Applied in the order listed, so they are undone last first.
  return codings.reverse().map((coding) => {
    const decoder = DECODERS[coding];
    if (!decoder) throw new UnsupportedEncodingError(coding);
    return decoder;
  });
}

/** Whether the request carries a body at all (Content-Length > 0 or chunked). */
export function hasBody(req: IncomingMessage): boolean {
  return (
    req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0')
  );
}

export interface BodyLimits {
  readonly limitBytes: number;
  readonly timeoutMs: number;
}

/** Checks made before any byte of the body is read: declared size and encoding. */
export function precheckBody(req: IncomingMessage, limits: BodyLimits): Decoder[] {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limits.limitBytes) throw new PayloadTooLargeError(limits.limitBytes);
  return contentDecoders(req.headers['content-encoding']);
}

/** Reads and decompresses the whole body; rejects with an ApiError (400, 408, 413). */
export function readBody(req: IncomingMessage, decoders: Decoder[], limits: BodyLimits): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let wireBytes = 0;
    let decodedBytes = 0;
    let settled = false;
    const steps = decoders.map((make) => make());
    const finish = (err: ApiError | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.off('data', onWireData);
      for (const step of steps) step.destroy();
      if (err) {
        // Stop reading: the rest of the body is discarded, never buffered.
        req.unpipe();
        req.resume();
        reject(err);
      } else resolve(Buffer.concat(chunks, decodedBytes));
    };
    const timer = setTimeout(() => finish(new BodyTimeoutError(limits.timeoutMs)), limits.timeoutMs);
    timer.unref();

    const onWireData = (chunk: Buffer) => {
      wireBytes += chunk.length;
      if (wireBytes > limits.limitBytes) finish(new PayloadTooLargeError(limits.limitBytes));
    };
    const onDecoded = (chunk: Buffer) => {
      if (settled) return;
      decodedBytes += chunk.length;
      if (decodedBytes > limits.limitBytes) finish(new PayloadTooLargeError(limits.limitBytes));
      else chunks.push(chunk);
    };
    req.on('data', onWireData);
    req.on('aborted', () => finish(new BadBodyError('the request body was cut off')));
    req.on('error', () => finish(new BadBodyError('the request body could not be read')));

    let tail: NodeJS.ReadableStream = req;
    for (const step of steps) {
      step.on('error', () =>
        finish(
          new BadBodyError(
            `the body is not valid ${req.headers['content-encoding'] ? 'compressed data for its Content-Encoding' : 'data'}`,
          ),
        ),
      );
      tail = tail.pipe(step);
    }
    tail.on('data', onDecoded);
    tail.on('end', () => finish(undefined));
  });
}
