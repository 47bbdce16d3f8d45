/**
 * One ADNL/TCP connection on the server side: handshake, decryption, framing, ping/pong and
 * query/answer, with idle timeout and backpressure. Protocol violations close only this socket,
 * and so does going over a memory bound: the bytes this connection holds that are not yet a
 * handled frame (an unfinished handshake or frame, frames queued behind flow control) are
 * capped per connection and, through a budget shared by all connections, in total.
 */
import { Socket } from 'net';
import { TlDecodeError, encodeTl, adnlMessageAnswerCodec, decodeAdnlPayload, tcpPongCodec } from '../../tl';
import {
  AdnlFrameError,
  FrameReader,
  encodeFrame,
  AdnlHandshakeError,
  AdnlSessionCiphers,
  HANDSHAKE_SIZE,
  acceptHandshake,
  AdnlKeyPair,
} from '../../adnl';
import { LocalnetLogger } from './logger';

export interface ConnectionInfo {
  /** Unique per server instance, increasing. */
  readonly id: number;
  readonly remoteAddress: string;
  readonly remotePort: number;
}

/** Answers the bytes of one `adnl.message.query` (its `query` field). Must not reject. */
export type AdnlQueryHandler = (query: Buffer, connection: ConnectionInfo) => Promise<Buffer>;

/** Bytes buffered by all connections of a server together, and their cap. */
export interface InboundBudget {
  used: number;
  readonly limit: number;
  /** Called when `used` went over `limit`: closes the connections holding the most until it is not. */
  relieve(): void;
}

export interface AdnlConnectionOptions {
  readonly keys: AdnlKeyPair;
  /** Most bytes this connection may hold unhandled (a bit above the largest frame). */
  readonly maxBufferedBytes: number;
  readonly budget: InboundBudget;
  readonly onQuery: AdnlQueryHandler;
  readonly idleTimeoutMs: number;
  readonly maxFrameSize: number;
  readonly maxQueriesInFlight: number;
  readonly logger: LocalnetLogger;
}

type ConnectionState = 'handshake' | 'open' | 'closed';

export class AdnlConnection {
  readonly info: ConnectionInfo;
  private state: ConnectionState = 'handshake';
  private handshakeChunks: Buffer[] = [];
  private handshakeBytes = 0;
  private ciphers: AdnlSessionCiphers | null = null;
  private readonly frames: FrameReader;
  private readonly idleTimer: NodeJS.Timeout;
  private queriesInFlight = 0;
  private readonly pendingPayloads: Buffer[] = [];
  private pendingPayloadBytes = 0;
  /** What this connection has counted in the shared budget. */
  private accounted = 0;
  private waitingForDrain = false;
  private readonly closedCallbacks: (() => void)[] = [];

  constructor(
    private readonly socket: Socket,
    id: number,
    private readonly options: AdnlConnectionOptions,
  ) {
    this.info = { id, remoteAddress: socket.remoteAddress ?? '', remotePort: socket.remotePort ?? 0 };
    this.frames = new FrameReader(options.maxFrameSize);
    this.idleTimer = setTimeout(() => this.onIdle(), options.idleTimeoutMs);
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('drain', () => {
      this.waitingForDrain = false;
      this.guarded(() => this.processPayloads());
    });
    socket.on('error', (err) => this.log('debug', { err: err.message }, 'ADNL socket error'));
    socket.on('close', () => this.onSocketClosed());
  }

  get isOpen(): boolean {
    return this.state === 'open';
  }

  onClosed(callback: () => void): void {
    this.closedCallbacks.push(callback);
  }

  /** Ends the connection at once (server shutdown or protocol violation). */
  destroy(reason: string): void {
    if (this.state === 'closed') return;
    this.log('debug', { reason }, 'closing ADNL connection');
    this.socket.destroy();
    this.onSocketClosed();
  }

  private log(level: keyof LocalnetLogger, details: object, message: string): void {
    this.options.logger[level]({ connection: this.info.id, remote: this.info.remoteAddress, ...details }, message);
  }

  /**
   * The idle timer is refreshed by completed work (a handshake, a whole frame, an answer), not
   * by bytes: a client dripping an endless partial frame is closed like a silent one.
   */
  private onData(chunk: Buffer): void {
    if (this.state === 'closed') return;
    this.guarded(() => {
      let stream: Buffer | null = chunk;
      if (this.state === 'handshake') stream = this.collectHandshake(chunk);
      if (stream !== null && stream.length > 0 && this.ciphers) {
        const payloads = this.frames.push(this.ciphers.decrypt.update(stream));
        for (const payload of payloads) {
          this.pendingPayloads.push(payload);
          this.pendingPayloadBytes += payload.length;
        }
        if (payloads.length > 0) this.idleTimer.refresh();
      }
      if (!this.account()) return;
      this.processPayloads();
    });
  }

  /** Updates this connection's share of the budget; closes it (and returns false) over either cap. */
  private account(): boolean {
    const held = this.handshakeBytes + this.frames.pendingBytes + this.pendingPayloadBytes;
    const budget = this.options.budget;
    budget.used += held - this.accounted;
    this.accounted = held;
    if (held > this.options.maxBufferedBytes) {
      this.log('warn', { bytes: held, limit: this.options.maxBufferedBytes }, 'ADNL connection buffers too much; closing it');
      this.destroy('per-connection buffer limit');
      return false;
    }
    if (budget.used > budget.limit) budget.relieve();
    return this.state !== 'closed';
  }

