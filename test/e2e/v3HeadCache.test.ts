import { Address, toNano } from '@ton/ton';
import pg from 'pg';
import pino from 'pino';
import { IndexStore } from '../../src/indexdb';
import { v3HeadPublishDelay, v3HeadWarmKeys } from '../../src/metrics';
import { sendTransfer } from '../helpers/v2Calls';
import { createTestDatabase, INDEX_BACKENDS, type TestDatabase } from '../helpers/indexDatabases';
import { startLocalStack, v3HeadAtLeast, type LocalStack } from '../helpers/localStack';
import { until } from '../helpers/waiting';

jest.setTimeout(240_000);

type Json = Record<string, unknown>;

interface Answer {
  status: number;
  cache: string | null;
  text: string;
  body: Json;
}

async function v3(stack: LocalStack, path: string): Promise<Answer> {
  const res = await fetch(`${stack.url}/api/v3${path}`);
  const text = await res.text();
  return { status: res.status, cache: res.headers.get('x-cache'), text, body: JSON.parse(text) as Json };
}

/**
 * Waits until the index holds the chain's head (the API's v3 masterchainInfo says so) and the
 * cache knows the head again (the answer carries X-Cache: a commit report drops the head until it
 * is read again).
 */
async function indexAtChainHead(stack: LocalStack, cached = true): Promise<number> {
  const head = stack.localnet.chain.lastMasterchainBlock().id.seqno;
  await until(async () => {
    const info = await v3(stack, '/masterchainInfo');
    return info.status === 200 && ((info.body['last'] as Json)['seqno'] as number) >= head && (!cached || info.cache !== null);
  }, 60_000, `the index reaches mc ${head}`);
  return head;
}

/** The publications of a newer head so far (src/v3/head.ts), by why: how many, seconds in all. */
async function publishDelays(): Promise<Record<string, { count: number; sum: number }>> {
  const by: Record<string, { count: number; sum: number }> = { warm: { count: 0, sum: 0 }, deadline: { count: 0, sum: 0 }, at_once: { count: 0, sum: 0 } };
  for (const value of (await v3HeadPublishDelay.get()).values) {
    const entry = by[String(value.labels.why)];
    if (!entry) continue;
    if (value.metricName?.endsWith('_count')) entry.count = value.value;
    if (value.metricName?.endsWith('_sum')) entry.sum = value.value;
  }
  return by;
}

/** The keys computed again for a newer head before it was published, so far. */
async function warmedKeys(): Promise<number> {
  return (await v3HeadWarmKeys.get()).values.find((value) => value.labels.outcome === 'kept')?.value ?? 0;
}

/**
 * The v3 answers cached at the index's head (src/v3/head.ts, src/v3/http.ts) on the embedded chain,
 * its index filled by the real pipeline, on both index backends. The chain seals a block only when
 * a message arrives (--block-interval 0), so the head moves only when the test sends a transfer;
 * the head is polled once a minute, so only the index's own commit report can make the new answers.
 */
