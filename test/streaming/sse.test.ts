import net from 'node:net';
import { ALICE, BOB, CAROL, openSse, startStreamingServer, stateEvent, txEvent, until, type StreamingServer } from './support';
import type { StreamEvent } from '../../src/streaming';

/** POSTs a body to the SSE endpoint and returns the status and JSON (the error answers). */
async function post(url: string, body: string, headers: Record<string, string> = {}) {
  const started = Date.now();
  const response = await fetch(`${url}/api/streaming/v2/sse`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  const text = await response.text();
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = undefined;
  }
  return { status: response.status, json, text, ms: Date.now() - started };
}

describe('SSE wire (eventsource client, real sockets)', () => {
  let server: StreamingServer;
  beforeEach(async () => {
    server = await startStreamingServer(['--stream-keyless-connections', '3', '--stream-keyless-addresses', '5']);
  });
  afterEach(async () => {
    await server.close();
  });

  test('connected frame, then the subscribed events with ordered ids; other accounts filtered out', async () => {
    const client = openSse(server.url, { id: 'req-1', types: ['transactions', 'account_state_change'], addresses: [ALICE.toLowerCase()] });
    await until(() => client.connected() !== undefined, 'connected');
    expect(client.connected()).toEqual({ id: 'req-1', status: 'subscribed' });
    server.source.emit([txEvent(BOB, 'b1'), txEvent(ALICE, 'a1'), stateEvent(ALICE, '42')]);
    server.source.emit([]);
    server.source.emit([txEvent(ALICE, 'a2')]);
    await until(() => client.events.length === 3, 'three events');
    client.source.close();
    expect(client.events.map((e) => e.id)).toEqual(['1:1', '1:2', '3:0']);
    expect(client.events[0]!.data).toEqual({
      type: 'transactions',
      finality: 'finalized',
      trace_external_hash_norm: 'trace-a1',
      transactions: [{ account: ALICE, hash: 'a1' }],
    });
    expect(client.events[1]!.data).toEqual({ type: 'account_state_change', finality: 'finalized', account: ALICE, state: { hash: 'h', balance: '42' } });
  });

  test("toncenter's validations and texts (400), our bounds (413, 422), each quick", async () => {
    const cases: Array<[unknown, number, string]> = [
      [{}, 400, 'types are required for subscription'],
      [{ types: ['blocks'], addresses: [ALICE] }, 400, 'invalid event type: blocks'],
      [{ types: ['trace_invalidated'], addresses: [ALICE] }, 400, 'invalid event type: trace_invalidated'],
      [{ types: ['transactions'], addresses: ['nope'] }, 400, 'invalid address: nope'],
      [{ types: ['transactions'] }, 400, 'addresses are required for subscription'],
      [{ types: ['trace'] }, 400, 'trace_external_hash_norms are required for trace subscription'],
      [{ types: ['transactions'], addresses: [ALICE], trace_external_hash_norms: ['x'] }, 400, 'trace_external_hash_norms requires type "trace"'],
      [{ types: ['trace'], trace_external_hash_norms: [' '] }, 400, 'trace_external_hash_norms contains empty value'],
      [{ types: ['transactions'], addresses: [ALICE], min_finality: 'soon' }, 400, 'invalid subscription request: unknown finality state: soon'],
      [{ types: 'transactions' }, 400, 'invalid subscription request: json: cannot unmarshal string into Go struct field SSERequest.types of type []v2.EventType'],
      [{ types: ['transactions'], addresses: [1] }, 400, 'invalid subscription request: json: cannot unmarshal number into Go struct field SSERequest.addresses of type string'],
      [{ types: ['transactions'], addresses: Array.from({ length: 1025 }, () => ALICE) }, 422, 'too many addresses: 1025 (at most 1024 in one subscription)'],
    ];
    for (const [body, status, error] of cases) {
      const answer = await post(server.url, JSON.stringify(body));
      expect({ body, status: answer.status, error: answer.json?.['error'] }).toEqual({ body, status, error });
    }
    const notJson = await post(server.url, '{"types":');
    expect(notJson.status).toBe(400);
    expect(String(notJson.json?.['error'])).toMatch(/^invalid subscription request: /);
    // 20 001 elements in 60 KB (under the body limit): refused by the pre-scan, not parsed.
    const manyElements = await post(server.url, `{"types":["transactions"],"addresses":[${'1,'.repeat(20_000)}1]}`);
    expect({ status: manyElements.status, error: manyElements.json?.['error'] }).toEqual({
      status: 400,
      error: 'invalid subscription request: JSON has more than 16384 array items and object members',
    });
    // The keyless address limit (5 here): toncenter's text.
    const six = [ALICE, BOB, CAROL, `0:${'D4'.repeat(32)}`, `0:${'E5'.repeat(32)}`, `0:${'F6'.repeat(32)}`];
    expect((await post(server.url, JSON.stringify({ types: ['transactions'], addresses: six }))).json).toEqual({ error: 'too many addresses: 6 > max 5' });
    // 100 000 addresses (~7 MB) and a 10 MB body: refused by the declared length, before a byte is parsed.
    const huge = JSON.stringify({ types: ['transactions'], addresses: Array.from({ length: 100_000 }, () => ALICE) });
    const hugeAnswer = await post(server.url, huge);
    expect(hugeAnswer.status).toBe(413);
    const tenMb = await post(server.url, `{"types":["transactions"],"addresses":["${'x'.repeat(10 * 1024 * 1024)}"]}`);
    expect(tenMb.status).toBe(413);
  });

  test('connections per client are limited (429, toncenter text); a closed stream frees its slot; others unaffected', async () => {
    const subscription = { types: ['transactions'], addresses: [ALICE] };
    const clients = [openSse(server.url, subscription), openSse(server.url, subscription), openSse(server.url, subscription)];
    await until(() => clients.every((c) => c.connected() !== undefined), 'three connected');
    const fourth = await post(server.url, JSON.stringify(subscription));
    expect(fourth.status).toBe(429);
    expect(fourth.json).toEqual({ error: 'connection limit reached: 3 active connections' });
    server.source.emit([txEvent(ALICE, 'a1')]);
    await until(() => clients.every((c) => c.events.length === 1), 'events on the three');
    clients[0]!.source.close();
    await until(() => server.service.connectionCount === 2, 'slot freed');
    const again = openSse(server.url, subscription);
    await until(() => again.connected() !== undefined, 'a new one connects');
    for (const c of [...clients, again]) c.source.close();
  });

  test('resume: Last-Event-ID replays exactly the missed events in order, then live; from the window and from the source', async () => {
    const subscription = { types: ['transactions'], addresses: [ALICE] };
    const first = openSse(server.url, subscription);
    await until(() => first.connected() !== undefined, 'connected');
    server.source.emit([txEvent(ALICE, 'a1')]);
    await until(() => first.events.length === 1, 'first event');
    const lastId = first.events[0]!.id;
    first.source.close();
    await until(() => server.service.connectionCount === 0, 'disconnected');
    server.source.emit([txEvent(ALICE, 'a2'), txEvent(BOB, 'b1')]);
    server.source.emit([txEvent(ALICE, 'a3')]);
    server.source.emit([txEvent(ALICE, 'a4')]);
    const second = openSse(server.url, subscription, { 'Last-Event-ID': lastId });
    await until(() => second.events.length === 3, 'three replayed');
    server.source.emit([txEvent(ALICE, 'a5')]);
    await until(() => second.events.length === 4, 'live after replay');
    const hashes = second.events.map((e) => (e.data['transactions'] as Array<{ hash: string }>)[0]!.hash);
    expect(hashes).toEqual(['a2', 'a3', 'a4', 'a5']);
    expect(second.events.map((e) => e.id)).toEqual(['2:0', '3:0', '4:0', '5:0']);
    second.source.close();
  });

  test('resume from blocks that left the in-memory window: rebuilt by the source, then the window, then live', async () => {
    const narrow = await startStreamingServer([], { window: 1 });
    try {
      narrow.source.emit([txEvent(ALICE, 'a1')]);
      for (let i = 2; i <= 6; i++) narrow.source.emit([txEvent(ALICE, `a${i}`), txEvent(BOB, `b${i}`)]);
      const client = openSse(narrow.url, { types: ['transactions'], addresses: [ALICE] }, { 'Last-Event-ID': '1:0' });
      await until(() => client.events.length === 5, 'five replayed');
      narrow.source.emit([txEvent(ALICE, 'a7')]);
      await until(() => client.events.length === 6, 'then live');
      expect(client.events.map((e) => e.id)).toEqual(['2:0', '3:0', '4:0', '5:0', '6:0', '7:0']);
      client.source.close();
    } finally {
      await narrow.close();
    }
  });

  test('resume errors: not an id (400), older than kept (410 naming the oldest id), newer than any (400)', async () => {
    server.source.emit([txEvent(ALICE, 'a1')]);
    server.source.emit([txEvent(ALICE, 'a2')]);
    server.source.oldest = 2;
    const body = JSON.stringify({ types: ['transactions'], addresses: [ALICE] });
    const bad = await post(server.url, body, { 'Last-Event-ID': 'yesterday' });
    expect(bad.status).toBe(400);
    expect(bad.json?.['error']).toMatch(/^invalid Last-Event-ID/);
    const server2 = await startStreamingServer([], { replay: false, window: 1 });
    try {
      server2.source.emit([txEvent(ALICE, 'a1')]);
      server2.source.emit([txEvent(ALICE, 'a2')]);
      const old = await post(server2.url, body, { 'Last-Event-ID': '1:0' });
      expect(old.status).toBe(410);
      expect(old.json?.['error']).toContain('older than the oldest event kept (2:0)');
    } finally {
      await server2.close();
    }
    const started = Date.now();
    const ahead = await post(server.url, body, { 'Last-Event-ID': '99:0' });
    expect(ahead.status).toBe(400);
    expect(ahead.json?.['error']).toContain('newer than the newest event (2:0)');
    expect(Date.now() - started).toBeGreaterThanOrEqual(4000);
  });

  test('without a replay source the window is bounded in bytes too: a resume inside it gets the rest, one before it is 410 naming the oldest id', async () => {
    const bounded = await startStreamingServer(['--stream-window-bytes', '65536'], { replay: false, window: 10000 });
    try {
      // Each block one event of ~30 KB: 64 KiB hold the newest two blocks.
      const big = (hash: string): StreamEvent => ({
        type: 'transactions',
        finality: 'finalized',
        traceExternalHashNorm: `trace-${hash}`,
        transactions: [{ account: ALICE, addresses: [ALICE], json: JSON.stringify({ account: ALICE, hash, pad: 'x'.repeat(30_000) }) }],
      });
      for (let i = 1; i <= 6; i++) bounded.source.emit([big(`a${i}`)]);
      const body = JSON.stringify({ types: ['transactions'], addresses: [ALICE] });
      const old = await post(bounded.url, body, { 'Last-Event-ID': '4:0' });
      expect(old.status).toBe(410);
      expect(old.json?.['error']).toBe('event id 4:0 is older than the oldest event kept (5:0): resume from there or re-read the gap through /api/v3');
      const client = openSse(bounded.url, { types: ['transactions'], addresses: [ALICE] }, { 'Last-Event-ID': '5:0' });
      await until(() => client.events.length === 1, 'the one event after 5:0');
      expect(client.events.map((e) => e.id)).toEqual(['6:0']);
      client.source.close();
    } finally {
      await bounded.close();
    }
  });

  test('a client that does not read is closed with a reason; the other streams go on', async () => {
    const small = await startStreamingServer(['--stream-queue', '4kb']);
    try {
      // A raw socket that sends the subscription and never reads.
      const stalled = net.connect(Number(new URL(small.url).port), '127.0.0.1');
      const body = JSON.stringify({ types: ['transactions'], addresses: [ALICE] });
      stalled.write(`POST /api/streaming/v2/sse HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
      stalled.pause();
      const healthy = openSse(small.url, { types: ['transactions'], addresses: [ALICE] });
      await until(() => healthy.connected() !== undefined && small.service.connectionCount === 2, 'both connected');
      const big = 'x'.repeat(64 * 1024);
      for (let i = 0; i < 200 && small.service.connectionCount === 2; i++) {
        small.source.emit([{ type: 'transactions', finality: 'finalized', traceExternalHashNorm: `t${i}`, transactions: [{ account: ALICE, addresses: [ALICE], json: JSON.stringify({ big, i }) }] }]);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(small.service.connectionCount).toBe(1);
      const sent = small.source.blocks_.length;
      await until(() => healthy.events.length === sent, 'the healthy client got every event');
      healthy.source.close();
      stalled.destroy();
    } finally {
      await small.close();
    }
  });

  test('shutdown closes every stream with a reason frame naming the last id', async () => {
    const client = openSse(server.url, { types: ['transactions'], addresses: [ALICE] });
    await until(() => client.connected() !== undefined, 'connected');
    server.source.emit([txEvent(ALICE, 'a1')]);
    await until(() => client.events.length === 1, 'event');
    await server.service.close();
    await until(() => client.closedFrames.length === 1, 'closed frame');
    expect(client.closedFrames[0]).toEqual({ error: 'the server is shutting down; reconnect with the last event id', last_event_id: '1:0' });
    client.source.close();
  });
});
