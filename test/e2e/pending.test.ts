import { Address, contractAddress, internal, toNano } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { keyPairFromSeed } from '@ton/crypto';
import { createTestDatabase, type TestDatabase } from '../helpers/indexDatabases';
import { startLocalStack, type LocalStack } from '../helpers/localStack';
import { indexAndStreamCaughtUp, pendingGoneOn, pendingTraceOn, sendReturnHash, signedTransfer, v3, type PendingTraceJson, type Sent } from '../helpers/pendingSends';
import { openSse, until } from '../streaming/support';

jest.setTimeout(400_000);

/**
 * Pending traces on the embedded chain with a 10 s block interval (issue 26, item 2): a transfer
 * sent with sendBocReturnHash is emulated at once and served by v3's pending routes and as
 * `pending` streaming events before its block exists, then the index's finalized events follow
 * and it leaves the pending routes; a message that never lands is invalidated when it expires.
 */

const RECIPIENT = new Address(0, Buffer.alloc(32, 0x6b));
const RECIPIENT_RAW = `0:${'6B'.repeat(32)}`;
const PENDING_TTL_MS = 30_000;
/**
 * Long enough that the emulation of a sent message (a TVM thread's start, two transactions) ends
 * before the next block even when other work holds both cores: with 3 s it did not once while two
 * full runs and five builds shared the machine (load 16).
 */
const BLOCK_INTERVAL_MS = 10_000;

/** A transfer of wallet 0 to RECIPIENT with a comment; not sent. */
function transfer(stack: LocalStack, value: bigint, comment: string): Promise<Sent> {
  return signedTransfer(stack, [internal({ to: RECIPIENT, value, bounce: false, body: comment })]);
}

