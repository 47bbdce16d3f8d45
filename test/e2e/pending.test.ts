import { Address, toNano } from '@ton/core';
import { normalizeExternalMessage } from '../../src/converters';
import type { TestDatabase } from '../helpers/indexDatabases';
import type { LocalStack } from '../helpers/localStack';
import { signedTransfer } from '../helpers/v2Calls';
import { startIndexedStack } from '../streaming/indexedStack';
import { openSse, until } from '../streaming/support';

jest.setTimeout(400_000);

/**
 * Pending traces on the embedded chain with a 3 s block interval (issue 26, item 2): a transfer
 * sent with sendBocReturnHash is emulated at once and served by v3's pending routes and as
 * `pending` streaming events before its block exists, then the index's finalized events follow
 * and it leaves the pending routes; a message that never lands is invalidated when it expires.
 */

const RECIPIENT = new Address(0, Buffer.alloc(32, 0x6b));
const RECIPIENT_RAW = `0:${'6B'.repeat(32)}`;
const PENDING_TTL_MS = 20_000;

interface Sent {
  boc: Buffer;
  hash: string;
  hashNorm: string;
  hashHex: string;
}

/** A signed transfer of wallet 0 (v4r2) to the recipient at its current seqno, with its hashes; not sent. */
async function signedToRecipient(stack: LocalStack, value: bigint, comment: string): Promise<Sent> {
  const { message } = await signedTransfer(stack, RECIPIENT, value, comment);
  return {
    boc: message.toBoc(),
    hash: message.hash().toString('base64'),
    hashNorm: normalizeExternalMessage(message).hash().toString('base64'),
    hashHex: message.hash().toString('hex'),
  };
}

async function v3<T>(stack: LocalStack, path: string): Promise<{ status: number; body: T }> {
  const res = await fetch(`${stack.url}/api/v3${path}`);
  return { status: res.status, body: (await res.json()) as T };
}

interface PendingTraceJson {
  trace_id: string | null;
  external_hash: string;
  trace_info: { trace_state: string; transactions: number; messages: number; pending_messages: number };
  transactions_order: string[];
  transactions: Record<string, { account: string; emulated: boolean; finality: string; in_msg: { value: string | null } | null }>;
  trace: { tx_hash: string; children: unknown[] };
}

