import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Address, toNano } from '@ton/core';
import pg from 'pg';
import pino from 'pino';
import { loadConfig } from '../../src/config';
import { startServer, type RunningServer } from '../../src/server';
import { STREAMING_CHANNEL } from '../../src/streaming';
import { createTestDatabase, type TestDatabase } from '../helpers/indexDatabases';
import { startLocalStack, type LocalStack } from '../helpers/localStack';
import { sendTransfer } from '../helpers/v2Calls';
import { openSse, until, type ReceivedEvent } from './support';

jest.setTimeout(400_000);

/**
 * Two API instances on one PostgreSQL: A runs the embedded chain and is the index writer (it took
 * the writer lock first); B reaches the chain through A's lite server and only serves (its
 * pipeline stands by). A announces every committed block with NOTIFY; B LISTENs and builds the
 * block's events from the shared tables. A subscriber on B gets the events of the blocks A
 * committed, with the same ids and payloads as on A, and a client resumes on either instance with
 * an id it got from the other.
 */
describe('streaming across two instances on one PostgreSQL', () => {
  let db: TestDatabase;
  let a: LocalStack;
  let b: RunningServer;
  let dir: string;
  let listener: pg.Client;
  const announced: number[] = [];
  /** Moments the writer lease was not where it should be (A writes, B stands by), sampled all along. */
  const leaseFlaps: string[] = [];
  let leaseWatch: NodeJS.Timeout | undefined;
  const recipient = new Address(0, Buffer.alloc(32, 0x7c));
  const subscription = { types: ['transactions', 'account_state_change'], addresses: [recipient.toString()] };

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    a = await startLocalStack(['--block-interval', '300', '--index', 'on', '--database-url', db.url!]);
    const indexA = a.server.services.index!;
    await until(() => indexA.health().status.writer && indexA.health().status.state === 'live', 'A is the writer and live', 150_000);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'streaming-instances-'));
    const configFile = path.join(dir, 'local.json');
    fs.writeFileSync(configFile, a.localnet.globalConfigJson);
    const { config } = loadConfig(
      ['--port', '0', '--metrics-port', '0', '--keyless-rps', '0', '--network', 'local', '--liteservers', configFile, '--index', 'on', '--database-url', db.url!],
      {},
    );
    b = await startServer(config, pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' }));
    // A client of our own on the channel: the writer's announcements, as B receives them.
    listener = new pg.Client({ connectionString: db.url! });
    await listener.connect();
    listener.on('notification', (message) => {
      if (message.channel === STREAMING_CHANNEL) announced.push(Number(message.payload));
    });
    await listener.query(`listen ${STREAMING_CHANNEL}`);
    // A keeps the lease through the whole suite: a transient error of its pipeline (a slow lite
    // answer on a loaded machine) must not hand the writing to B.
    leaseWatch = setInterval(() => {
      if (!a.server.services.index!.health().status.writer) leaseFlaps.push(`A not the writer at ${new Date().toISOString()}`);
      if (b.services.index!.health().status.writer) leaseFlaps.push(`B the writer at ${new Date().toISOString()}`);
    }, 50);
    const streamingA = a.server.services.streaming!;
    const streamingB = b.services.streaming!;
    // The followers start at the first streaming request (src/server.ts): here, at once.
    streamingA.useSource();
    streamingB.useSource();
    await until(() => streamingB.bus.lastSeqno !== null && streamingB.bus.lastSeqno >= (streamingA.bus.lastSeqno ?? 0), 'B follows A', 60_000);
  });

  afterAll(async () => {
    clearInterval(leaseWatch);
    await listener?.end();
    await b?.stop();
    await a?.stop();
    await db?.drop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const hashesOf = (events: readonly ReceivedEvent[]) =>
    events.filter((e) => e.data['type'] === 'transactions').map((e) => (e.data['transactions'] as { hash: string }[]).map((t) => t.hash));

  test('B does not write; its subscriber gets the events of the blocks A committed and announced, as A serves them', async () => {
    expect(a.server.services.index!.health().status.writer).toBe(true);
    expect(b.services.index!.health().status.writer).toBe(false);
    // B's follower holds a connection LISTENing on the channel (its last statement; A's listening
    // connection also announces, so its last statement is a pg_notify). The follower opens it
    // after publishing its first block (follower.ts start()), which is what 'B follows A' waited
    // for: on a loaded machine the LISTEN may still be on its way, so it is looked for until it
    // shows (a follower that never listens fails here after 10 s).
    const statements = async () =>
      (
        await listener.query<{ query: string }>(
          'select query from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
        )
      ).rows.map((r) => r.query.toLowerCase());
    let seen = await statements();
    const listening = () => seen.includes(`listen ${STREAMING_CHANNEL}`);
    for (const deadline = Date.now() + 10_000; !listening() && Date.now() < deadline; seen = await statements()) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(seen).toContain(`listen ${STREAMING_CHANNEL}`);

    const onA = openSse(a.url, subscription);
    const onB = openSse(b.url, subscription);
    await until(() => onA.connected() !== undefined && onB.connected() !== undefined, 'both connected', 30_000);
    await sendTransfer(a, [recipient], toNano('0.4'));
    await until(() => onB.events.length >= 2 && onA.events.length >= 2, 'the transfer on both', 120_000);
    // Same events, same ids, same payloads (address books aside: none asked).
    expect(onB.events).toEqual(onA.events);
    const [txEvent] = onB.events.filter((e) => e.data['type'] === 'transactions');
    const v2 = (await (await fetch(`${b.url}/api/v2/getTransactions?address=${recipient.toString()}&limit=10`)).json()) as { result: { transaction_id: { hash: string } }[] };
    expect(hashesOf([txEvent!])[0]).toEqual(v2.result.map((t) => t.transaction_id.hash));
    // The block B published was announced by the writer.
    const seqno = Number(txEvent!.id.split(':')[0]);
    await until(() => announced.includes(seqno), `NOTIFY of block ${seqno}`, 30_000);
    onA.source.close();
    onB.source.close();
    expect(leaseFlaps).toEqual([]);
  });

  test('resume on either instance with the id got from the other: exactly the missed events, in order', async () => {
    const onB = openSse(b.url, { types: ['transactions'], addresses: [recipient.toString()] });
    await until(() => onB.connected() !== undefined, 'connected', 30_000);
    await sendTransfer(a, [recipient], toNano('0.01'));
    await until(() => onB.events.length === 1, 'first event on B', 120_000);
    const lastFromB = onB.events[0]!.id;
    onB.source.close();
    for (let i = 0; i < 2; i++) await sendTransfer(a, [recipient], toNano('0.02'));
    const head = (await (await fetch(`${a.api}/getMasterchainInfo`)).json()) as { result: { last: { seqno: number } } };
    await until(
      () => (a.server.services.streaming!.bus.lastSeqno ?? 0) >= head.result.last.seqno && (b.services.streaming!.bus.lastSeqno ?? 0) >= head.result.last.seqno,
      'both published the transfers',
      120_000,
    );
    const v2 = (await (await fetch(`${a.api}/getTransactions?address=${recipient.toString()}&limit=2`)).json()) as { result: { transaction_id: { hash: string } }[] };
    const missed = v2.result.map((t) => [t.transaction_id.hash]).reverse();

    // On A with B's id.
    const onA = openSse(a.url, { types: ['transactions'], addresses: [recipient.toString()] }, { 'Last-Event-ID': lastFromB });
    await until(() => onA.events.length === 2, 'two replayed on A', 60_000);
    expect(hashesOf(onA.events)).toEqual(missed);
    const lastFromA = onA.events[0]!.id;
    onA.source.close();
    // On B with A's id: the one after it.
    const backOnB = openSse(b.url, { types: ['transactions'], addresses: [recipient.toString()] }, { 'Last-Event-ID': lastFromA });
    await until(() => backOnB.events.length === 1, 'one replayed on B', 60_000);
    expect(hashesOf(backOnB.events)).toEqual([missed[1]]);
    expect(backOnB.events[0]!.id).toBe(onA.events[1]!.id);
    // Then live on B.
    await sendTransfer(a, [recipient], toNano('0.03'));
    await until(() => backOnB.events.length === 2, 'live on B', 120_000);
    const latest = (await (await fetch(`${a.api}/getTransactions?address=${recipient.toString()}&limit=1`)).json()) as { result: { transaction_id: { hash: string } }[] };
    expect(hashesOf(backOnB.events)[1]).toEqual([latest.result[0]!.transaction_id.hash]);
    backOnB.source.close();
    expect(leaseFlaps).toEqual([]);
  });
});
