import WebSocket from 'ws';
import { ALICE, BOB, startStreamingServer, txEvent, until, type StreamingServer } from './support';

/** A `ws` client that collects every message as JSON. */
async function connect(url: string, headers: Record<string, string> = {}) {
  const socket = new WebSocket(`${url.replace('http', 'ws')}/api/streaming/v2/ws`, { headers });
  const messages: Record<string, unknown>[] = [];
  let closeCode: number | undefined;
  socket.on('message', (data) => messages.push(JSON.parse(String(data)) as Record<string, unknown>));
  socket.on('close', (code) => {
    closeCode = code;
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const request = async (body: unknown): Promise<Record<string, unknown>> => {
    const before = messages.length;
    socket.send(typeof body === 'string' ? body : JSON.stringify(body));
    await until(() => messages.length > before, 'an answer');
    return messages[before]!;
  };
  return { socket, messages, request, closeCode: () => closeCode };
}

describe('WebSocket wire (ws client, real sockets)', () => {
  let server: StreamingServer;
  beforeEach(async () => {
    server = await startStreamingServer(['--stream-keyless-connections', '2', '--stream-keyless-addresses', '3']);
  });
  afterEach(async () => {
    await server.close();
  });

  test('ping, subscribe (replaces), events with event_id, unsubscribe; errors with toncenter texts', async () => {
    const client = await connect(server.url);
    expect(await client.request({ operation: 'ping', id: 'p1' })).toEqual({ id: 'p1', status: 'pong' });
    expect(await client.request({ operation: 'ping' })).toEqual({ status: 'pong' });
    expect(await client.request('{')).toEqual({ error: expect.stringMatching(/^invalid request envelope: /) });
    // The request bodies' pre-scan bounds hold for messages too, before JSON.parse.
    expect(await client.request(`[${'{},'.repeat(20_000)}{}]`)).toEqual({
      error: 'invalid request envelope: JSON has more than 16384 array items and object members',
    });
    expect(await client.request(`${'['.repeat(2000)}${']'.repeat(2000)}`)).toEqual({
      error: 'invalid request envelope: JSON nesting is deeper than 1024 levels',
    });
    expect(await client.request({ operation: 'dance', id: 'x' })).toEqual({ id: 'x', error: 'unknown operation: dance' });
    expect(await client.request({ operation: 'subscribe', id: 's0' })).toEqual({ id: 's0', error: 'types are required' });
    expect(await client.request({ operation: 'subscribe', types: ['transactions'] })).toEqual({ error: 'addresses are required' });
    expect(await client.request({ operation: 'unsubscribe', id: 'u0' })).toEqual({ id: 'u0', error: 'addresses or trace_external_hash_norms are required' });
    const four = [ALICE, BOB, `0:${'C3'.repeat(32)}`, `0:${'D4'.repeat(32)}`];
    expect(await client.request({ operation: 'subscribe', types: ['transactions'], addresses: four })).toEqual({
      error: 'address limit exceeded: current 0 + new 4 > max 3',
    });
    expect(await client.request({ operation: 'subscribe', id: 's1', types: ['transactions'], addresses: [BOB] })).toEqual({ id: 's1', status: 'subscribed' });
    // subscribe replaces the whole subscription: BOB is no longer in it.
    expect(await client.request({ operation: 'subscribe', id: 's2', types: ['transactions'], addresses: [ALICE] })).toEqual({ id: 's2', status: 'subscribed' });
    server.source.emit([txEvent(BOB, 'b1'), txEvent(ALICE, 'a1')]);
    await until(() => client.messages.some((m) => m['type'] === 'transactions'), 'an event');
    const event = client.messages.find((m) => m['type'] === 'transactions')!;
    expect(event).toEqual({
      type: 'transactions',
      finality: 'finalized',
      trace_external_hash_norm: 'trace-a1',
      transactions: [{ account: ALICE, hash: 'a1' }],
      event_id: '1:1',
    });
    expect(await client.request({ operation: 'unsubscribe', id: 'u1', addresses: [ALICE] })).toEqual({ id: 'u1', status: 'unsubscribed' });
    const count = client.messages.length;
    server.source.emit([txEvent(ALICE, 'a2')]);
    expect(await client.request({ operation: 'ping', id: 'p2' })).toEqual({ id: 'p2', status: 'pong' });
    expect(client.messages.length).toBe(count + 1);
    client.socket.close();
  });

  test('subscribe with `from` replays the missed events in order, then live', async () => {
    const client = await connect(server.url);
    server.source.emit([txEvent(ALICE, 'a1')]);
    server.source.emit([txEvent(ALICE, 'a2'), txEvent(BOB, 'b2')]);
    server.source.emit([txEvent(ALICE, 'a3')]);
    expect(await client.request({ operation: 'subscribe', id: 'r', types: ['transactions'], addresses: [ALICE], from: '1:0' })).toEqual({ id: 'r', status: 'subscribed' });
    await until(() => client.messages.length === 3, 'two replayed');
    server.source.emit([txEvent(ALICE, 'a4')]);
    await until(() => client.messages.length === 4, 'one live');
    expect(client.messages.slice(1).map((m) => m['event_id'])).toEqual(['2:0', '3:0', '4:0']);
    expect(await client.request({ operation: 'subscribe', id: 'old', types: ['transactions'], addresses: [ALICE], from: 'x' })).toEqual({
      id: 'old',
      error: 'invalid from: "x" (an id is <mc seqno>:<index>)',
    });
    client.socket.close();
  });

  test('a connection over the limit gets the error and is closed; a plain GET is 426; shutdown closes with 1001', async () => {
    const a = await connect(server.url);
    const b = await connect(server.url);
    const c = await connect(server.url);
    await until(() => c.closeCode() !== undefined, 'third closed');
    expect(c.messages).toEqual([{ error: 'connection limit reached: 2 active connections' }]);
    expect(c.closeCode()).toBe(1008);
    const plain = await fetch(`${server.url}/api/streaming/v2/ws`);
    expect(plain.status).toBe(426);
    await server.service.close();
    await until(() => a.closeCode() !== undefined && b.closeCode() !== undefined, 'closed by shutdown');
    expect(a.closeCode()).toBe(1001);
    expect(a.messages.at(-1)).toEqual({ error: 'the server is shutting down; reconnect with the last event id', last_event_id: null });
  });
});