  /** Bytes this connection holds that are not yet handled frames. */
  get heldBytes(): number {
    return this.accounted;
  }

  /** Runs protocol work; a violation closes this connection and nothing escapes to the socket. */
  private guarded(work: () => void): void {
    try {
      work();
    } catch (err) {
      if (err instanceof AdnlHandshakeError || err instanceof AdnlFrameError || err instanceof TlDecodeError) {
        this.log('warn', { err: err.message }, 'ADNL protocol violation');
        this.destroy(err.message);
      } else {
        this.log('error', { err: (err as Error).message }, 'unexpected ADNL connection failure');
        this.destroy('internal error');
      }
    }
  }

  /**
   * Handles queued frames in order until flow control says stop. Frames that arrived in the same
   * TCP chunk wait here, so the in-flight cap holds however the client batches its writes.
   */
  private processPayloads(): void {
    while (this.state === 'open' && !this.mustPause() && this.pendingPayloads.length > 0) {
      const payload = this.pendingPayloads.shift() as Buffer;
      this.pendingPayloadBytes -= payload.length;
      this.onPayload(payload);
    }
    if (this.state !== 'closed') this.account();
    this.updateFlow();
  }

  /** Buffers until the 256-byte handshake is complete; returns the bytes that follow it. */
  private collectHandshake(chunk: Buffer): Buffer | null {
    this.handshakeChunks.push(chunk);
    this.handshakeBytes += chunk.length;
    if (this.handshakeBytes < HANDSHAKE_SIZE) return null;
    const all = Buffer.concat(this.handshakeChunks, this.handshakeBytes);
    this.handshakeChunks = [];
    this.handshakeBytes = 0;
    this.idleTimer.refresh();
    this.ciphers = acceptHandshake(all.subarray(0, HANDSHAKE_SIZE), this.options.keys);
    this.state = 'open';
    // The empty first frame tells the client the handshake was accepted by the key's owner.
    this.send(Buffer.alloc(0));
    this.log('debug', {}, 'ADNL handshake accepted');
    return all.subarray(HANDSHAKE_SIZE);
  }

  private onPayload(payload: Buffer): void {
    if (payload.length === 0) return; // keep-alive
    const message = decodeAdnlPayload(payload);
    switch (message.kind) {
      case 'tcp.ping':
        this.send(encodeTl(tcpPongCodec, { kind: 'tcp.pong', randomId: message.randomId }));
        return;
      case 'adnl.message.query':
        this.runQuery(message.queryId, message.query);
        return;
      default:
        throw new TlDecodeError(`unexpected ${message.kind} from a client`);
    }
  }

  private runQuery(queryId: Buffer, query: Buffer): void {
    this.queriesInFlight++;
    let handled: Promise<Buffer>;
    try {
      handled = this.options.onQuery(query, this.info);
    } catch (err) {
      handled = Promise.reject(err);
    }
    handled
      .then((answer) => {
        if (this.state !== 'open') return;
        let message: Buffer;
        try {
          message = encodeTl(adnlMessageAnswerCodec, { kind: 'adnl.message.answer', queryId, answer });
        } catch (err) {
          this.log('error', { err: (err as Error).message, bytes: answer.length }, 'ADNL answer cannot be encoded');
          this.destroy('answer cannot be encoded');
          return;
        }
        this.send(message);
      })
      .catch((err: unknown) => {
        // The query handler is expected to turn failures into liteServer.error; if it did not,
        // the client cannot be answered meaningfully, so the connection is dropped.
        this.log('error', { err: err instanceof Error ? err.message : String(err) }, 'ADNL query handler failed');
        this.destroy('query handler failed');
      })
      .finally(() => {
        this.queriesInFlight--;
        if (this.state === 'open') {
          this.idleTimer.refresh();
          this.guarded(() => this.processPayloads());
        }
      });
  }

  private send(payload: Buffer): void {
    if (this.state !== 'open' || !this.ciphers) return;
    const written = this.socket.write(this.ciphers.encrypt.update(encodeFrame(payload)));
    if (!written && !this.waitingForDrain) {
      this.waitingForDrain = true;
      this.updateFlow();
    }
  }

  private mustPause(): boolean {
    return this.waitingForDrain || this.queriesInFlight >= this.options.maxQueriesInFlight;
  }

  /** Stops reading while the client does not read our answers, has too many queries open, or frames are queued. */
  private updateFlow(): void {
    if (this.state === 'closed') return;
    const pause = this.mustPause() || this.pendingPayloads.length > 0;
    if (pause && !this.socket.isPaused()) this.socket.pause();
    else if (!pause && this.socket.isPaused()) this.socket.resume();
  }

  private onIdle(): void {
    if (this.state === 'closed') return;
    if (this.queriesInFlight > 0) {
      this.idleTimer.refresh();
      return;
    }
    this.destroy('idle timeout');
  }

  private onSocketClosed(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    clearTimeout(this.idleTimer);
    this.handshakeChunks = [];
    this.pendingPayloads.length = 0;
    this.options.budget.used -= this.accounted;
    this.accounted = 0;
    for (const callback of this.closedCallbacks.splice(0)) callback();
  }
}