describe('pending traces of messages sent through the server (index on PostgreSQL, 10 s blocks)', () => {
  let stack: LocalStack;
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    stack = await startLocalStack(['--block-interval', String(BLOCK_INTERVAL_MS), '--index', 'on', '--database-url', db.url!, '--pending-ttl', String(PENDING_TTL_MS)]);
    await indexAndStreamCaughtUp(stack.server.services.index!, stack.server);
  });
  afterAll(async () => {
    await stack?.stop();
    await db?.drop();
  });

  test('sendBocReturnHash: pending in pendingTraces/pendingActions/pendingTransactions and in the stream, then finalized, then gone', async () => {
    const value = toNano('0.25');
    const sent = await transfer(stack, value, 'pending e2e');
    const sse = openSse(stack.url, {
      types: ['transactions', 'trace'],
      addresses: [RECIPIENT_RAW],
      trace_external_hash_norms: [sent.hashNorm],
      min_finality: 'pending',
    });
    await until(() => sse.connected() !== undefined, 'connected', 30_000);

    // Send just after a block is sealed, so the message waits a whole interval for its block and
    // the reads below (a few ms apart) all fall before it, however long the emulation took.
    await stack.localnet.chain.waitForMasterchainSeqno(stack.localnet.chain.lastMasterchainBlock().id.seqno + 1, 3 * BLOCK_INTERVAL_MS);
    const answer = await sendReturnHash(stack.url, sent);
    expect(answer).toMatchObject({ ok: true, result: { hash: sent.hash, hash_norm: sent.hashNorm } });

    // Poll pendingTraces by the plain hash (hex, as a client may pass it); note the chain's head
    // when it is first there.
    const found = await pendingTraceOn(stack.url, sent.hashHex);
    const headWhenFound = stack.localnet.chain.lastMasterchainBlock().id.seqno;
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
    const byNorm = await v3<{ traces: PendingTraceJson[] }>(stack.url, `/pendingTraces?ext_msg_hash=${encodeURIComponent(sent.hashNorm)}`);
    const actions = await v3<{ actions: { type: string; details: Record<string, unknown>; finality: string }[] }>(
      stack.url,
      `/pendingActions?ext_msg_hash=${sent.hashHex}`,
    );
    const transactions = await v3<{ transactions: { hash: string }[] }>(stack.url, `/pendingTransactions?account=${RECIPIENT_RAW}`);
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
    expect(await pendingGoneOn(stack.url, sent.hashHex)).toBe(0);
    expect((await v3<{ error: string }>(stack.url, `/pendingTransactions?account=${RECIPIENT_RAW}`)).body).toEqual({ error: 'emulated traces not found' });
    expect(sse.events.some((e) => e.data['type'] === 'trace_invalidated')).toBe(false);
    sse.source.close();
  });

  test('a message that never lands: pending, then trace_invalidated when it expires', async () => {
    // Tracked as a sent message whose lite server accepted it but the network dropped it: the
    // store is told of it (as the send path tells it) without the chain ever getting it.
    const dropped = await transfer(stack, toNano('0.5'), 'never lands');
    const sse = openSse(stack.url, { types: ['trace'], trace_external_hash_norms: [dropped.hashNorm], min_finality: 'pending' });
    await until(() => sse.connected() !== undefined, 'connected', 30_000);
    const pending = stack.server.services.pending!;
    pending.track(dropped.boc);
    await until(() => sse.events.some((e) => e.data['type'] === 'trace'), 'the pending trace event', 30_000);
    expect(sse.events[0]!.data).toMatchObject({ type: 'trace', finality: 'pending', trace_external_hash_norm: dropped.hashNorm });
    const listed = await v3<{ traces: PendingTraceJson[] }>(stack.url, `/pendingTraces?account=${RECIPIENT_RAW}`);
    expect(listed.body.traces.map((t) => t.external_hash)).toContain(dropped.hash);
    await until(() => sse.events.some((e) => e.data['type'] === 'trace_invalidated'), 'trace_invalidated', PENDING_TTL_MS + 30_000);
    expect(sse.events.find((e) => e.data['type'] === 'trace_invalidated')!.data).toEqual({ type: 'trace_invalidated', trace_external_hash_norm: dropped.hashNorm });
    expect((await v3<{ traces: unknown[] }>(stack.url, `/pendingTraces?ext_msg_hash=${dropped.hashHex}`)).body.traces).toEqual([]);
    sse.source.close();
  });

  test('a trace that lands otherwise than emulated: trace_invalidated before the index events, then gone', async () => {
    // A bounceable transfer of wallet 0 to an address no contract holds yet is emulated on the
    // head as a bounce (3 transactions). Wallet 1 deploys a wallet there in the same block, just
    // before it: the real transfer is accepted (2 transactions), so the pending trace was wrong.
    const target = WalletContractV4.create({ workchain: 0, publicKey: keyPairFromSeed(Buffer.alloc(32, 0x5e)).publicKey });
    const targetAddress = contractAddress(0, target.init);
    const targetRaw = `0:${targetAddress.hash.toString('hex').toUpperCase()}`;
    const deploy = await signedTransfer(stack, [internal({ to: targetAddress, value: toNano('0.2'), bounce: false, init: target.init })], 1);
    const toTarget = await signedTransfer(stack, [internal({ to: targetAddress, value: toNano('0.05'), bounce: true, body: 'before the deploy' })], 0);
    const sse = openSse(stack.url, { types: ['transactions', 'trace'], addresses: [targetRaw], trace_external_hash_norms: [toTarget.hashNorm], min_finality: 'pending' });
    await until(() => sse.connected() !== undefined, 'connected', 30_000);

    // Both in the block being filled: wait for a block to be sealed, then send at once.
    const chain = stack.localnet.chain;
    await chain.waitForMasterchainSeqno(chain.lastMasterchainBlock().id.seqno + 1, 3 * BLOCK_INTERVAL_MS);
    const sealedBefore = chain.lastMasterchainBlock().id.seqno;
    expect((await sendReturnHash(stack.url, deploy)).ok).toBe(true);
    expect((await sendReturnHash(stack.url, toTarget)).ok).toBe(true);
    const emulated = await pendingTraceOn(stack.url, toTarget.hashHex);
    expect(emulated).toBeDefined();
    // The emulation ran before the deploy's block: the transfer bounced there.
    expect(chain.lastMasterchainBlock().id.seqno).toBe(sealedBefore);
    expect(emulated!.trace_info.transactions).toBe(3);
    const onTarget = Object.values(emulated!.transactions).find((tx) => tx.account === targetRaw)!;
    expect(onTarget.description.aborted).toBe(true);

    const ours = () => sse.events.filter((e) => e.data['trace_external_hash_norm'] === toTarget.hashNorm);
    await until(() => ours().some((e) => e.data['type'] === 'trace' && e.data['finality'] === 'finalized'), 'the finalized trace', 120_000);
    const kinds = ours().map((e) => `${String(e.data['type'])}:${String(e.data['finality'] ?? '')}`);
    expect(kinds).toContain('trace:pending');
    expect(kinds.indexOf('trace_invalidated:')).toBeGreaterThan(kinds.indexOf('trace:pending'));
    const firstIndexed = kinds.findIndex((k) => k.endsWith(':confirmed') || k.endsWith(':finalized'));
    expect(kinds.indexOf('trace_invalidated:')).toBeLessThan(firstIndexed);
    expect(sse.events.find((e) => e.data['type'] === 'trace_invalidated')!.data).toEqual({ type: 'trace_invalidated', trace_external_hash_norm: toTarget.hashNorm });
    // What landed: the target (now a wallet) accepted the transfer, no bounce.
    const landed = ours().find((e) => e.data['type'] === 'trace' && e.data['finality'] === 'finalized')!;
    const landedTxs = Object.values(landed.data['transactions'] as Record<string, { account: string; description: { aborted: boolean } }>);
    expect(landedTxs).toHaveLength(2);
    expect(landedTxs.find((tx) => tx.account === targetRaw)!.description.aborted).toBe(false);
    expect(await pendingGoneOn(stack.url, toTarget.hashHex)).toBe(0);
    sse.source.close();
  });
});
