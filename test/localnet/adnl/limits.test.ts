/**
 * The local lite server's memory and connection bounds, driven over raw sockets: a frame header
 * announcing more than the largest legitimate query, a connection holding more than its share,
 * many connections each holding a partial frame (the total cap), clients dripping a frame that
 * never ends (the idle timeout counts whole frames, not bytes), and more connections than
 * allowed. Every time only the offending connection goes; an honest client keeps its answers.
 */
import { randomBytes } from 'crypto';
import { encodeFrame, FRAME_OVERHEAD } from '../../../src/adnl';
import { AdnlServer, LOCAL_MAX_FRAME_SIZE } from '../../../src/localnet/adnlServer/server';
import { createLiteDispatcher } from '../../../src/localnet/liteserver/dispatcher';
import { AdnlMessageAnswer, decodeLiteAnswer, encodeLiteServerQuery, encodeTl, liteServerQueryCodec } from '../../../src/tl';
import { RawAdnlClient, waitUntil } from './rawAdnlClient';

const NOW = 1_700_000_321;
const getTimeQuery = encodeLiteServerQuery({ kind: 'liteServer.getTime' });

function startServer(options: { idleTimeoutMs?: number; maxBufferedBytes?: number; maxConnections?: number } = {}): AdnlServer {
  return new AdnlServer({
    ...options,
    onQuery: createLiteDispatcher({
      handlers: { 'liteServer.getTime': async () => ({ kind: 'liteServer.currentTime', now: NOW }) },
      waitForMasterchainSeqno: async () => true,
    }),
  });
}

async function expectGetTimeWorks(client: RawAdnlClient): Promise<void> {
  const queryId = client.sendQuery(getTimeQuery);
  const answer = (await client.nextMessage()) as AdnlMessageAnswer;
  expect(answer.kind).toBe('adnl.message.answer');
  expect(answer.queryId.equals(queryId)).toBe(true);
  expect(decodeLiteAnswer('liteServer.getTime', answer.answer)).toEqual({ kind: 'liteServer.currentTime', now: NOW });
}

