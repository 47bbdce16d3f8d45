import { Address, internal, toNano } from '@ton/core';
import pino from 'pino';
import { loadConfig } from '../../src/config';
import { parseGlobalConfig, trustAnchorOf } from '../../src/liteclient';
import { startServer, type RunningServer } from '../../src/server';
import { deleteKeysWithPrefix, describeWithRedis, REDIS_URL, redisReachableSync, uniquePrefix } from '../auth/helpers';
import { createTestDatabase, type TestDatabase } from '../helpers/indexDatabases';
import { startLocalStack, type LocalStack } from '../helpers/localStack';
import { indexAndStreamCaughtUp, pendingGoneOn, pendingTraceOn, sendReturnHash, signedTransfer, v3 } from '../helpers/pendingSends';
import { openSse, until } from '../streaming/support';

jest.setTimeout(400_000);

/**
 * Pending traces shared by two API instances (issue 26, item 2: "Redis when several instances
 * share them"): one embedded chain with 3 s blocks, instance A (the chain's own server) and
 * instance B (another server over the same lite server), one PostgreSQL index, one Redis with a
 * key prefix of this run. 8 s blocks, the transfer sent just after a seal: an emulation that ends
 * after its block is committed is not kept (the trace is final by then), so the test gives the
 * emulation and Redis a whole interval, as test/e2e/pending does, where 3 s blocks and a send at
 * any moment made B miss the trace on a loaded machine. A transfer sent through A is pending on B (v3 and B's stream), then
 * gone from both once the index commits it.
 */

const BLOCK_INTERVAL_MS = 8_000;
const RECIPIENT = new Address(0, Buffer.alloc(32, 0x7c));
const RECIPIENT_RAW = `0:${'7C'.repeat(32)}`;

describeWithRedis('pending traces shared by two instances through Redis', redisReachableSync(REDIS_URL), () => {
  let db: TestDatabase;
  let a: LocalStack;
  let b: RunningServer;
  const prefix = uniquePrefix();

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    const flags = ['--block-interval', String(BLOCK_INTERVAL_MS), '--index', 'on', '--database-url', db.url!, '--redis-url', REDIS_URL, '--pending-prefix', prefix, '--limiter-prefix', `${prefix}rl:`, '--pending-ttl', '15000'];
    a = await startLocalStack(flags);
    const { config } = loadConfig(['--port', '0', '--metrics-port', '0', '--keyless-rps', '0', '--health-interval', '200', ...flags], {});
    const globalConfig = a.localnet.globalConfig;
    const servers = parseGlobalConfig(globalConfig, 'local chain').map((server) => ({ ...server, archival: true }));
    b = await startServer(config, pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' }), {
      servers,
      anchor: trustAnchorOf(globalConfig, 'local chain', undefined),
      saveKeyBlock: false,
      stop: () => Promise.resolve(),
    });
    // The index as A sees it (A writes it: it started first) and B's stream.
    await indexAndStreamCaughtUp(a.server.services.index!, b);
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
    await db?.drop();
    await deleteKeysWithPrefix(REDIS_URL, prefix);
  });

  test('sent through A: pending on B (pendingTraces, pendingTransactions, its stream), then gone from both after the block', async () => {
    // One writes the index, the other reads it: the commit is seen only by the writer.
    expect([a.server.services.index!.health().status.writer, b.services.index!.health().status.writer].sort()).toEqual([false, true]);
    const value = toNano('0.3');
    const sent = await signedTransfer(a, [internal({ to: RECIPIENT, value, bounce: false, body: 'shared pending' })]);
    const sse = openSse(b.url, { types: ['transactions', 'trace'], addresses: [RECIPIENT_RAW], trace_external_hash_norms: [sent.hashNorm], min_finality: 'pending' });
    await until(() => sse.connected() !== undefined, 'connected to B', 30_000);

    const chain = a.localnet.chain;
    await chain.waitForMasterchainSeqno(chain.lastMasterchainBlock().id.seqno + 1, 3 * BLOCK_INTERVAL_MS);
    expect(await sendReturnHash(a.url, sent)).toMatchObject({ ok: true, result: { hash: sent.hash, hash_norm: sent.hashNorm } });
    const onB = await pendingTraceOn(b.url, sent.hashHex);
    expect(onB).toBeDefined();
    expect(onB!.external_hash).toBe(sent.hash);
    expect(onB!.trace_info).toMatchObject({ trace_state: 'pending', transactions: 2 });
    const childHash = onB!.transactions_order[1]!;
    expect(onB!.transactions[childHash]).toMatchObject({ account: RECIPIENT_RAW, emulated: true, in_msg: { value: value.toString() } });
    const onA = await pendingTraceOn(a.url, sent.hashHex, 1);
    expect(onA?.transactions_order).toEqual(onB!.transactions_order);
    const byAccount = await v3<{ transactions: { hash: string }[] }>(b.url, `/pendingTransactions?account=${RECIPIENT_RAW}`);
    expect(byAccount.body.transactions.map((t) => t.hash)).toEqual([childHash]);

    // B's stream: the pending trace (published by A through Redis), then the index's finalized one.
    const ours = () => sse.events.filter((e) => e.data['trace_external_hash_norm'] === sent.hashNorm);
    await until(() => ours().some((e) => e.data['type'] === 'trace' && e.data['finality'] === 'finalized'), 'finalized on B', 120_000);
    const kinds = ours().map((e) => `${String(e.data['type'])}:${String(e.data['finality'] ?? '')}`);
    expect(kinds.indexOf('trace:pending')).toBeGreaterThanOrEqual(0);
    expect(kinds.indexOf('trace:pending')).toBeLessThan(kinds.indexOf('trace:finalized'));
    expect(kinds).not.toContain('trace_invalidated:');
    const finalized = ours().find((e) => e.data['type'] === 'transactions' && e.data['finality'] === 'finalized')!;
    expect((finalized.data['transactions'] as { account: string }[]).map((t) => t.account)).toEqual([RECIPIENT_RAW]);

    // Gone from both once the writer committed it complete.
    expect(await pendingGoneOn(b.url, sent.hashHex)).toBe(0);
    expect(await pendingGoneOn(a.url, sent.hashHex)).toBe(0);
    expect((await v3<{ error: string }>(b.url, `/pendingTransactions?account=${RECIPIENT_RAW}`)).body).toEqual({ error: 'emulated traces not found' });
    sse.source.close();
  });

  test('a message that never lands, tracked on B: pending on A, then trace_invalidated on both streams once', async () => {
    const dropped = await signedTransfer(a, [internal({ to: RECIPIENT, value: toNano('0.4'), bounce: false, body: 'never lands' })]);
    const streams = [a.url, b.url].map((url) => openSse(url, { types: ['trace'], trace_external_hash_norms: [dropped.hashNorm], min_finality: 'pending' }));
    await until(() => streams.every((s) => s.connected() !== undefined), 'connected to both', 30_000);
    // As the send path tells the store of an accepted message the network then drops.
    b.services.pending!.track(dropped.boc);
    expect(await pendingTraceOn(a.url, dropped.hashHex)).toBeDefined();
    await until(() => streams.every((s) => s.events.some((e) => e.data['type'] === 'trace_invalidated')), 'trace_invalidated on both', 120_000);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (const stream of streams) {
      const kinds = stream.events.map((e) => String(e.data['type']));
      expect(kinds).toEqual(['trace', 'trace_invalidated']);
      stream.source.close();
    }
    expect(await pendingTraceOn(b.url, dropped.hashHex, 1)).toBeUndefined();
  });
});
