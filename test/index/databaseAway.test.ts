import { createServer, connect, type Server, type Socket } from 'node:net';
import { Address, toNano } from '@ton/core';
import pg from 'pg';
import type { IndexService } from '../../src/indexer';
import { createTestDatabase, type TestDatabase } from '../helpers/indexDatabases';
import { startLocalStack, nextBlock, type LocalStack } from '../helpers/localStack';
import { callV2, sendTransfer } from '../helpers/v2Calls';
import { freePort, until } from '../helpers/waiting';

jest.setTimeout(300_000);

const ADMIN_URL = process.env['TEST_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * A TCP proxy in front of the machine's PostgreSQL that the test takes away (every connection cut,
 * new ones refused) and brings back on the same port: what the bridge sees of a database that
 * restarts or a network that drops.
 */
class DatabaseProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();

  constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  async up(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
  }

  async down(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

async function v3Status(stack: LocalStack): Promise<{ status: number; error: string | undefined }> {
  // A hang would fail the test by this abort, not pass it.
  const res = await fetch(`${stack.url}/api/v3/transactions?limit=5&sort=desc`, { signal: AbortSignal.timeout(20_000) });
  const body = (await res.json()) as { error?: string };
  return { status: res.status, error: body.error };
}

/**
 * The index database goes away mid-ingest while transfers flow on the embedded chain: the
 * pipeline waits and resumes; v3 answers 503 meanwhile (never 500, never a hang); v2 keeps
 * answering; afterwards every masterchain block is indexed once: each shard block's transactions
 * equal v2 getBlockTransactions hash by hash, and no transaction is stored twice. Twice per
 * outage kind: the database unreachable (a proxy closed for seconds) and its backends terminated
 * (pg_terminate_backend of the bridge's connections, as an administrator or a failover does).
 */
describe('the index database goes away mid-ingest (postgres)', () => {
  let db: TestDatabase;
  let stack: LocalStack;
  let proxy: DatabaseProxy;
  let index: IndexService;
  let dbName: string;

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    const direct = new URL(db.url!);
    dbName = direct.pathname.slice(1);
    proxy = new DatabaseProxy(await freePort(), { host: direct.hostname, port: Number(direct.port || 5432) });
    await proxy.up();
    const viaProxy = new URL(db.url!);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    stack = await startLocalStack(['--shards', '2', '--block-interval', '300', '--index', 'on', '--database-url', viaProxy.toString()]);
    index = stack.server.services.index!;
  });

  afterAll(async () => {
    await stack?.stop();
    await proxy?.down();
    await db?.drop();
  });

  it('waits, answers v3 503 and v2 200 meanwhile, resumes with no gap and no duplicate', async () => {
    const recipients = Array.from({ length: 3 }, (_, i) => new Address(0, Buffer.alloc(32, 0x21 + i)));
    let sending = true;
    let sent = 0;
    const transfers = (async () => {
      while (sending) {
        await sendTransfer(stack, recipients, toNano('0.01'));
        sent++;
        await nextBlock(stack);
      }
    })();
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    const v3During: number[] = [];
    const v2During: number[] = [];
    try {
      await until(() => (index.health().status.committedMcSeqno ?? 0) >= 3, 60_000, 'the index to start');
      for (let outage = 0; outage < 4; outage++) {
        const before = index.health().status.committedMcSeqno ?? 0;
        if (outage % 2 === 0) {
          await proxy.down();
          // Down until the bridge has seen it (its next query fails), and a while longer.
          await until(() => !index.health().available, 30_000, 'the index to see its database gone');
          // A commit sent before the proxy went down may still land, and it holds a whole batch (up
          // to 8 masterchain blocks while catching up: `before + 1` failed with +3); once the index
          // has seen the outage and that commit settled, nothing more is committed until it ends.
          await new Promise((resolve) => setTimeout(resolve, 500));
          const settled = index.health().status.committedMcSeqno ?? 0;
          for (let i = 0; i < 3; i++) {
            const v3 = await v3Status(stack);
            v3During.push(v3.status);
            expect(v3.error).toMatch(/index database unavailable|not available/);
            v2During.push((await callV2(stack, 'GET', 'getMasterchainInfo', {})).status);
            await new Promise((resolve) => setTimeout(resolve, 500));
          }
          expect(index.health().status.committedMcSeqno ?? 0).toBe(settled);
          await proxy.up();
        } else {
          // Terminated backends, three times in a row: every connection the bridge holds, its writer's too.
          for (let round = 0; round < 3; round++) {
            await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [dbName]);
            const v3 = await v3Status(stack);
            v3During.push(v3.status);
            v2During.push((await callV2(stack, 'GET', 'getMasterchainInfo', {})).status);
            await new Promise((resolve) => setTimeout(resolve, 300));
          }
        }
        // It resumes: blocks after the outage are committed.
        await until(() => index.health().available && (index.health().status.committedMcSeqno ?? 0) > before + 2, 60_000, `the index to resume after outage ${outage}`);
      }
    } finally {
      sending = false;
      await transfers;
      await admin.end();
    }
    expect(sent).toBeGreaterThan(3);
    // 503 while away (a terminated backend may also be retried and answer 200); never 500, never a hang.
    expect(v3During.every((status) => status === 503 || status === 200)).toBe(true);
    expect(v3During.filter((status) => status === 503).length).toBeGreaterThanOrEqual(6);
    expect(v2During.every((status) => status === 200)).toBe(true);

    const head = (await callV2<{ last: { seqno: number } }>(stack, 'GET', 'getMasterchainInfo', {})).body.result!.last.seqno;
    await until(() => (index.health().status.committedMcSeqno ?? 0) >= head, 120_000, `index reaches ${head}`);
    expect(index.health()).toMatchObject({ available: true });
    expect((await v3Status(stack)).status).toBe(200);

    const pool = index.store.pool;
    // No gap: every masterchain block from the first is indexed, once.
    const { rows: mc } = await pool.query<{ seqno: number }>('select seqno from blocks where workchain = -1 order by seqno');
    expect(mc.map((r) => r.seqno)).toEqual(Array.from({ length: mc.length }, (_, i) => i + 1));
    expect(mc.length).toBeGreaterThanOrEqual(head);
    // No duplicate transaction or block.
    const { rows: dupTx } = await pool.query<{ n: string }>('select count(*) - count(distinct hash) as n from transactions');
    expect(dupTx[0]!.n).toBe('0');
    const { rows: dupBlocks } = await pool.query<{ n: string }>('select count(*) - count(distinct (workchain, shard, seqno)) as n from blocks');
    expect(dupBlocks[0]!.n).toBe('0');
    // Every shard block's transactions equal v2's, hash by hash.
    const { rows: blocks } = await pool.query<{ workchain: number; shard: string; seqno: number }>('select workchain, shard::text, seqno from blocks order by mc_block_seqno, workchain, shard, seqno');
    let checked = 0;
    for (const block of blocks) {
      const listed = await callV2<{ transactions: { hash: string }[] }>(stack, 'GET', 'getBlockTransactions', { workchain: block.workchain, shard: block.shard, seqno: block.seqno, count: 256 });
      const v2 = listed.body.result!.transactions.map((t) => Buffer.from(t.hash, 'base64').toString('hex')).sort();
      const { rows } = await pool.query<{ hash: Buffer }>('select hash from transactions where block_workchain = $1 and block_shard = $2 and block_seqno = $3', [block.workchain, block.shard, block.seqno]);
      expect(rows.map((r) => r.hash.toString('hex')).sort()).toEqual(v2);
      checked += v2.length;
    }
    expect(checked).toBeGreaterThanOrEqual(sent * 4);
  });
});
