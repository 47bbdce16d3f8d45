import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../helpers/indexDatabases';
import { startLocalStack, type LocalStack } from '../helpers/localStack';

jest.setTimeout(300_000);

const ROOT = path.join(__dirname, '..', '..');

interface Instance {
  readonly child: ChildProcess;
  readonly exited: Promise<void>;
  /** Resolves when this instance logs that it became the writer. */
  readonly writer: Promise<number>;
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
      [path.join(ROOT, 'bin', 'ton-http-bridge.js'), 'index', '--network', 'local', '--liteservers', configFile, '--metrics-port', '0', '--database-url', db.url!],
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
    const instance = { child, exited, writer };
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
    const before = await checkpoint();
    await new Promise((resolve) => setTimeout(resolve, 5000));
    expect(otherBecameWriter).toBe(false);
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
      const { rows } = await client.query<{ n: string; hi: number }>('select count(*) as n, max(seqno) as hi from blocks where workchain = -1');
      const cp = await client.query<{ mc_seqno: number }>('select mc_seqno from index_checkpoint');
      expect(Number(rows[0]!.n)).toBe(rows[0]!.hi);
      expect(rows[0]!.hi).toBe(cp.rows[0]!.mc_seqno);
    } finally {
      await client.end();
    }
  });
});