describe.each(INDEX_BACKENDS)('v3 answers cached at the index head (%s)', (backend) => {
  let db: TestDatabase;
  let stack: LocalStack;
  // A bound far above what warming the few keys here takes: a head published at it is late.
  const WARM_MS = 4000;
  // Between the small answers the test keeps (a one-transaction history ~2.5 KB, masterchainInfo) and /blocks?limit=100 (~5 KB here).
  const MAX_ANSWER = 3584;

  beforeAll(async () => {
    db = await createTestDatabase(backend);
    stack = await startLocalStack([
      '--shards', '2', '--block-interval', '0', '--index', 'on',
      '--v3-head-poll', '60000', '--v3-head-cache-max-answer', String(MAX_ANSWER), '--v3-head-warm', String(WARM_MS),
      ...(db.url ? ['--database-url', db.url] : []),
    ]);
  });

  afterAll(async () => {
    await stack?.stop();
    await db?.drop();
  });

  it('a second identical request is a hit; after the index commits a transfer, the requests read before are computed again before the new head is published: the first answer showing it is a hit, well within --v3-head-warm', async () => {
    await indexAtChainHead(stack);
    const receiver = new Address(0, Buffer.alloc(32, 0x5c));
    const history = `/transactions?account=${receiver.toRawString()}&limit=10`;
    const newest = '/blocks?workchain=-1&limit=1&sort=desc';
    const first = await v3(stack, history);
    const second = await v3(stack, history);
    expect([first.status, first.cache, second.cache]).toEqual([200, 'miss', 'hit']);
    expect(second.text).toBe(first.text);
    expect(first.body['transactions']).toEqual([]);
    const top = await v3(stack, newest);
    expect((await v3(stack, newest)).cache).toBe('hit');
    const topSeqno = ((top.body['blocks'] as Json[])[0]!)['seqno'] as number;

    // When each commit was reported to the API (the listener runs after the head watcher's).
    const reported = new Map<number, number>();
    const unlisten = stack.server.services.index!.onCommit((seqno) => reported.set(seqno, performance.now()));
    const delays = await publishDelays();
    try {
      await sendTransfer(stack, [receiver], toNano('0.3'));
      // The cached empty history would stay forever if the key did not follow the commits (the poll is a minute).
      let after: Answer | undefined;
      let seenAt = 0;
      await until(async () => {
        after = await v3(stack, history);
        seenAt = performance.now();
        return (after.body['transactions'] as Json[]).length > 0;
      }, 60_000, 'the receiver transaction is served');
      const landed = (after!.body['transactions'] as Json[])[0]!;
      expect(landed['account']).toBe(receiver.toRawString().toUpperCase());
      // Warmed before its head was published (a hit), and published as soon as warm: far inside the
      // bound (a head published only at the bound, or later, fails here).
      expect(after!.cache).toBe('hit');
      const commitAt = reported.get(landed['mc_block_seqno'] as number);
      expect(commitAt).toBeDefined();
      expect(seenAt - commitAt!).toBeLessThan(WARM_MS / 2);
      const published = await publishDelays();
      expect(published['warm']!.count).toBeGreaterThan(delays['warm']!.count);
      expect(published['deadline']!.count).toBe(delays['deadline']!.count);
      expect(published['warm']!.sum - delays['warm']!.sum).toBeLessThan(((published['warm']!.count - delays['warm']!.count) * WARM_MS) / 2 / 1000);
    } finally {
      unlisten();
    }
    await indexAtChainHead(stack);
    await v3(stack, history);
    expect((await v3(stack, history)).cache).toBe('hit');
    const newTop = await v3(stack, newest);
    expect(newTop.cache).not.toBeNull();
    expect(((newTop.body['blocks'] as Json[])[0]!)['seqno'] as number).toBeGreaterThan(topSeqno);
  });

  it('an answer larger than --v3-head-cache-max-answer is served and not kept; a small one is', async () => {
    await indexAtChainHead(stack);
    const big = '/blocks?limit=100&sort=desc';
    const small = '/blocks?workchain=-1&limit=1&sort=asc';
    const one = await v3(stack, big);
    const two = await v3(stack, big);
    expect(one.text.length).toBeGreaterThan(MAX_ANSWER);
    expect([one.status, one.cache, two.cache]).toEqual([200, null, null]);
    expect(two.text).toBe(one.text);
    const a = await v3(stack, small);
    const b = await v3(stack, small);
    expect(a.text.length).toBeLessThan(MAX_ANSWER);
    expect([a.cache, b.cache]).toEqual(['miss', 'hit']);
  });

  it('the pending routes are never cached', async () => {
    const wallet = stack.localnet.wallets.wallets.find((w) => w.version === 'v4r2' && w.index === 0)!;
    for (let i = 0; i < 2; i++) {
      const answer = await v3(stack, `/pendingTransactions?account=${wallet.address.toString()}`);
      expect(answer.cache).toBeNull();
    }
  });
});

