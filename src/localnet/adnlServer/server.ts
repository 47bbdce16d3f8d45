/** ADNL/TCP server: accepts lite clients and hands each query's bytes to `onQuery`. */
import { Server, Socket, createServer } from 'net';
import { AdnlConnection, AdnlQueryHandler, InboundBudget } from './connection';
import { FRAME_OVERHEAD, AdnlKeyPair, createAdnlKeyPair } from '../../adnl';
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
  /**
   * Largest accepted frame length field; a longer one closes the connection as soon as its
   * header arrives. Default LOCAL_MAX_FRAME_SIZE (1 MiB of query plus the TL and frame wrapping).
   */
  maxFrameSize?: number;
  /** Bytes all connections together may hold unhandled; the one going over is closed. Default 64 MiB. */
  maxBufferedBytes?: number;
  /** Connections at once; one more is closed as it is accepted. Default 256. */
  maxConnections?: number;
  /** Reading from a connection pauses while it has this many unanswered queries. Default 1024. */
  maxQueriesInFlight?: number;
  onQuery: AdnlQueryHandler;
  logger?: LocalnetLogger;
}

/**
 * The largest legitimate query is a `liteServer.sendMessage` of a big message BoC (the API's body
 * limit is 1 MiB of base64; TON caps a message far lower) or a runSmcMethod with big params: 1 MiB
 * of bytes, plus the adnl.message.query / liteServer.query wrapping and the frame's nonce and hash.
 */
export const LOCAL_MAX_FRAME_SIZE = 1024 * 1024 + 1024 + FRAME_OVERHEAD;
const DEFAULT_MAX_BUFFERED_BYTES = 64 * 1024 * 1024;
const DEFAULT_MAX_CONNECTIONS = 256;
/** What one connection may hold: a whole largest frame plus one socket read (64 KiB) of the next. */
const READ_CHUNK_ALLOWANCE = 64 * 1024 + 4;

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
  private readonly budget: InboundBudget;
  private refused = 0;
  private address: AdnlServerAddress | null = null;

  constructor(private readonly options: AdnlServerOptions) {
    this.keys = createAdnlKeyPair(options.seed);
    this.logger = options.logger ?? silentLogger;
    this.budget = { used: 0, limit: options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES, relieve: () => this.relieve() };
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

  /** Bytes all connections hold that are not yet handled frames (what maxBufferedBytes caps). */
  get bufferedBytes(): number {
    return this.budget.used;
  }

  /** Connections closed on accept because maxConnections were open. */
  get refusedConnections(): number {
    return this.refused;
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

  /**
   * Over the total cap, the connection holding the most goes first: honest clients hold a few
   * bytes of a frame at a time, so whoever fills the budget is the one closed, not the next
   * client that happens to send a query.
   */
  private relieve(): void {
    while (this.budget.used > this.budget.limit) {
      let largest: AdnlConnection | null = null;
      for (const connection of this.connections) if (!largest || connection.heldBytes > largest.heldBytes) largest = connection;
      if (!largest || largest.heldBytes === 0) return;
      this.logger.warn(
        { connection: largest.info.id, bytes: largest.heldBytes, total: this.budget.used, limit: this.budget.limit },
        'ADNL server buffers too much in total; closing the connection holding the most',
      );
      largest.destroy('total buffer limit');
    }
  }

  private accept(socket: Socket): void {
    const maxConnections = this.options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
    if (this.connections.size >= maxConnections) {
      this.refused++;
      // Logged once per 100 so a connection flood does not flood the log too.
      if (this.refused % 100 === 1)
        this.logger.warn({ maxConnections, refused: this.refused }, 'ADNL connection limit reached; closing new connections');
      socket.on('error', () => undefined);
      socket.destroy();
      return;
    }
    const maxFrameSize = this.options.maxFrameSize ?? LOCAL_MAX_FRAME_SIZE;
    const connection = new AdnlConnection(socket, this.nextConnectionId++, {
      keys: this.keys,
      onQuery: this.options.onQuery,
      idleTimeoutMs: this.options.idleTimeoutMs ?? 60_000,
      maxFrameSize,
      maxBufferedBytes: 4 + maxFrameSize + READ_CHUNK_ALLOWANCE,
      budget: this.budget,
      maxQueriesInFlight: this.options.maxQueriesInFlight ?? 1024,
      logger: this.logger,
    });
    this.connections.add(connection);
    connection.onClosed(() => this.connections.delete(connection));
  }
}
