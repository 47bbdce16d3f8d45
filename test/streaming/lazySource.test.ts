import { ALICE, openSse, startStreamingServer, txEvent, until } from './support';

/**
 * The index thread's follower starts at the first streaming request (server.ts passes
 * `startSource`), and its first block, the newest committed one, is the bus's point of reference
 * for resumes, not news: a client that connected before it arrived does not get it.
 */
describe('the event source starts at the first streaming request', () => {
  test('not at start; once, at the first request (healthz, SSE), however many follow', async () => {
    let started = 0;
    const server = await startStreamingServer([], { startSource: () => started++ });
    try {
      expect(started).toBe(0);
      await (await fetch(`${server.url}/api/v2/healthcheck`)).text();
      expect(started).toBe(0);
      await (await fetch(`${server.url}/api/streaming/healthz`)).text();
      expect(started).toBe(1);
      const client = openSse(server.url, { types: ['transactions'], addresses: [ALICE] });
      await until(() => client.connected() !== undefined, 'connected');
      client.source.close();
      expect(started).toBe(1);
    } finally {
      await server.close();
    }
  });

  test('an SSE request starts it too', async () => {
    let started = 0;
    const server = await startStreamingServer([], { startSource: () => started++ });
    try {
      const client = openSse(server.url, { types: ['transactions'], addresses: [ALICE] });
      await until(() => client.connected() !== undefined, 'connected');
      client.source.close();
      expect(started).toBe(1);
    } finally {
      await server.close();
    }
  });

  test('the reference block is kept for resumes but delivered to no live connection', async () => {
    const server = await startStreamingServer();
    try {
      const live = openSse(server.url, { types: ['transactions'], addresses: [ALICE] });
      await until(() => live.connected() !== undefined, 'connected');
      server.service.publish({ mcSeqno: 7, committedAt: Date.now(), events: [txEvent(ALICE, 'old1'), txEvent(ALICE, 'old2')], reference: true });
      server.service.publish({ mcSeqno: 8, committedAt: Date.now(), events: [txEvent(ALICE, 'new')] });
      await until(() => live.events.length === 1, 'the next block');
      expect(live.events.map((e) => e.id)).toEqual(['8:0']);
      expect(server.service.bus.lastSeqno).toBe(8);
      // Resumable from inside the reference block: its later events, then the next block's.
      const resumed = openSse(server.url, { types: ['transactions'], addresses: [ALICE] }, { 'Last-Event-ID': '7:0' });
      await until(() => resumed.events.length === 2, 'replayed');
      expect(resumed.events.map((e) => e.id)).toEqual(['7:1', '8:0']);
      live.source.close();
      resumed.source.close();
    } finally {
      await server.close();
    }
  });
});
