import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { IndexStore } from '../../src/indexdb';
import { Indexer } from '../../src/indexer';
import type { LitePool } from '../../src/liteclient';
import { createTestDatabase, type TestDatabase } from '../helpers/indexDatabases';
import { startLocalStack, type LocalStack } from '../helpers/localStack';

jest.setTimeout(300_000);

const ROOT = path.join(__dirname, '..', '..');

interface Instance {
  readonly child: ChildProcess;
  readonly exited: Promise<void>;
  /** Resolves when this instance logs that it became the writer. */
  readonly writer: Promise<number>;
  /** How many times it became the writer (a lease that flapped: more than once). */
  elected(): number;
}

/**
 * Two `ton-http-bridge index` processes on one PostgreSQL: exactly one writes (the advisory-lock
 * holder); SIGKILL it and the other takes over within 10 s and goes on committing. (Several
 * writers need a shared database server: the embedded PGlite serves one process by design.)
 */
describe('index writer election (postgres)', () => {
  let db: TestDatabase;
  let stack: LocalStack;
  let dir: string;
  let configFile: string;
  const instances: Instance[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    dir = mkdtempSync(path.join(tmpdir(), 'index-election-'));
    stack = await startLocalStack(['--block-interval', '300', '--index', 'off']);
    configFile = path.join(dir, 'local.json');
    writeFileSync(configFile, stack.localnet.globalConfigJson);
  });

  afterAll(async () => {
    for (const instance of instances) instance.child.kill('SIGKILL');
    await Promise.all(instances.map((i) => i.exited));
    await stack?.stop();
    await db?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  function start(): Instance {
    const child = spawn(
      process.execPath,
      [
        path.join(ROOT, 'bin', 'ton-http-bridge.js'),
        'index',
        '--network',
        'local',
        '--liteservers',
        configFile,
        '--metrics-port',
        '0',
        '--database-url',
        db.url!,
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    const writer = new Promise<number>((resolve) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('this instance is the index writer')) resolve(Date.now());
      });
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const instance = { child, exited, writer, elected: () => output.split('this instance is the index writer').length - 1 };
    instances.push(instance);
    return instance;
  }

  async function checkpoint(): Promise<number> {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ mc_seqno: number }>('select mc_seqno from index_checkpoint');
      return rows[0]?.mc_seqno ?? 0;
    } finally {
      await client.end();
    }
  }

  it('elects one writer, and another takes over within 10 s of its death', async () => {
    const a = start();
    const b = start();
    const first = await Promise.race([a.writer.then(() => a), b.writer.then(() => b)]);
    const other = first === a ? b : a;
    // Both run; only one is the writer for a while.
    let otherBecameWriter = false;
    void other.writer.then(() => (otherBecameWriter = true));
    // The writer's first commit (its first block waits for the TVM threads' start: seconds on a loaded machine).
    let before = await checkpoint();
    for (let i = 0; i < 600 && before === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      before = await checkpoint();
    }
    await new Promise((resolve) => setTimeout(resolve, 5000));
    expect(otherBecameWriter).toBe(false);
    // The writer kept its lease all along (it never released and took it again).
    expect(first.elected()).toBe(1);
    const during = await checkpoint();
    expect(during).toBeGreaterThan(before);
    const killedAt = Date.now();
    first.child.kill('SIGKILL');
    const tookOverAt = await other.writer;
    expect(tookOverAt - killedAt).toBeLessThan(10_000);
    // The new writer commits beyond where the old one stopped.
    const stoppedAt = await checkpoint();
    let now = stoppedAt;
    for (let i = 0; i < 100 && now <= stoppedAt; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      now = await checkpoint();
    }
    expect(now).toBeGreaterThan(stoppedAt);
    // Whole blocks only: the masterchain blocks are exactly 1..checkpoint.
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      // One statement, so one snapshot: the new writer keeps committing while this reads, and two
      // statements could see the blocks of one commit and the checkpoint of the next.
      const { rows } = await client.query<{ n: string; hi: number; mc_seqno: number }>(
        `select (select count(*) from blocks where workchain = -1) as n,
                (select max(seqno) from blocks where workchain = -1) as hi,
                (select mc_seqno from index_checkpoint) as mc_seqno`,
      );
      expect(Number(rows[0]!.n)).toBe(rows[0]!.hi);
      expect(rows[0]!.hi).toBe(rows[0]!.mc_seqno);
    } finally {
      await client.end();
    }
  });

  it('keeps the lease through transient pipeline errors: the other instance never writes', async () => {
    // In this process: two indexers on one database, each with a store of its own, as two
    // instances have. A's pool fails every fifth session it opens (as a lite answer past its
    // deadline on a loaded machine does), so A's pipeline fails again and again; it retries under
    // its lease, and B (trying every second) never gets it. An indexer that released the lease on
    // such an error would hand the writing to B within a few failures.
    for (const instance of instances) instance.child.kill('SIGKILL');
    await Promise.all(instances.map((i) => i.exited));
    const logger = pino({ level: 'silent' });
    const pool = stack.server.pool;
    let sessions = 0;
    let injected = 0;
    let faulty = true;
    const flaky = new Proxy(pool, {
      get(target, prop) {
        if (prop === 'openSession') {
          return (...args: Parameters<LitePool['openSession']>) => {
            if (faulty && ++sessions % 5 === 0) {
              injected++;
              throw new Error('injected: a lite answer past its deadline');
            }
            return target.openSession(...args);
          };
        }
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    }) as LitePool;
    const storeA = await IndexStore.open({ databaseUrl: db.url, indexDir: null, logger });
    const storeB = await IndexStore.open({ databaseUrl: db.url, indexDir: null, logger });
    const a = new Indexer(storeA, flaky, logger, { embeddedChain: true });
    const b = new Indexer(storeB, pool, logger, { embeddedChain: true });
    const flaps: string[] = [];
    let watch: NodeJS.Timeout | undefined;
    try {
      a.start();
      for (let i = 0; i < 600 && !a.status().writer; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(a.status().writer).toBe(true);
      b.start();
      watch = setInterval(() => {
        if (!a.status().writer) flaps.push('A lost the lease');
        if (b.status().writer) flaps.push('B became the writer');
      }, 20);
      const before = await checkpoint();
      // Until A met a dozen injected failures (and at least 8 s: B tries every second).
      const started = Date.now();
      for (let i = 0; i < 1500 && flaps.length === 0 && (injected < 12 || Date.now() - started < 8000); i++)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(flaps).toEqual([]);
      expect(injected).toBeGreaterThanOrEqual(12);
      expect(a.status().lastError).toContain('injected');
      expect(b.status().state).toBe('reader');
      // A still indexes: its retries go on to commit.
      faulty = false;
      let after = await checkpoint();
      for (let i = 0; i < 300 && after <= before; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        after = await checkpoint();
      }
      expect(after).toBeGreaterThan(before);
      expect(flaps).toEqual([]);
    } finally {
      clearInterval(watch);
      await a.stop();
      await b.stop();
      await storeA.close();
      await storeB.close();
    }
  });
});