describe('pending traces of messages sent through the server (index on PostgreSQL, 3 s blocks)', () => {
  let stack: LocalStack;
  let db: TestDatabase;

  beforeAll(async () => {
    ({ stack, db } = await startIndexedStack(3000, ['--pending-ttl', String(PENDING_TTL_MS)]));
  });
  afterAll(async () => {
    await stack?.stop();
    await db?.drop();
  });

  test('sendBocReturnHash: pending in pendingTraces/pendingActions/pendingTransactions and in the stream, then finalized, then gone', async () => {
    const value = toNano('0.25');
    const sent = await signedToRecipient(stack, value, 'pending e2e');
    const sse = openSse(stack.url, {
      types: ['transactions', 'trace'],
      addresses: [RECIPIENT_RAW],
      trace_external_hash_norms: [sent.hashNorm],
      min_finality: 'pending',
    });
    await until(() => sse.connected() !== undefined, 'connected', 30_000);

    const res = await fetch(`${stack.api}/sendBocReturnHash`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ boc: sent.boc.toString('base64') }),
    });
    const answer = (await res.json()) as { ok: boolean; result: { hash: string; hash_norm: string } };
    expect(answer).toMatchObject({ ok: true, result: { hash: sent.hash, hash_norm: sent.hashNorm } });

    // Poll pendingTraces by the plain hash (hex, as a client may pass it); note the chain's head
    // when it is first there.
    let found: PendingTraceJson | undefined;
    let headWhenFound = 0;
    for (let i = 0; i < 600 && !found; i++) {
      const { body } = await v3<{ traces: PendingTraceJson[] }>(stack, `/pendingTraces?ext_msg_hash=${sent.hashHex}`);
      if (body.traces.length > 0) {
        headWhenFound = stack.localnet.chain.lastMasterchainBlock().id.seqno;
        found = body.traces[0];
      } else {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    expect(found).toBeDefined();
    const trace = found!;
    expect(trace.trace_id).toBeNull();
    expect(trace.external_hash).toBe(sent.hash);
    expect(trace.trace_info).toMatchObject({ trace_state: 'pending', transactions: 2, messages: 2, pending_messages: 2 });
    const [rootHash, childHash] = trace.transactions_order;
    const root = trace.transactions[rootHash!]!;
    const child = trace.transactions[childHash!]!;
    expect(root).toMatchObject({ emulated: true, finality: 'pending' });
    expect(trace.trace.tx_hash).toBe(rootHash);
    expect(trace.trace.children).toHaveLength(1);
    expect(child.account).toBe(RECIPIENT_RAW);
    expect(child.in_msg?.value).toBe(value.toString());

    // The same trace by its normalized hash; its action; the recipient's pending transaction.
    const byNorm = await v3<{ traces: PendingTraceJson[] }>(stack, `/pendingTraces?ext_msg_hash=${encodeURIComponent(sent.hashNorm)}`);
    const actions = await v3<{ actions: { type: string; details: Record<string, unknown>; finality: string }[] }>(
      stack,
      `/pendingActions?ext_msg_hash=${sent.hashHex}`,
    );
    const transactions = await v3<{ transactions: { hash: string }[] }>(stack, `/pendingTransactions?account=${RECIPIENT_RAW}`);
    // Read a few ms after it was found: the trace stays pending until the index holds it complete.
    expect(byNorm.body.traces[0]!.transactions_order).toEqual(trace.transactions_order);
    expect(actions.body.actions).toHaveLength(1);
    expect(actions.body.actions[0]).toMatchObject({ type: 'ton_transfer', finality: 'pending', details: { value: value.toString(), comment: 'pending e2e' } });
    expect(transactions.status).toBe(200);
    expect(transactions.body.transactions.map((t) => t.hash)).toEqual([childHash]);

    // The stream: pending transactions and trace events, then the index's finalized transactions.
    await until(() => sse.events.some((e) => e.data['type'] === 'transactions' && e.data['finality'] === 'finalized'), 'finalized transactions', 120_000);
    const kinds = sse.events.map((e) => `${String(e.data['type'])}:${String(e.data['finality'])}`);
    expect(kinds.indexOf('transactions:pending')).toBeGreaterThanOrEqual(0);
    expect(kinds.indexOf('trace:pending')).toBeGreaterThanOrEqual(0);
    expect(kinds.indexOf('transactions:pending')).toBeLessThan(kinds.indexOf('transactions:finalized'));
    const pendingEvent = sse.events.find((e) => e.data['type'] === 'transactions' && e.data['finality'] === 'pending')!;
    expect(pendingEvent.id).toBe('');
    expect(pendingEvent.data['trace_external_hash_norm']).toBe(sent.hashNorm);
    expect((pendingEvent.data['transactions'] as { hash: string }[]).map((t) => t.hash)).toEqual([childHash]);
    const finalized = sse.events.find((e) => e.data['type'] === 'transactions' && e.data['finality'] === 'finalized')!;
    const landed = (finalized.data['transactions'] as { account: string; mc_block_seqno: number; in_msg: { value: string } }[])[0]!;
    expect(finalized.data['trace_external_hash_norm']).toBe(sent.hashNorm);
    expect(landed).toMatchObject({ account: RECIPIENT_RAW, in_msg: { value: value.toString() } });
    // The pending trace was served before the block holding the transaction was sealed.
    expect(landed.mc_block_seqno).toBeGreaterThan(headWhenFound);

    // Once the index holds the trace complete, it is pending no more.
    let left = 1;
    for (let i = 0; i < 300 && left > 0; i++) {
      left = (await v3<{ traces: unknown[] }>(stack, `/pendingTraces?ext_msg_hash=${sent.hashHex}`)).body.traces.length;
      if (left > 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(left).toBe(0);
    expect((await v3<{ error: string }>(stack, `/pendingTransactions?account=${RECIPIENT_RAW}`)).body).toEqual({ error: 'emulated traces not found' });
    expect(sse.events.some((e) => e.data['type'] === 'trace_invalidated')).toBe(false);
    sse.source.close();
  });

  test('a message that never lands: pending, then trace_invalidated when it expires', async () => {
    // Tracked as a sent message whose lite server accepted it but the network dropped it: the
    // store is told of it (as the send path tells it) without the chain ever getting it.
    const dropped = await signedToRecipient(stack, toNano('0.5'), 'never lands');
    const sse = openSse(stack.url, { types: ['trace'], trace_external_hash_norms: [dropped.hashNorm], min_finality: 'pending' });
    await until(() => sse.connected() !== undefined, 'connected', 30_000);
    const pending = stack.server.services.pending!;
    pending.track(dropped.boc);
    await until(() => sse.events.some((e) => e.data['type'] === 'trace'), 'the pending trace event', 30_000);
    expect(sse.events[0]!.data).toMatchObject({ type: 'trace', finality: 'pending', trace_external_hash_norm: dropped.hashNorm });
    const listed = await v3<{ traces: PendingTraceJson[] }>(stack, `/pendingTraces?account=${RECIPIENT_RAW}`);
    expect(listed.body.traces.map((t) => t.external_hash)).toContain(dropped.hash);
    await until(() => sse.events.some((e) => e.data['type'] === 'trace_invalidated'), 'trace_invalidated', PENDING_TTL_MS + 30_000);
    expect(sse.events.find((e) => e.data['type'] === 'trace_invalidated')!.data).toEqual({ type: 'trace_invalidated', trace_external_hash_norm: dropped.hashNorm });
    expect((await v3<{ traces: unknown[] }>(stack, `/pendingTraces?ext_msg_hash=${dropped.hashHex}`)).body.traces).toEqual([]);
    sse.source.close();
  });
});