describe.each(INDEX_BACKENDS)('v3 with --v3-head-cache off (%s)', (backend) => {
  let db: TestDatabase;
  let stack: LocalStack;

  beforeAll(async () => {
    db = await createTestDatabase(backend);
    stack = await startLocalStack(['--block-interval', '0', '--index', 'on', '--v3-head-cache', 'off', ...(db.url ? ['--database-url', db.url] : [])]);
  });

  afterAll(async () => {
    await stack?.stop();
    await db?.drop();
  });

  it('answers carry no X-Cache and each is computed; answers pinned to a past block are still cached', async () => {
    const head = await indexAtChainHead(stack, false);
    for (let i = 0; i < 2; i++) expect((await v3(stack, '/blocks?workchain=-1&limit=1&sort=desc')).cache).toBeNull();
    const pinned = `/masterchainBlockShardState?seqno=${head}`;
    expect([(await v3(stack, pinned)).cache, (await v3(stack, pinned)).cache]).toEqual(['miss', 'hit']);
  });
});

/**
 * --database-read-url: the head comes from the read database's own checkpoint, not from the
 * writer's commits. The "replica" here is a second database the test holds at a checkpoint of its
 * choosing (PostgreSQL only: PGlite has no read URL); the primary's index commits beside it.
 */
describe('v3 answers cached at the read database head (postgres, --database-read-url)', () => {
  let primary: TestDatabase;
  let replica: TestDatabase;
  let replicaClient: pg.Client;
  let stack: LocalStack;

  beforeAll(async () => {
    primary = await createTestDatabase('postgres');
    replica = await createTestDatabase('postgres', 'index_replica');
    // The replica's schema, as the index's own store makes it; then a checkpoint at mc 5.
    await (await IndexStore.open({ databaseUrl: replica.url!, logger: pino({ level: 'silent' }) })).close();
    replicaClient = new pg.Client({ connectionString: replica.url! });
    await replicaClient.connect();
    await replicaClient.query(
      'insert into index_checkpoint (id, first_mc_seqno, mc_seqno, root_hash, file_hash, gen_utime) values (1, 1, 5, $1, $2, 0)',
      [Buffer.alloc(32, 5), Buffer.alloc(32, 6)],
    );
    stack = await startLocalStack(['--block-interval', '0', '--index', 'on', '--v3-head-poll', '100', '--database-url', primary.url!, '--database-read-url', replica.url!]);
  });

  afterAll(async () => {
    await stack?.stop();
    await replicaClient?.end();
    await replica?.drop();
    await primary?.drop();
  });

  it('commits of the writer do not move the key; the replica catching up does', async () => {
    const path = '/blocks?workchain=-1&limit=1';
    await until(async () => (await v3(stack, path)).cache === 'hit', 20_000, 'a hit at the replica head');
    // The writer (this process's index, on the primary) commits a block: the head is re-read at
    // once, from the replica, which has not moved: still the same key.
    const primaryClient = new pg.Client({ connectionString: primary.url! });
    await primaryClient.connect();
    try {
      const before = (await primaryClient.query<{ mc_seqno: number }>('select mc_seqno from index_checkpoint')).rows[0]?.mc_seqno ?? 0;
      await sendTransfer(stack, [new Address(0, Buffer.alloc(32, 0x6d))], toNano('0.1'));
      await until(async () => ((await primaryClient.query<{ mc_seqno: number }>('select mc_seqno from index_checkpoint')).rows[0]?.mc_seqno ?? 0) > before, 60_000, 'the primary commits');
    } finally {
      await primaryClient.end();
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    const still = await v3(stack, path);
    expect(still.cache).toBe('hit');
    expect((await stack.server.services.v3Head!.source.current())?.mcSeqno).toBe(5);
    // The replica replays a commit: the next read of its checkpoint gives another key, the path
    // (read at the old head) computed for it before it is published.
    const warmed = await warmedKeys();
    await replicaClient.query('update index_checkpoint set mc_seqno = 6, root_hash = $1, committed_at = now() where id = 1', [Buffer.alloc(32, 7)]);
    await v3HeadAtLeast(stack, 6, 5_000);
    expect(await warmedKeys()).toBeGreaterThan(warmed);
    expect((await v3(stack, path)).cache).toBe('hit');
  });
});
