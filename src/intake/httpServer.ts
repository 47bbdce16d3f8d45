import { createServer, IncomingMessage, ServerResponse, type RequestListener, type Server, type ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { boundedTurns } from './turns';
import { MAX_URL_BYTES } from './url';

/**
 * Node's HTTP parser limit on the request line plus headers. Above MAX_URL_BYTES so that a long
 * URL reaches the app and gets its 414 in the envelope; above this the parser itself refuses.
 */
export const MAX_HEADER_BYTES = 64 * 1024;

/** Time a client gets to send its whole request (headers and body); bounds slow senders. */
export const REQUEST_RECEIVE_TIMEOUT_MS = 60_000;

const REASONS: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 414: 'URI Too Long' };

/** Writes a v2 error envelope straight to a socket the HTTP parser gave up on, then closes it. */
function answerRaw(socket: Socket, code: number, error: string, apiVersion: string): void {
  const body = JSON.stringify({ ok: false, error, code });
  socket.end(
    `HTTP/1.1 ${code} ${REASONS[code]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-API-Version: ${apiVersion}\r\nAccess-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** The prototypes the app gives every request and response it handles (Express's `app.request`, `app.response`). */
export interface AppPrototypes {
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
}

/** Node's request and response constructors, called as the functions they are (not ES classes). */
type NodeConstructor = (this: object, first: unknown, second: unknown) => void;

/**
 * A constructor of Node's `base` whose objects have `prototype` from birth. Express moves every
 * request and response onto its own prototypes when it takes them (Object.setPrototypeOf); V8
 * then changes the objects' shape under Node's HTTP code, which here tripled the CPU Node spends
 * on a request. Born with them, that move changes nothing and costs nothing. Undefined when
 * `base` is an ES class (it could not be called so), and the server then keeps Node's own.
 */
function bornWith<T extends typeof IncomingMessage | typeof ServerResponse>(base: T, prototype: InstanceType<T>): T | undefined {
  if (/^class\b/.test(Function.prototype.toString.call(base))) return undefined;
  const construct = base as unknown as NodeConstructor;
  // Reflect.construct would do for a class too, but its objects were 5x slower to serve here.
  function Born(this: object, first: unknown, second: unknown): void {
    construct.call(this, first, second);
  }
  Born.prototype = prototype;
  return Born as unknown as T;
}

/**
 * The HTTP server of the API: larger header limit than Node's 16 KiB default (see above), a
 * receive timeout, requests the parser rejects answered in the v2 envelope instead of Node's
 * bare status line or a reset, request handlers started in bounded turns of the event loop, and
 * requests and responses born with the app's prototypes.
 */
export function createApiHttpServer(listener: RequestListener, logger: Logger, apiVersion: string, prototypes?: AppPrototypes): Server {
  const options: ServerOptions = { maxHeaderSize: MAX_HEADER_BYTES, requestTimeout: REQUEST_RECEIVE_TIMEOUT_MS };
  const request = prototypes && bornWith(IncomingMessage, prototypes.request);
  const response = prototypes && bornWith(ServerResponse, prototypes.response);
  if (request && response) {
    options.IncomingMessage = request;
    options.ServerResponse = response;
  }
  // Handlers run in bounded turns, so that a busy server still accepts connections (turns.ts).
  const server = createServer(options, boundedTurns(listener));
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || err.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    logger.debug({ code: err.code, remoteAddress: socket.remoteAddress }, 'malformed HTTP request');
    if (err.code === 'HPE_HEADER_OVERFLOW') {
      // The parser cannot say whether the URL or a header overflowed; a long URL is what clients send.
      answerRaw(
        socket,
        414,
        `URI Too Long: the request line and headers may have at most ${MAX_HEADER_BYTES} bytes, the URL ${MAX_URL_BYTES}`,
        apiVersion,
      );
    } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      answerRaw(socket, 408, 'the request did not arrive in time', apiVersion);
    } else {
      answerRaw(socket, 400, 'malformed HTTP request', apiVersion);
    }
  });
  return server;
}
