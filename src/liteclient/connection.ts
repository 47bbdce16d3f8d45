import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import net from 'node:net';
import { LiteServerError, LiteServerInvalidAnswerError } from '../errors';
import { FrameReader, encodeFrame, createClientHandshake, type AdnlSessionCiphers } from '../adnl';
import {
  adnlMessageQueryCodec,
  decodeAdnlPayload,
  decodeLiteServerErrorIfAny,
  encodeTl,
  tcpPingCodec,
} from '../tl';

/** Where a lite server listens and the ed25519 key it proves in the handshake. */
export interface LiteServerEndpoint {
  readonly host: string;
  readonly port: number;
  readonly publicKey: Buffer;
}

/**
 * The connection failed, closed, or the server did not answer in time. Unlike a
 * `liteServer.error` answer this says nothing about the query, so the pool may retry elsewhere.
 */
export class LiteTransportError extends Error {
  constructor(
    message: string,
    readonly timedOut = false,
  ) {
    super(message);
    this.name = 'LiteTransportError';
  }
}

interface PendingQuery {
  resolve(answer: Buffer): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * One ADNL/TCP connection to a lite server. Written for a long-running server: every failure is
 * reported through promises and the `close` event, nothing is thrown from socket callbacks, and a
 * `liteServer.error` keeps its code (ton-lite-client's engines drop it).
 */
export class AdnlClientConnection extends EventEmitter {
  private readonly socket: net.Socket;
  private ciphers: AdnlSessionCiphers | undefined;
  private readonly reader = new FrameReader();
  private readonly pending = new Map<string, PendingQuery>();
  private readonly pings = new Map<string, (latencyMs: number) => void>();
  private ready = false;
  private corked = false;
  private closedReason: string | undefined;

  private constructor(readonly endpoint: LiteServerEndpoint) {
    super();
    this.socket = new net.Socket();
    this.socket.setNoDelay(true);
  }

  /** Connects and completes the handshake; resolves once the server's empty first frame arrives. */
  static connect(endpoint: LiteServerEndpoint, timeoutMs: number): Promise<AdnlClientConnection> {
    const connection = new AdnlClientConnection(endpoint);
    return connection.start(timeoutMs).then(() => connection);
  }

  get isOpen(): boolean {
    return this.ready && this.closedReason === undefined;
  }

  private start(timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.destroy(`handshake timed out after ${timeoutMs} ms`), timeoutMs);
      this.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
      this.once('close', (reason: string) => {
        clearTimeout(timer);
        reject(new LiteTransportError(reason));
      });
      this.socket.on('error', (err) => this.destroy(`socket error: ${err.message}`));
      // A close before the server's first frame: it could not read our handshake (wrong key?).
      this.socket.on('close', () => this.destroy(this.ready ? 'connection closed by the server' : 'connection closed during the handshake'));
      this.socket.on('data', (chunk: Buffer) => this.onData(chunk));
      this.socket.connect(this.endpoint.port, this.endpoint.host, () => {
        try {
          const handshake = createClientHandshake(this.endpoint.publicKey);
          this.ciphers = handshake;
          this.socket.write(handshake.packet);
        } catch (err) {
          this.destroy(`handshake failed: ${(err as Error).message}`);
        }
      });
    });
  }

  private onData(chunk: Buffer): void {
    if (!this.ciphers || this.closedReason !== undefined) return;
    let payloads: Buffer[];
    try {
      payloads = this.reader.push(this.ciphers.decrypt.update(chunk));
    } catch (err) {
      this.destroy(`bad frame from the server: ${(err as Error).message}`);
      return;
    }
    for (const payload of payloads) {
      if (!this.ready) {
        if (payload.length !== 0) {
          this.destroy('bad handshake answer');
          return;
        }
        this.ready = true;
        this.emit('ready');
        continue;
      }
      if (payload.length === 0) continue;
      this.onPayload(payload);
    }
  }

  private onPayload(payload: Buffer): void {
    let message;
    try {
      message = decodeAdnlPayload(payload);
    } catch (err) {
      this.destroy(`undecodable payload from the server: ${(err as Error).message}`);
      return;
    }
    if (message.kind === 'adnl.message.answer') {
      const key = message.queryId.toString('hex');
      const query = this.pending.get(key);
      if (!query) return;
      this.pending.delete(key);
      clearTimeout(query.timer);
      query.resolve(message.answer);
    } else if (message.kind === 'tcp.pong') {
      this.pings.get(message.randomId)?.(0);
      this.pings.delete(message.randomId);
    }
  }

  private send(payload: Buffer): void {
    if (!this.ciphers) throw new LiteTransportError('not connected');
    // Queries sent in one turn of the event loop (requests handled together) leave in one
    // write: each write to a socket is a system call, which on loopback also delivers the bytes.
    if (!this.corked) {
      this.corked = true;
      this.socket.cork();
      process.nextTick(() => {
        this.corked = false;
        this.socket.uncork();
      });
    }
    this.socket.write(this.ciphers.encrypt.update(encodeFrame(payload)));
  }

  /**
   * Sends the bytes of a `liteServer.query` and resolves with the answer bytes. A
   * `liteServer.error` answer rejects with LiteServerError (code kept); transport trouble with
   * LiteTransportError.
   */
  query(liteQuery: Buffer, timeoutMs: number): Promise<Buffer> {
    if (!this.isOpen) return Promise.reject(new LiteTransportError(this.closedReason ?? 'not connected'));
    const queryId = randomBytes(32);
    const key = queryId.toString('hex');
    return new Promise<Buffer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(key);
        reject(new LiteTransportError(`no answer within ${timeoutMs} ms`, true));
      }, timeoutMs);
      this.pending.set(key, { resolve, reject, timer });
      try {
        this.send(encodeTl(adnlMessageQueryCodec, { kind: 'adnl.message.query', queryId, query: liteQuery }));
      } catch (err) {
        clearTimeout(timer);
        this.pending.delete(key);
        reject(err instanceof LiteTransportError ? err : new LiteTransportError((err as Error).message));
      }
    }).then((answer) => {
      let error: ReturnType<typeof decodeLiteServerErrorIfAny>;
      try {
        error = decodeLiteServerErrorIfAny(answer);
      } catch (err) {
        throw new LiteServerInvalidAnswerError(`cannot decode liteServer.error: ${err instanceof Error ? err.message : String(err)}`);
      }
      if (error) throw new LiteServerError(error.code, error.message);
      return answer;
    });
  }

  /** `tcp.ping`: resolves with the round trip in ms, rejects after the timeout. */
  ping(timeoutMs: number): Promise<number> {
    if (!this.isOpen) return Promise.reject(new LiteTransportError(this.closedReason ?? 'not connected'));
    const randomId = BigInt.asIntN(64, randomBytes(8).readBigUInt64LE()).toString();
    const started = performance.now();
    return new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pings.delete(randomId);
        reject(new LiteTransportError(`no pong within ${timeoutMs} ms`, true));
      }, timeoutMs);
      this.pings.set(randomId, () => {
        clearTimeout(timer);
        resolve(performance.now() - started);
      });
      try {
        this.send(encodeTl(tcpPingCodec, { kind: 'tcp.ping', randomId }));
      } catch (err) {
        clearTimeout(timer);
        this.pings.delete(randomId);
        reject(new LiteTransportError((err as Error).message));
      }
    });
  }

  /** Closes the connection; every query in flight fails with the reason. Idempotent. */
  destroy(reason = 'closed by the client'): void {
    if (this.closedReason !== undefined) return;
    this.closedReason = reason;
    this.ready = false;
    this.socket.destroy();
    for (const query of this.pending.values()) {
      clearTimeout(query.timer);
      query.reject(new LiteTransportError(reason));
    }
    this.pending.clear();
    this.pings.clear();
    this.emit('close', reason);
  }
}
