import { randomBytes } from 'crypto';
import { createAdnlKeyPair, createClientHandshake, encodeFrame } from '../../../src/adnl';
import { AdnlServer } from '../../../src/localnet/adnlServer';
import { createLiteDispatcher } from '../../../src/localnet/liteserver/dispatcher';
import {
  AdnlMessageAnswer,
  decodeLiteAnswer,
  decodeLiteServerErrorIfAny,
  encodeLiteServerQuery,
  encodeTl,
  liteServerQueryCodec,
} from '../../../src/tl';
import { RawAdnlClient, waitUntil } from './rawAdnlClient';

const NOW = 1_700_000_123;
const getTimeQuery = encodeLiteServerQuery({ kind: 'liteServer.getTime' });

function startServer(options: { idleTimeoutMs?: number; maxQueriesInFlight?: number } = {}): AdnlServer {
  return new AdnlServer({
    ...options,
    seed: Buffer.alloc(32, 0x42),
    onQuery: createLiteDispatcher({
      handlers: { 'liteServer.getTime': async () => ({ kind: 'liteServer.currentTime', now: NOW }) },
      waitForMasterchainSeqno: async () => true,
    }),
  });
}

async function expectGetTimeWorks(client: RawAdnlClient): Promise<void> {
  const queryId = client.sendQuery(getTimeQuery);
  const message = await client.nextMessage();
  expect(message.kind).toBe('adnl.message.answer');
  const answer = message as AdnlMessageAnswer;
  expect(answer.queryId.equals(queryId)).toBe(true);
  expect(decodeLiteAnswer('liteServer.getTime', answer.answer)).toEqual({ kind: 'liteServer.currentTime', now: NOW });
}

