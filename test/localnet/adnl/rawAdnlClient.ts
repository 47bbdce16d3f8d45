/** A minimal ADNL/TCP client over a raw socket, able to send deliberately broken input. */
import { Socket, connect } from 'net';
import { randomBytes } from 'crypto';
import { FrameReader, createClientHandshake, encodeFrame } from '../../../src/adnl';
import { AdnlSessionCiphers } from '../../../src/adnl/handshake';
import { AdnlPayload, adnlMessageQueryCodec, decodeAdnlPayload, encodeTl, tcpPingCodec } from '../../../src/tl';

export class RawAdnlClient {
  readonly socket: Socket;
  private readonly frames = new FrameReader(2 ** 26);
  private ciphers: AdnlSessionCiphers | null = null;
  private readonly received: Buffer[] = [];
  private waiters: (() => void)[] = [];
  readonly closed: Promise<void>;
  private isClosed = false;

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) =>
      socket.once('close', () => {
        this.isClosed = true;
        this.wake();
        resolve();
      }),
    );
    socket.on('data', (chunk: Buffer) => {
      if (!this.ciphers) return;
      for (const payload of this.frames.push(this.ciphers.decrypt.update(chunk))) this.received.push(payload);
      this.wake();
    });
  }

  static async connect(port: number): Promise<RawAdnlClient> {
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    return new RawAdnlClient(socket);
  }

  /** Connects and completes a valid handshake (waits for the server's empty first frame). */
  static async open(port: number, serverPublicKey: Buffer): Promise<RawAdnlClient> {
    const client = await RawAdnlClient.connect(port);
    const handshake = createClientHandshake(serverPublicKey);
    client.useCiphers(handshake);
    client.socket.write(handshake.packet);
    const first = await client.nextPayload();
    if (first.length !== 0) throw new Error('first frame after the handshake must be empty');
    return client;
  }

  get closedNow(): boolean {
    return this.isClosed;
  }

  useCiphers(ciphers: AdnlSessionCiphers): void {
    this.ciphers = ciphers;
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  /** Next frame payload from the server; rejects if the connection closes first. */
  async nextPayload(): Promise<Buffer> {
    for (;;) {
      const payload = this.received.shift();
      if (payload) return payload;
      if (this.isClosed) throw new Error('connection closed');
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  async nextMessage(): Promise<AdnlPayload> {
    return decodeAdnlPayload(await this.nextPayload());
  }

  /** Encrypts already framed bytes with the session stream (for hand-made broken frames). */
  sendEncrypted(plain: Buffer): void {
    if (!this.ciphers) throw new Error('no session');
    this.socket.write(this.ciphers.encrypt.update(plain));
  }

  sendPayload(payload: Buffer): void {
    this.sendEncrypted(encodeFrame(payload));
  }

  sendPing(randomId: string): void {
    this.sendPayload(encodeTl(tcpPingCodec, { kind: 'tcp.ping', randomId }));
  }

  /** Sends an adnl.message.query and returns its query id. */
  sendQuery(query: Buffer, queryId: Buffer = randomBytes(32)): Buffer {
    this.sendPayload(encodeTl(adnlMessageQueryCodec, { kind: 'adnl.message.query', queryId, query }));
    return queryId;
  }

  close(): void {
    this.socket.destroy();
  }
}

/** Polls until the condition holds (connection bookkeeping happens on socket events). */
export async function waitUntil(condition: () => boolean, what: string, limitMs = 5000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > limitMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
