import { createServer, Agent, request, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { boundedTurns } from '../../src/intake/turns';

/**
 * Request handlers in bounded turns of the event loop (src/intake/turns.ts): a busy turn leaves
 * requests for the next turns, in arrival order, and a server kept busy by keep-alive clients
 * still accepts new connections (libuv accepts one per poll, so long turns starve them).
 */

const HANDLER_MS = 1;
const BUDGET_MS = 2;
const BUSY_CLIENTS = 60;
const NEW_CLIENTS = 150;

function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

interface Harness {
  server: Server;
  port: number;
  /** Requests handled so far, and the event-loop turn each was handled in. */
  handled: { id: string; turn: number }[];
  /** Request ids in the order Node parsed them. */
  arrived: string[];
  close(): Promise<void>;
}

async function startServer(): Promise<Harness> {
  const handled: { id: string; turn: number }[] = [];
  const arrived: string[] = [];
  let turn = 0;
  let running = true;
  const count = () => {
    turn++;
    if (running) setImmediate(count);
  };
  setImmediate(count);
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    busy(HANDLER_MS);
    handled.push({ id: String(req.headers['x-id']), turn });
    res.end('ok');
  };
  const server = createServer({ keepAliveTimeout: 60_000 }, boundedTurns(handler, BUDGET_MS));
  // Runs before the bounded listener: the order in which requests arrive.
  server.prependListener('request', (req: IncomingMessage) => arrived.push(String(req.headers['x-id'])));
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, resolve));
  return {
    server,
    port: (server.address() as AddressInfo).port,
    handled,
    arrived,
    close: () =>
      new Promise<void>((resolve) => {
        running = false;
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function get(port: number, id: string, agent: Agent | false): Promise<void> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path: '/', agent, headers: { 'x-id': id } }, (res) => {
      res.resume();
      res.on('end', () => resolve());
    })
      .on('error', reject)
      .end();
  });
}

test('a busy turn leaves requests for later turns; every request is handled, in arrival order', async () => {
  const harness = await startServer();
  const agent = new Agent({ keepAlive: true, maxSockets: 40 });
  try {
    // 40 connections open first (accepting them takes turns of its own), then 40 requests at once.
    await Promise.all(Array.from({ length: 40 }, (_, i) => get(harness.port, `warm${i}`, agent)));
    harness.handled.length = 0;
    harness.arrived.length = 0;
    await Promise.all(Array.from({ length: 40 }, (_, i) => get(harness.port, `r${i}`, agent)));
    expect(harness.handled).toHaveLength(40);
    expect(harness.handled.map((h) => h.id)).toEqual(harness.arrived);
    // 40 ms of handlers at most ~2 ms a phase: spread over many turns, none holding more than the
    // budget allows in its poll and its check phase (each may overshoot by one handler).
    const perTurn = new Map<number, number>();
    for (const { turn } of harness.handled) perTurn.set(turn, (perTurn.get(turn) ?? 0) + 1);
    expect(perTurn.size).toBeGreaterThanOrEqual(8);
    expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(2 * (BUDGET_MS / HANDLER_MS + 1));
  } finally {
    agent.destroy();
    await harness.close();
  }
}, 30_000);

test('a server kept busy by keep-alive clients accepts a burst of new connections within a few rounds', async () => {
  const harness = await startServer();
  const agent = new Agent({ keepAlive: true, maxSockets: BUSY_CLIENTS });
  let stop = false;
  const loops = Array.from({ length: BUSY_CLIENTS }, async (_, i) => {
    for (let n = 0; !stop; n++) await get(harness.port, `busy${i}.${n}`, agent);
  });
  try {
    while (harness.handled.length < 200) await new Promise((resolve) => setTimeout(resolve, 5));
    const start = harness.handled.length;
    // New clients connect at once and send one request each; each records how many requests the
    // server had handled when it got its answer.
    const answeredAfter = await Promise.all(
      Array.from(
        { length: NEW_CLIENTS },
        (_, i) =>
          new Promise<number>((resolve, reject) => {
            const socket = connect(harness.port, '127.0.0.1', () => socket.write(`GET / HTTP/1.1\r\nHost: x\r\nx-id: new${i}\r\n\r\n`));
            socket.on('data', () => {
              resolve(harness.handled.length - start);
              socket.destroy();
            });
            socket.on('error', reject);
          }),
      ),
    );
    // Without bounded turns each accept waits for a whole round of the busy clients (the last new
    // client was answered after 5 400 requests here); with them, a round is a few handlers long
    // (~400 here).
    expect(Math.max(...answeredAfter)).toBeLessThan(3000);
  } finally {
    stop = true;
    await Promise.all(loops).catch(() => undefined);
    agent.destroy();
    await harness.close();
  }
}, 60_000);
