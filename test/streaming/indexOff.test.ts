import WebSocket from 'ws';
import { startLocalStack, type LocalStack } from '../helpers/localStack';

jest.setTimeout(120_000);

const REASON =
  'streaming is not available: its events come from the block index, and this instance runs with --index off (start it with --index on or --database-url)';

/**
 * With --index off the streaming API has no event source: rather than answer `subscribed` and
 * never send an event, it checks the subscription (toncenter's 400s) and then refuses with 503 and
 * the reason, on SSE (POST and GET), WebSocket and healthz, as v3 answers without the index.
 */
describe('streaming with --index off', () => {
  let stack: LocalStack;

  beforeAll(async () => {
    stack = await startLocalStack(['--index', 'off']);
    expect(stack.server.services.index).toBeUndefined();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const post = (body: unknown) =>
    fetch(`${stack.url}/api/streaming/v2/sse`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  test('SSE: a valid subscription is 503 with the reason; an invalid one is still its 400', async () => {
    const address = stack.localnet.wallets.wallets[0]!.address.toString();
    const refused = await post({ types: ['transactions'], addresses: [address] });
    expect(refused.status).toBe(503);
    expect(await refused.json()).toEqual({ error: REASON });
    const bad = await post({ types: ['transactions'] });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'addresses are required for subscription' });
    const viaGet = await fetch(`${stack.url}/api/streaming/v2/sse?types=transactions&addresses=${encodeURIComponent(address)}`);
    expect(viaGet.status).toBe(503);
    expect(await viaGet.json()).toEqual({ error: REASON });
  });

  test('WebSocket: the upgrade is refused with 503 and the reason', async () => {
    const ws = new WebSocket(`${stack.url.replace('http', 'ws')}/api/streaming/v2/ws`);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      ws.on('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      ws.on('open', () => reject(new Error('the upgrade was accepted')));
      ws.on('error', () => undefined);
    });
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.body)).toEqual({ error: REASON });
  });

  test('healthz: 503 naming the reason', async () => {
    const res = await fetch(`${stack.url}/api/streaming/healthz`);
    expect(res.status).toBe(503);
    const body = (await res.json()) as { ok: boolean; components: { 'event-source': { ok: boolean; error: string } } };
    expect(body.ok).toBe(false);
    expect(body.components['event-source']).toMatchObject({ ok: false, error: REASON });
  });
});
