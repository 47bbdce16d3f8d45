import { Address, toNano } from '@ton/core';
import { startLocalStack, type LocalStack } from '../helpers/localStack';
import { signedTransfer } from '../helpers/v2Calls';
import { normalizedHash, openWs, sendSigned, transfer, v2 } from './chainClients';
import { openSse, until } from './support';

jest.setTimeout(400_000);

interface TxEventData {
  type: string;
  finality: string;
  transactions: { hash: string; account: string }[];
}

/**
 * With --index off the streaming API follows the verified masterchain head itself (the index
 * pipeline's fetch and checks, nothing stored): live events built as the index's are, resume
 * within the in-memory window, and an id older than the window is the same 410 as an id older
 * than the index's retention.
 */
describe('streaming with --index off: live events from the verified head, resume within the window', () => {
  let stack: LocalStack;
  const recipient = new Address(0, Buffer.alloc(32, 0x6b));
  const raw = `0:${'6B'.repeat(32)}`;

  beforeAll(async () => {
    stack = await startLocalStack(['--index', 'off']);
    expect(stack.server.services.index).toBeUndefined();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  test('healthz names the chain source', async () => {
    await until(() => stack.server.services.streaming!.bus.lastSeqno !== null, 'the first block', 60_000);
    const res = await fetch(`${stack.url}/api/streaming/healthz`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { ok: boolean; components: { 'event-source': { ok: boolean; source: string; last_mc_seqno: number } } };
    expect(body.ok).toBe(true);
    expect(body.components['event-source']).toMatchObject({ ok: true, source: 'chain' });
    expect(body.components['event-source'].last_mc_seqno).toBeGreaterThan(0);
  });

  test('SSE and WebSocket get a transfer: transactions with v2 hashes, the new balance, the whole trace', async () => {
    const sse = openSse(stack.url, { types: ['transactions', 'account_state_change'], addresses: [recipient.toString()] });
    const ws = await openWs(stack);
    const signed = await signedTransfer(stack, recipient, toNano('0.3'), 'index off');
    const hashNorm = normalizedHash(signed.message);
    ws.ws.send(JSON.stringify({ operation: 'subscribe', id: 'w', types: ['transactions', 'trace'], addresses: [recipient.toString()], trace_external_hash_norms: [hashNorm] }));
    await until(() => sse.connected() !== undefined && ws.messages.length > 0, 'both subscribed', 30_000);
    expect(ws.messages[0]).toEqual({ id: 'w', status: 'subscribed' });
    const sent = await sendSigned(stack, signed);
    expect(sent.hash_norm).toBe(hashNorm);
    await until(() => sse.events.some((e) => e.data['type'] === 'transactions') && sse.events.some((e) => e.data['type'] === 'account_state_change'), 'SSE events', 120_000);
    await until(() => ws.messages.some((m) => m['type'] === 'transactions') && ws.messages.some((m) => m['type'] === 'trace'), 'WebSocket events', 120_000);

    const v2Transactions = await v2<{ transaction_id: { hash: string } }[]>(stack, 'getTransactions', { address: recipient.toString(), limit: '10' });
    expect(v2Transactions).toHaveLength(1);
    const sseTx = sse.events.find((e) => e.data['type'] === 'transactions')!;
    const sseData = sseTx.data as unknown as TxEventData;
    expect(sseData.finality).toBe('finalized');
    expect(sseData.transactions.map((t) => t.hash)).toEqual([v2Transactions[0]!.transaction_id.hash]);
    expect(sseData.transactions[0]!.account).toBe(raw);
    expect(sseTx.id).toMatch(/^\d+:\d+$/);
    const state = sse.events.find((e) => e.data['type'] === 'account_state_change')!.data as { account: string; state: { balance: string } };
    expect(state.account).toBe(raw);
    expect(state.state.balance).toBe(await v2<string>(stack, 'getAddressBalance', { address: recipient.toString() }));

    const wsTx = ws.messages.find((m) => m['type'] === 'transactions') as unknown as TxEventData & { event_id: string };
    expect(wsTx.transactions.map((t) => t.hash)).toEqual(sseData.transactions.map((t) => t.hash));
    expect(wsTx.event_id).toBe(sseTx.id);
    // The trace, assembled from the blocks held in memory: the wallet's transaction of the external message, its child the recipient's.
    const trace = ws.messages.find((m) => m['type'] === 'trace') as unknown as {
      trace_external_hash_norm: string;
      trace: { tx_hash: string; in_msg_hash: string; children: { tx_hash: string }[] };
    };
    expect(trace.trace_external_hash_norm).toBe(hashNorm);
    expect(trace.trace.in_msg_hash).toBe(sent.hash);
    expect(trace.trace.children.map((c) => c.tx_hash)).toEqual([v2Transactions[0]!.transaction_id.hash]);
    sse.source.close();
    ws.ws.close();
  });

  test('resume with Last-Event-ID gets exactly the missed events, in order, then live ones; WS `from` the same', async () => {
    const subscription = { types: ['transactions'], addresses: [recipient.toString()] };
    const first = openSse(stack.url, subscription);
    await until(() => first.connected() !== undefined, 'connected', 30_000);
    await transfer(stack, recipient, toNano('0.01'));
    await until(() => first.events.length > 0, 'the event before the disconnect', 120_000);
    const lastId = first.events.at(-1)!.id;
    first.source.close();

    for (let i = 0; i < 3; i++) await transfer(stack, recipient, toNano('0.01'));
    const missed = (await v2<{ transaction_id: { hash: string } }[]>(stack, 'getTransactions', { address: recipient.toString(), limit: '3' }))
      .map((t) => t.transaction_id.hash)
      .reverse();

    const resumed = openSse(stack.url, subscription, { 'last-event-id': lastId });
    await until(() => resumed.events.length >= 3, 'the three missed events', 60_000);
    expect(resumed.events.map((e) => (e.data as unknown as TxEventData).transactions.map((t) => t.hash))).toEqual(missed.map((hash) => [hash]));
    const ids = resumed.events.map((e) => e.id);
    // Ids order the events: each after the one before, the first after the id resumed from.
    const order = (id: string) => id.split(':').map(Number) as [number, number];
    [lastId, ...ids].reduce((before, id) => {
      const [a, b] = [order(before), order(id)];
      expect(b[0] > a[0] || (b[0] === a[0] && b[1] > a[1])).toBe(true);
      return id;
    });

    const ws = await openWs(stack);
    ws.ws.send(JSON.stringify({ operation: 'subscribe', id: 'r', ...subscription, from: lastId }));
    await until(() => ws.messages.filter((m) => m['type'] === 'transactions').length >= 3, 'WS replay', 60_000);
    const replayed = ws.messages.filter((m) => m['type'] === 'transactions') as unknown as (TxEventData & { event_id: string })[];
    expect(replayed.map((m) => m.event_id)).toEqual(ids);

    // Then live: the next transfer reaches both, once.
    await transfer(stack, recipient, toNano('0.01'));
    await until(() => resumed.events.length >= 4 && ws.messages.filter((m) => m['type'] === 'transactions').length >= 4, 'the live event', 120_000);
    const latest = (await v2<{ transaction_id: { hash: string } }[]>(stack, 'getTransactions', { address: recipient.toString(), limit: '1' }))[0]!.transaction_id.hash;
    expect((resumed.events[3]!.data as unknown as TxEventData).transactions.map((t) => t.hash)).toEqual([latest]);
    expect(resumed.events).toHaveLength(4);
    resumed.source.close();
    ws.ws.close();
  });

  test('an id older than the window is 410 naming the oldest id held (SSE), the same text over WebSocket', async () => {
    const oldest = stack.server.services.streaming!.bus.lastSeqno;
    expect(oldest).not.toBeNull();
    // The window begins where the source began (the head at the start): any id before it is gone.
    const res = await fetch(`${stack.url}/api/streaming/v2/sse`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Last-Event-ID': '0:0' },
      body: JSON.stringify({ types: ['transactions'], addresses: [recipient.toString()] }),
    });
    expect(res.status).toBe(410);
    const { error } = (await res.json()) as { error: string };
    const match = /^event id 0:0 is older than the oldest event kept \((\d+):0\): resume from there or re-read the gap through \/api\/v3$/.exec(error);
    expect(match).not.toBeNull();
    const named = Number(match![1]);
    expect(named).toBeGreaterThan(0);
    expect(named).toBeLessThanOrEqual(oldest!);

    const ws = await openWs(stack);
    ws.ws.send(JSON.stringify({ operation: 'subscribe', id: 'o', types: ['transactions'], addresses: [recipient.toString()], from: '0:0' }));
    await until(() => ws.messages.length > 0, 'the answer', 30_000);
    expect(ws.messages[0]).toEqual({ id: 'o', error });
    ws.ws.close();
  });
});
