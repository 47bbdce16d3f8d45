/** ADNL/TCP server: accepts lite clients and hands each query's bytes to `onQuery`. */
import { Server, Socket, createServer } from 'net';
import { AdnlConnection, AdnlQueryHandler } from './connection';
import { DEFAULT_MAX_FRAME_SIZE } from '../../adnl/frames';
import { AdnlKeyPair, createAdnlKeyPair } from '../../adnl/keys';
import { LocalnetLogger, silentLogger } from './logger';

export interface AdnlServerOptions {
  /** 32-byte ed25519 seed of the server key; a random key is generated when absent. */
  seed?: Buffer;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (an ephemeral port; read it from listen()). */
  port?: number;
  /** A connection that neither sends nor awaits anything for this long is closed. Default 60 000. */
  idleTimeoutMs?: number;
  /** Largest accepted frame length field. Default 2^24. */
  maxFrameSize?: number;
  /** Reading from a connection pauses while it has this many unanswered queries. Default 1024. */
  maxQueriesInFlight?: number;
  onQuery: AdnlQueryHandler;
  logger?: LocalnetLogger;
}

export interface AdnlServerAddress {
  host: string;
  port: number;
}

export class AdnlServer {
  private readonly keys: AdnlKeyPair;
  private readonly server: Server;
  private readonly connections = new Set<AdnlConnection>();
  private readonly logger: LocalnetLogger;
  private nextConnectionId = 1;
  private address: AdnlServerAddress | null = null;

  constructor(private readonly options: AdnlServerOptions) {
    this.keys = createAdnlKeyPair(options.seed);
    this.logger = options.logger ?? silentLogger;
    this.server = createServer((socket) => this.accept(socket));
    this.server.on('error', (err) => this.logger.error({ err: err.message }, 'ADNL server error'));
  }

  /** ed25519 public key clients must be configured with. */
  get publicKey(): Buffer {
    return Buffer.from(this.keys.publicKey);
  }

  /** ADNL short id of the key (first 32 bytes of every valid handshake). */
  get shortId(): Buffer {
    return Buffer.from(this.keys.shortId);
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  listen(): Promise<AdnlServerAddress> {
    const host = this.options.host ?? '127.0.0.1';
    return new Promise((resolve, reject) => {
      const onError = (err: Error): void => reject(err);
      this.server.once('error', onError);
      this.server.listen(this.options.port ?? 0, host, () => {
        this.server.off('error', onError);
        const bound = this.server.address();
        const port = typeof bound === 'object' && bound !== null ? bound.port : (this.options.port ?? 0);
        this.address = { host, port };
        this.logger.info({ host, port, publicKey: this.keys.publicKey.toString('base64') }, 'ADNL server listening');
        resolve({ host, port });
      });
    });
  }

  /** Stops accepting, drops every connection and resolves when the listening socket is closed. */
  close(): Promise<void> {
    for (const connection of this.connections) connection.destroy('server closing');
    if (!this.server.listening) return Promise.resolve();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** `host:port` once listening, else null. */
  get listeningAddress(): AdnlServerAddress | null {
    return this.address;
  }

  private accept(socket: Socket): void {
    const connection = new AdnlConnection(socket, this.nextConnectionId++, {
      keys: this.keys,
      onQuery: this.options.onQuery,
      idleTimeoutMs: this.options.idleTimeoutMs ?? 60_000,
      maxFrameSize: this.options.maxFrameSize ?? DEFAULT_MAX_FRAME_SIZE,
      maxQueriesInFlight: this.options.maxQueriesInFlight ?? 1024,
      logger: this.logger,
    });
    this.connections.add(connection);
    connection.onClosed(() => this.connections.delete(connection));
  }
}
