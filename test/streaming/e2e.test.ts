import { Address, toNano } from '@ton/core';
import { signedTransfer } from '../helpers/v2Calls';
import type { TestDatabase } from '../helpers/indexDatabases';
import type { LocalStack } from '../helpers/localStack';
import { startIndexedStack } from './indexedStack';
import { normalizedHash, openWs, sendSigned, transfer, v2 } from './chainClients';
import { openSse, until } from './support';

jest.setTimeout(400_000);

interface TraceMessage {
  event_id: string;
  finality: string;
  trace_external_hash_norm: string;
  trace: { tx_hash: string; in_msg_hash: string; children: { tx_hash: string }[] };
  transactions: Record<string, { account: string }>;
}

const byId = (a: unknown, b: unknown) => String((a as { action_id: string }).action_id).localeCompare(String((b as { action_id: string }).action_id));

describe('streaming on the embedded chain (index on PostgreSQL): real transfers, real clients', () => {
  let stack: LocalStack;
  let db: TestDatabase;
  const recipient = new Address(0, Buffer.alloc(32, 0x5a));
  const raw = `0:${'5A'.repeat(32)}`;

  beforeAll(async () => {
    ({ stack, db } = await startIndexedStack());
  });
  afterAll(async () => {
    await stack?.stop();
    await db?.drop();
  });

  test('transactions event with the hashes v2 lists; account_state_change with the new balance', async () => {
    const sse = openSse(stack.url, { types: ['transactions', 'account_state_change'], addresses: [recipient.toString()] });
    await until(() => sse.connected() !== undefined, 'connected', 30_000);
    const sent = await transfer(stack, recipient, toNano('0.5'));
    await until(() => sse.events.some((e) => e.data['type'] === 'transactions') && sse.events.some((e) => e.data['type'] === 'account_state_change'), 'events', 120_000);
    const txEvent = sse.events.find((e) => e.data['type'] === 'transactions')!.data as { finality: string; transactions: { hash: string; account: string }[] };
    expect(txEvent.finality).toBe('finalized');
    const v2Transactions = await v2<{ transaction_id: { hash: string } }[]>(stack, 'getTransactions', { address: recipient.toString(), limit: '10' });
    expect(txEvent.transactions.map((t) => t.hash)).toEqual(v2Transactions.map((t) => t.transaction_id.hash));
    expect(txEvent.transactions.every((t) => t.account === raw)).toBe(true);
    const stateEvent = sse.events.find((e) => e.data['type'] === 'account_state_change')!.data as { account: string; state: { balance: string } };
    expect(stateEvent.account).toBe(raw);
    expect(stateEvent.state.balance).toBe(await v2<string>(stack, 'getAddressBalance', { address: recipient.toString() }));
    sse.source.close();
    expect(sent.hash).toBeTruthy();
  });

  // A client subscribes to its message's normalized hash before sending it (it can compute it),
  // then gets the whole trace once complete. (This case once subscribed after the send with `from`
  // set to the bus's newest id before it, which is null while the chain has had no transaction
  // yet: the subscription was then live only, began after the trace, and waited forever.)
  test('trace by sendBocReturnHash hash_norm, live, then replayed with `from`', async () => {
    const signed = await signedTransfer(stack, recipient, toNano('0.1'), 'streaming e2e');
    const hashNorm = normalizedHash(signed.message);
    const live = await openWs(stack);
    live.ws.send(JSON.stringify({ operation: 'subscribe', id: '1', types: ['trace'], trace_external_hash_norms: [hashNorm] }));
    await until(() => live.messages.length > 0, 'subscribed', 30_000);
    expect(live.messages[0]).toEqual({ id: '1', status: 'subscribed' });
    const sent = await sendSigned(stack, signed);
    expect(sent.hash_norm).toBe(hashNorm);
    await until(() => live.messages.some((m) => m['type'] === 'trace'), 'trace event', 120_000);
    const traces = live.messages.filter((m) => m['type'] === 'trace') as unknown as TraceMessage[];
    expect(traces).toHaveLength(1);
    const trace = traces[0]!;
    expect(trace.finality).toBe('finalized');
    expect(trace.trace_external_hash_norm).toBe(hashNorm);
    // The root is the wallet's transaction of the external message, its one child the recipient's.
    expect(trace.trace.in_msg_hash).toBe(sent.hash);
    expect(trace.trace.children).toHaveLength(1);
    const child = trace.trace.children[0]!.tx_hash;
    expect(trace.transactions[child]!.account).toBe(raw);
    expect(Object.keys(trace.transactions).sort()).toEqual([trace.trace.tx_hash, child].sort());
    const v2Transactions = await v2<{ transaction_id: { hash: string } }[]>(stack, 'getTransactions', { address: recipient.toString(), limit: '1' });
    expect(child).toBe(v2Transactions[0]!.transaction_id.hash);
    live.ws.close();

    // The same event again: resume from the id just before it (the trace event follows its block's
    // transactions event, so its index is at least 1).
    const [seqno, index] = trace.event_id.split(':').map(Number) as [number, number];
    expect(index).toBeGreaterThan(0);
    const replay = await openWs(stack);
    replay.ws.send(JSON.stringify({ operation: 'subscribe', id: '2', types: ['trace'], trace_external_hash_norms: [hashNorm], from: `${seqno}:${index - 1}` }));
    await until(() => replay.messages.some((m) => m['type'] === 'trace'), 'replayed trace event', 60_000);
    expect(replay.messages[0]).toEqual({ id: '2', status: 'subscribed' });
    expect(replay.messages[1]).toEqual(trace);
    replay.ws.close();
  });

  // Actions carry their accounts (ton-streaming-go matches subscriptions on them), as v3 answers with include_accounts.
  test('actions: the transfer as a ton_transfer action, as /api/v3/actions answers it', async () => {
    const sse = openSse(stack.url, { types: ['actions'], addresses: [recipient.toString()] });
    await until(() => sse.connected() !== undefined, 'connected', 30_000);
    const sent = await transfer(stack, recipient, toNano('0.05'));
    await until(() => sse.events.length > 0, 'actions event', 120_000);
    const event = sse.events[0]!.data as { type: string; finality: string; trace_external_hash_norm: string; actions: { type: string; trace_id: string; accounts: string[]; details: Record<string, unknown> }[] };
    expect(event.type).toBe('actions');
    expect(event.finality).toBe('finalized');
    expect(event.trace_external_hash_norm).toBe(sent.hash_norm);
    const transferAction = event.actions.find((a) => a.type === 'ton_transfer')!;
    expect(transferAction.accounts).toContain(raw);
    expect(transferAction.details).toMatchObject({ destination: raw, value: toNano('0.05').toString() });
    const v3 = (await (await fetch(`${stack.url}/api/v3/actions?trace_id=${encodeURIComponent(transferAction.trace_id)}&include_accounts=true`)).json()) as { actions: unknown[] };
    expect([...event.actions].sort(byId)).toEqual([...v3.actions].sort(byId));
    sse.source.close();
  });

  test('resume: disconnect, three transfers, reconnect with the last id: exactly those three in order, then live', async () => {
    const subscription = { types: ['transactions'], addresses: [raw] };
    const first = openSse(stack.url, subscription);
    await until(() => first.connected() !== undefined, 'connected', 30_000);
    await transfer(stack, recipient, toNano('0.01'));
    await until(() => first.events.length === 1, 'first event', 120_000);
    const lastId = first.events[0]!.id;
    first.source.close();
    for (let i = 0; i < 3; i++) await transfer(stack, recipient, toNano('0.02'));
    const second = openSse(stack.url, subscription, { 'Last-Event-ID': lastId });
    await until(() => second.events.length === 3, 'three replayed', 120_000);
    await transfer(stack, recipient, toNano('0.03'));
    await until(() => second.events.length === 4, 'one live', 120_000);
    const v2Transactions = await v2<{ transaction_id: { hash: string } }[]>(stack, 'getTransactions', { address: recipient.toString(), limit: '4' });
    const streamed = second.events.map((e) => (e.data['transactions'] as { hash: string }[])[0]!.hash);
    expect(streamed).toEqual(v2Transactions.map((t) => t.transaction_id.hash).reverse());
    const ids = second.events.map((e) => e.id.split(':').map(Number) as [number, number]);
    for (let i = 1; i < ids.length; i++) expect(ids[i]![0] > ids[i - 1]![0] || (ids[i]![0] === ids[i - 1]![0] && ids[i]![1] > ids[i - 1]![1])).toBe(true);
    second.source.close();
  });
});