/** The first `bytes` bytes of a frame whose length field says `length` (the rest never comes). */
function partialFrame(length: number, bytes: number): Buffer {
  const frame = Buffer.alloc(bytes);
  frame.writeUInt32LE(length, 0);
  randomBytes(bytes - 4).copy(frame, 4);
  return frame;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('local lite server bounds', () => {
  let server: AdnlServer;
  let port: number;
  let honest: RawAdnlClient;

  // The idle timeout is the real default (60 s) except in the test of the idle timeout itself: a
  // short one closed the clients of the other tests that hold a partial frame on purpose whenever
  // a loaded machine made a test last longer than it (a "small connection closed too").
  async function start(idleTimeoutMs = 60_000): Promise<void> {
    server = startServer({ maxBufferedBytes: 1.5 * 1024 * 1024, maxConnections: 8, idleTimeoutMs });
    ({ port } = await server.listen());
    honest = await RawAdnlClient.open(port, server.publicKey);
  }

  async function stop(): Promise<void> {
    honest.close();
    await server.close();
  }

  beforeEach(() => start());

  afterEach(() => stop());

  it('closes a connection whose frame header announces more than the largest query, at once', async () => {
    const client = await RawAdnlClient.open(port, server.publicKey);
    client.sendEncrypted(partialFrame(LOCAL_MAX_FRAME_SIZE + 1, 8));
    await client.closed;
    await expectGetTimeWorks(honest);
    expect(server.bufferedBytes).toBe(0);
  });

  it('accepts a frame of exactly the largest size, answers it and keeps the connection', async () => {
    const client = await RawAdnlClient.open(port, server.publicKey);
    // The largest payload a frame may carry: a liteServer.query wrapping an unknown function.
    const data = Buffer.alloc(LOCAL_MAX_FRAME_SIZE - FRAME_OVERHEAD - 200, 7);
    client.sendQuery(encodeTl(liteServerQueryCodec, { kind: 'liteServer.query', data }));
    const answer = (await client.nextMessage()) as AdnlMessageAnswer;
    expect(answer.kind).toBe('adnl.message.answer');
    await expectGetTimeWorks(client);
    client.close();
  });

  it('caps the bytes all connections hold: the connection holding the most is closed, the others stay', async () => {
    // The total cap is 1.5 MiB: three clients hold 200 KiB of an unfinished frame each, then a
    // hog sends 1 MiB of one. The hog holds the most when the total goes over, so it goes.
    const small: RawAdnlClient[] = [];
    for (let i = 0; i < 3; i++) {
      const client = await RawAdnlClient.open(port, server.publicKey);
      client.sendEncrypted(partialFrame(LOCAL_MAX_FRAME_SIZE, 200 * 1024));
      small.push(client);
    }
    await waitUntil(() => server.bufferedBytes === 3 * 200 * 1024, 'three partial frames to be buffered');
    const hog = await RawAdnlClient.open(port, server.publicKey);
    hog.sendEncrypted(partialFrame(LOCAL_MAX_FRAME_SIZE, 1024 * 1024));
    await hog.closed;
    expect(small.every((c) => !c.closedNow)).toBe(true);
    expect(server.bufferedBytes).toBe(3 * 200 * 1024);
    // A query from a client holding nothing is answered although the budget is nearly used up.
    await expectGetTimeWorks(honest);
    for (const c of small) c.close();
    await waitUntil(() => server.bufferedBytes === 0, 'the budget to be released by closed connections');
  });

  it('closes clients that drip a frame that never ends once the idle timeout passes, the honest one stays', async () => {
    const IDLE_MS = 2000;
    await stop();
    await start(IDLE_MS);
    const drippers: RawAdnlClient[] = [];
    // No dripper's idle timer can start before this, so none can be closed before IDLE_MS from it.
    const started = Date.now();
    for (let i = 0; i < 4; i++) {
      drippers.push(await RawAdnlClient.open(port, server.publicKey));
      // Handshakes are slow on a loaded machine: the honest client keeps its own timer fresh meanwhile.
      await expectGetTimeWorks(honest);
    }
    const frame = partialFrame(1000, 400);
    let honestAt = Date.now();
    let offset = 0;
    // A byte every 50 ms each: data keeps arriving, no frame ever completes. The upper bound only
    // ends a broken run: the timeout fires late on a loaded machine, never early.
    while (drippers.some((c) => !c.closedNow) && Date.now() - started < 10 * IDLE_MS) {
      for (const c of drippers) if (!c.closedNow) c.sendEncrypted(frame.subarray(offset % frame.length, (offset % frame.length) + 1));
      offset++;
      await sleep(50);
      // The honest client works in the meantime (completed frames refresh its idle timer), by the
      // clock rather than by rounds, so a slow round cannot let its own timer run out.
      if (Date.now() - honestAt >= IDLE_MS / 4) {
        await expectGetTimeWorks(honest);
        honestAt = Date.now();
      }
    }
    expect(drippers.every((c) => c.closedNow)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(IDLE_MS - 50);
    expect(honest.closedNow).toBe(false);
    await expectGetTimeWorks(honest);
  });

  it('closes connections beyond maxConnections as they are accepted, and accepts again once one closes', async () => {
    const open: RawAdnlClient[] = [];
    // honest is one of the 8.
    for (let i = 0; i < 7; i++) open.push(await RawAdnlClient.open(port, server.publicKey));
    expect(server.connectionCount).toBe(8);
    const extra = await RawAdnlClient.connect(port);
    await extra.closed;
    expect(server.refusedConnections).toBe(1);
    for (const c of open) await expectGetTimeWorks(c);
    await expectGetTimeWorks(honest);
    open[0].close();
    await waitUntil(() => server.connectionCount === 7, 'a slot to be freed');
    const again = await RawAdnlClient.open(port, server.publicKey);
    await expectGetTimeWorks(again);
    again.close();
    for (const c of open) c.close();
  });

  it('a closed connection frees what it held', async () => {
    const client = await RawAdnlClient.open(port, server.publicKey);
    client.sendEncrypted(encodeFrame(getTimeQuery).subarray(0, 40));
    await waitUntil(() => server.bufferedBytes === 40, 'the partial frame to be counted');
    client.close();
    await waitUntil(() => server.bufferedBytes === 0, 'the partial frame to be released');
    await expectGetTimeWorks(honest);
  });
});
