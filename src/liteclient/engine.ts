import { EventEmitter } from 'node:events';
import type { LiteEngine } from 'ton-lite-client';
import { TLReadBuffer, TLWriteBuffer, type TLFunction } from 'ton-tl';
import { LiteServerInvalidAnswerError } from '../errors';
import { encodeTl, liteServerQueryCodec, waitMasterchainSeqnoCodec } from '../tl';
import { AdnlClientConnection, LiteTransportError, type LiteServerEndpoint } from './connection';

export interface ServerEngineOptions {
  /** Per-query timeout when the caller gives none. */
  queryTimeoutMs: number;
  connectTimeoutMs: number;
  /** tcp.ping period; real lite servers drop ext connections idle for 60 s. */
  keepaliveMs: number;
  reconnectMinMs: number;
  reconnectMaxMs: number;
}

export const DEFAULT_ENGINE_OPTIONS: ServerEngineOptions = {
  queryTimeoutMs: 5000,
  connectTimeoutMs: 3000,
  keepaliveMs: 15000,
  reconnectMinMs: 100,
  reconnectMaxMs: 5000,
};

/**
 * ton-lite-client's `LiteEngine` for one lite server, built for a server process (see the design
 * study §1.6-1.7): it connects and reconnects with backoff on its own, keeps the connection alive
 * with tcp.ping, never retries (the pool decides), keeps `liteServer.error` codes, and never
 * emits an unhandled 'error'.
 */
export class ServerEngine extends EventEmitter implements LiteEngine {
  private connection: AdnlClientConnection | undefined;
  private connecting: Promise<void> | undefined;
  private closed = false;
  private reconnectDelay: number;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private keepaliveTimer: NodeJS.Timeout | undefined;
  private lastConnectError: string | undefined;

  constructor(
    readonly endpoint: LiteServerEndpoint,
    private readonly options: ServerEngineOptions = DEFAULT_ENGINE_OPTIONS,
  ) {
    super();
    this.reconnectDelay = options.reconnectMinMs;
    // The LiteEngine contract emits 'error'; a listener of our own means it can never crash us.
    this.on('error', () => undefined);
    // The outcome is kept (lastConnectError, reconnects); nobody awaits this first attempt.
    this.ensureConnecting().catch(() => undefined);
  }

  isClosed(): boolean {
    return this.closed;
  }

  isReady(): boolean {
    return this.connection?.isOpen ?? false;
  }

  /** Why the engine is not connected, if it is not. */
  get connectionError(): string | undefined {
    return this.isReady() ? undefined : (this.lastConnectError ?? 'connecting');
  }

  private ensureConnecting(): Promise<void> {
    if (this.closed) return Promise.reject(new LiteTransportError('engine is closed'));
    if (this.connection?.isOpen) return Promise.resolve();
    this.connecting ??= AdnlClientConnection.connect(this.endpoint, this.options.connectTimeoutMs).then(
      (connection) => {
        this.connecting = undefined;
        if (this.closed) {
          connection.destroy();
          return;
        }
        this.connection = connection;
        this.lastConnectError = undefined;
        this.reconnectDelay = this.options.reconnectMinMs;
        connection.once('close', (reason: string) => this.onConnectionClosed(connection, reason));
        this.startKeepalive(connection);
        this.emit('connect');
        this.emit('ready');
      },
      (err: unknown) => {
        this.connecting = undefined;
        this.lastConnectError = (err as Error).message;
        this.scheduleReconnect();
        throw err;
      },
    );
    return this.connecting;
  }

  private onConnectionClosed(connection: AdnlClientConnection, reason: string): void {
    if (this.connection !== connection) return;
    this.connection = undefined;
    this.lastConnectError = reason;
    clearInterval(this.keepaliveTimer);
    this.emit('close');
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer) return;
    const delay = this.reconnectDelay;
    this.reconnectDelay = Math.min(this.reconnectDelay * 2, this.options.reconnectMaxMs);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.ensureConnecting().catch(() => undefined);
    }, delay);
    this.reconnectTimer.unref();
  }

  private startKeepalive(connection: AdnlClientConnection): void {
    clearInterval(this.keepaliveTimer);
    this.keepaliveTimer = setInterval(() => {
      connection.ping(this.options.queryTimeoutMs).catch(() => connection.destroy('keep-alive ping failed'));
    }, this.options.keepaliveMs);
    this.keepaliveTimer.unref();
  }

  /** Resolves when connected, or rejects with LiteTransportError after `timeoutMs`. */
  async waitReady(timeoutMs: number): Promise<AdnlClientConnection> {
    if (this.connection?.isOpen) return this.connection;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new LiteTransportError(`not connected: ${this.lastConnectError ?? 'connecting'}`, true)), timeoutMs);
    });
    try {
      await Promise.race([this.ensureConnecting(), timeout]);
    } finally {
      clearTimeout(timer);
    }
    if (!this.connection?.isOpen) throw new LiteTransportError(`not connected: ${this.lastConnectError ?? 'connecting'}`);
    return this.connection;
  }

  async query<REQ, RES>(f: TLFunction<REQ, RES>, req: REQ, args?: { timeout?: number; awaitSeqno?: number }): Promise<RES> {
    const timeoutMs = args?.timeout ?? this.options.queryTimeoutMs;
    const started = Date.now();
    const connection = await this.waitReady(timeoutMs);
    const writer = new TLWriteBuffer();
    f.encodeRequest(req, writer);
    let data = writer.build();
    if (args?.awaitSeqno !== undefined) {
      const wait = encodeTl(waitMasterchainSeqnoCodec, {
        kind: 'liteServer.waitMasterchainSeqno',
        seqno: args.awaitSeqno,
        timeoutMs,
      });
      data = Buffer.concat([wait, data]);
    }
    const remaining = Math.max(1, timeoutMs - (Date.now() - started));
    const answer = await connection.query(encodeTl(liteServerQueryCodec, { kind: 'liteServer.query', data }), remaining);
    try {
      return f.decodeResponse(new TLReadBuffer(answer));
    } catch (err) {
      // A bad answer to one query: the connection and the other queries on it are fine.
      throw new LiteServerInvalidAnswerError(`cannot decode the answer: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** Round trip of a tcp.ping, for health checks. */
  async ping(timeoutMs: number): Promise<number> {
    const connection = await this.waitReady(timeoutMs);
    return connection.ping(timeoutMs);
  }

  /** Drops the current connection (it reconnects); used when the pool sees it misbehave. */
  dropConnection(reason: string): void {
    this.connection?.destroy(reason);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.keepaliveTimer);
    this.connection?.destroy('engine closed');
    this.connection = undefined;
  }
}