describe('ADNL server on raw sockets', () => {
  let server: AdnlServer;
  let port: number;
  let healthy: RawAdnlClient;

  beforeAll(async () => {
    server = startServer();
    ({ port } = await server.listen());
    healthy = await RawAdnlClient.open(port, server.publicKey);
  });

  afterAll(async () => {
    healthy.close();
    await server.close();
  });

  afterEach(async () => {
    // Whatever the bad client did, the healthy connection goes on.
    await expectGetTimeWorks(healthy);
    await waitUntil(() => server.connectionCount === 1, 'only the healthy connection to remain');
  });

  it('derives the key id from the seed and answers tcp.ping with the same id', async () => {
    expect(server.publicKey.equals(createAdnlKeyPair(Buffer.alloc(32, 0x42)).publicKey)).toBe(true);
    const client = await RawAdnlClient.open(port, server.publicKey);
    client.sendPing('-8446744073709551616');
    client.sendPing('12345');
    expect(await client.nextMessage()).toEqual({ kind: 'tcp.pong', randomId: '-8446744073709551616' });
    expect(await client.nextMessage()).toEqual({ kind: 'tcp.pong', randomId: '12345' });
    await expectGetTimeWorks(client);
    client.close();
  });

  it('ignores empty keep-alive frames', async () => {
    const client = await RawAdnlClient.open(port, server.publicKey);
    client.sendPayload(Buffer.alloc(0));
    client.sendPing('1');
    expect(await client.nextMessage()).toEqual({ kind: 'tcp.pong', randomId: '1' });
    client.close();
  });

  it('accepts a handshake split into small pieces and followed by data in the same write', async () => {
    const client = await RawAdnlClient.connect(port);
    const handshake = createClientHandshake(server.publicKey);
    client.useCiphers(handshake);
    const ping = handshake.encrypt.update(
      encodeFrame(
        encodeTl(
          {
            read: () => null,
            write: (w, _v: null) => {
              w.uint32(0x4d082b9a);
              w.int64('77');
            },
          },
          null,
        ),
      ),
    );
    const all = Buffer.concat([handshake.packet, ping]);
    for (let offset = 0; offset < all.length; offset += 50) {
      client.socket.write(all.subarray(offset, offset + 50));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect((await client.nextPayload()).length).toBe(0);
    expect(await client.nextMessage()).toEqual({ kind: 'tcp.pong', randomId: '77' });
    client.close();
  });

  it('closes a handshake addressed to another key id', async () => {
    const otherKey = createAdnlKeyPair();
    const client = await RawAdnlClient.connect(port);
    client.socket.write(createClientHandshake(otherKey.publicKey).packet);
    await client.closed;
  });

  it('closes a handshake whose params checksum does not match', async () => {
    const client = await RawAdnlClient.connect(port);
    const { packet } = createClientHandshake(server.publicKey);
    packet[70] ^= 0x01;
    client.socket.write(packet);
    await client.closed;
  });

  it('closes a handshake whose encrypted params were altered', async () => {
    const client = await RawAdnlClient.connect(port);
    const { packet } = createClientHandshake(server.publicKey);
    packet[200] ^= 0x80;
    client.socket.write(packet);
    await client.closed;
  });

  it('closes a connection sending a frame with a bad sha256', async () => {
    const client = await RawAdnlClient.open(port, server.publicKey);
    const frame = encodeFrame(getTimeQuery);
    frame[frame.length - 1] ^= 0xff;
    client.sendEncrypted(frame);
    await client.closed;
  });

  it('closes a connection announcing a frame larger than 2^24 without waiting for its body', async () => {
    const client = await RawAdnlClient.open(port, server.publicKey);
    const header = Buffer.alloc(4);
    header.writeUInt32LE(2 ** 24 + 1, 0);
    client.sendEncrypted(header);
    await client.closed;
  });

  it('closes a connection announcing a frame shorter than nonce + hash', async () => {
    const client = await RawAdnlClient.open(port, server.publicKey);
    const header = Buffer.alloc(4);
    header.writeUInt32LE(63, 0);
    client.sendEncrypted(header);
    await client.closed;
  });

  it('closes a connection whose valid frame carries garbage TL', async () => {
    const client = await RawAdnlClient.open(port, server.publicKey);
    client.sendPayload(randomBytes(40));
    await client.closed;
  });

  it('closes a connection whose adnl.message.query is truncated', async () => {
    const client = await RawAdnlClient.open(port, server.publicKey);
    const payload = encodeTl(liteServerQueryCodec, { kind: 'liteServer.query', data: Buffer.alloc(8) });
    const query = Buffer.concat([Buffer.from('7af98bb4', 'hex'), randomBytes(32), payload]);
    client.sendPayload(query.subarray(0, 30));
    await client.closed;
  });

  it('answers liteServer.error when the query inside a valid message is not a lite query, and stays open', async () => {
    const client = await RawAdnlClient.open(port, server.publicKey);
    const queryId = client.sendQuery(randomBytes(24));
    const message = (await client.nextMessage()) as AdnlMessageAnswer;
    expect(message.queryId.equals(queryId)).toBe(true);
    const error = decodeLiteServerErrorIfAny(message.answer);
    expect(error?.code).toBe(621);
    expect(error?.message).toMatch(/^cannot parse query: expected liteServer.query/);

    client.sendQuery(encodeTl(liteServerQueryCodec, { kind: 'liteServer.query', data: Buffer.from('deadbeef', 'hex') }));
    const unknown = (await client.nextMessage()) as AdnlMessageAnswer;
    expect(decodeLiteServerErrorIfAny(unknown.answer)).toEqual({ kind: 'liteServer.error', code: 621, message: 'unknown query' });
    await expectGetTimeWorks(client);
    client.close();
  });

  it('closes a client that sends answers instead of queries', async () => {
    const client = await RawAdnlClient.open(port, server.publicKey);
    client.sendPayload(
      encodeTl(
        {
          read: () => null,
          write: (w, _v: null) => {
            w.uint32(0x0fac8416);
            w.int256(Buffer.alloc(32));
            w.bytes(Buffer.alloc(0));
          },
        },
        null,
      ),
    );
    await client.closed;
  });

  it('survives a client that resets mid-frame', async () => {
    const client = await RawAdnlClient.open(port, server.publicKey);
    client.sendEncrypted(encodeFrame(getTimeQuery).subarray(0, 50));
    client.socket.resetAndDestroy();
    await client.closed;
  });
});

describe('ADNL server timeouts and flow control', () => {
  it('closes a connection that stops after half a handshake once the idle timeout passes', async () => {
    // The idle timer also runs during the healthy client's handshake: 200 ms closed it on a loaded
    // machine; 1.5 s leaves time for it.
    const server = startServer({ idleTimeoutMs: 1500 });
    const { port } = await server.listen();
    try {
      const silent = await RawAdnlClient.connect(port);
      silent.socket.write(createClientHandshake(server.publicKey).packet.subarray(0, 100));
      await silent.closed;
      const healthy = await RawAdnlClient.open(port, server.publicKey);
      await expectGetTimeWorks(healthy);
      healthy.close();
    } finally {
      await server.close();
    }
  });

  it('does not close an idle connection while one of its queries is still running', async () => {
    let release: () => void = () => undefined;
    // The idle timer also runs during the handshake: 1.5 s leaves a loaded machine time for it
    // (500 ms did not at a load of 20).
    const IDLE_MS = 1500;
    const server = new AdnlServer({
      idleTimeoutMs: IDLE_MS,
      onQuery: async () => {
        await new Promise<void>((resolve) => (release = resolve));
        return Buffer.from('answer..');
      },
    });
    const { port } = await server.listen();
    try {
      const client = await RawAdnlClient.open(port, server.publicKey);
      const queryId = client.sendQuery(Buffer.from('query...'));
      // Twice the idle timeout with nothing on the wire: the running query keeps it open.
      await new Promise((resolve) => setTimeout(resolve, 2 * IDLE_MS));
      expect(client.closedNow).toBe(false);
      release();
      const answer = (await client.nextMessage()) as AdnlMessageAnswer;
      expect(answer.queryId.equals(queryId)).toBe(true);
      expect(answer.answer.toString()).toBe('answer..');
      await client.closed; // and once idle again, it is closed
    } finally {
      await server.close();
    }
  });

  it('never runs more queries of one connection at once than maxQueriesInFlight, and answers them all', async () => {
    const limit = 4;
    let running = 0;
    let maxRunning = 0;
    const server = new AdnlServer({
      maxQueriesInFlight: limit,
      onQuery: async (query) => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
        return Buffer.concat([Buffer.from('re:'), query]);
      },
    });
    const { port } = await server.listen();
    try {
      const client = await RawAdnlClient.open(port, server.publicKey);
      // One write with 40 frames: they arrive together, yet must be started at most `limit` at a time.
      const ids: Buffer[] = [];
      const frames: Buffer[] = [];
      for (let i = 0; i < 40; i++) {
        const queryId = randomBytes(32);
        ids.push(queryId);
        frames.push(
          encodeFrame(
            encodeTl(
              {
                read: () => null,
                write: (w, _v: null) => {
                  w.uint32(0xb48bf97a);
                  w.int256(queryId);
                  w.bytes(Buffer.from(`q${i}`));
                },
              },
              null,
            ),
          ),
        );
      }
      client.sendEncrypted(Buffer.concat(frames));
      const answers = new Map<string, string>();
      for (let i = 0; i < 40; i++) {
        const answer = (await client.nextMessage()) as AdnlMessageAnswer;
        answers.set(answer.queryId.toString('hex'), answer.answer.toString());
      }
      expect(maxRunning).toBe(limit);
      ids.forEach((id, i) => expect(answers.get(id.toString('hex'))).toBe(`re:q${i}`));
      client.close();
    } finally {
      await server.close();
    }
  });

  it('delivers large answers intact to a client that reads slowly', async () => {
    const big = (i: number): Buffer => Buffer.alloc(3 * 1024 * 1024, i);
    const server = new AdnlServer({ onQuery: async (query) => big(query[0]) });
    const { port } = await server.listen();
    try {
      const client = await RawAdnlClient.open(port, server.publicKey);
      client.socket.pause();
      for (let i = 1; i <= 6; i++) client.sendQuery(Buffer.from([i]));
      await new Promise((resolve) => setTimeout(resolve, 200));
      client.socket.resume();
      const received: number[] = [];
      for (let i = 1; i <= 6; i++) {
        const answer = (await client.nextMessage()) as AdnlMessageAnswer;
        expect(answer.answer.length).toBe(3 * 1024 * 1024);
        expect(answer.answer.every((byte) => byte === answer.answer[0])).toBe(true);
        received.push(answer.answer[0]);
      }
      expect(received.sort()).toEqual([1, 2, 3, 4, 5, 6]);
      client.close();
    } finally {
      await server.close();
    }
  });

  it('close() ends every connection and the listener', async () => {
    const server = startServer();
    const { port } = await server.listen();
    const a = await RawAdnlClient.open(port, server.publicKey);
    const b = await RawAdnlClient.open(port, server.publicKey);
    expect(server.connectionCount).toBe(2);
    await server.close();
    await Promise.all([a.closed, b.closed]);
    expect(server.connectionCount).toBe(0);
    await expect(RawAdnlClient.connect(port)).rejects.toThrow(/ECONNREFUSED/);
  });
});
