import { IndexHeadWatcher, type V3Database } from '../../src/v3';

/**
 * The head of the cache at the index head (src/v3/head.ts) over a database the test answers by
 * hand: what it keys by, when it knows nothing, and that a read sent before a commit report never
 * becomes the head after it.
 */

interface Pending {
  resolve(rows: object[]): void;
  reject(err: Error): void;
}

function scriptedDatabase() {
  const pending: Pending[] = [];
  const db: V3Database = {
    query: <Row extends object>() =>
      new Promise<Row[]>((resolve, reject) => pending.push({ resolve: resolve as (rows: object[]) => void, reject })),
  };
  return { db, pending };
}

const row = (seqno: number, committedAt = `2026-11-27 05:00:0${seqno}.123456+00`) => ({
  mc_seqno: seqno,
  root_hash: Buffer.alloc(32, seqno),
  first_mc_seqno: 1,
  committed_at: committedAt,
  backfill_next: null,
});

const settle = () => new Promise((resolve) => setImmediate(resolve));

test('the head is the checkpoint row; unknown before the first read, after a failure and after a commit report until read again', async () => {
  const { db, pending } = scriptedDatabase();
  const watcher = new IndexHeadWatcher(db, { pollMs: 60_000 }).start();
  try {
    expect(watcher.current()).toBeUndefined();
    pending.shift()!.resolve([row(5)]);
    await settle();
    expect(watcher.current()?.mcSeqno).toBe(5);
    expect(watcher.current()?.token).toContain('2026-11-27 05:00:05.123456');
    // This process's index committed: nothing is cached until the next read.
    watcher.refresh();
    expect(watcher.current()).toBeUndefined();
    pending.shift()!.reject(new Error('database away'));
    await settle();
    expect(watcher.current()).toBeUndefined();
    watcher.refresh();
    pending.shift()!.resolve([row(6)]);
    await settle();
    expect(watcher.current()?.mcSeqno).toBe(6);
    // No checkpoint (an empty index): no head.
    watcher.refresh();
    pending.shift()!.resolve([]);
    await settle();
    expect(watcher.current()).toBeUndefined();
  } finally {
    watcher.stop();
  }
});

test('a read sent before a commit report is dropped and read again: the old head never comes back', async () => {
  const { db, pending } = scriptedDatabase();
  const watcher = new IndexHeadWatcher(db, { pollMs: 60_000 }).start();
  try {
    expect(pending).toHaveLength(1);
    watcher.refresh();
    // One query at a time: the second read waits for the first.
    expect(pending).toHaveLength(1);
    pending.shift()!.resolve([row(7)]);
    await settle();
    expect(watcher.current()).toBeUndefined();
    expect(pending).toHaveLength(1);
    pending.shift()!.resolve([row(8)]);
    await settle();
    expect(watcher.current()?.mcSeqno).toBe(8);
  } finally {
    watcher.stop();
  }
});

test('the same block after a rollback is another key (committed_at is in it); a head read too long ago is not used', async () => {
  const { db, pending } = scriptedDatabase();
  const watcher = new IndexHeadWatcher(db, { pollMs: 60_000, staleAfterMs: 50 }).start();
  try {
    pending.shift()!.resolve([row(9, '2026-11-27 05:00:09.000001+00')]);
    await settle();
    const first = watcher.current()!.token;
    watcher.refresh();
    pending.shift()!.resolve([row(9, '2026-11-27 05:00:10.000002+00')]);
    await settle();
    expect(watcher.current()!.token).not.toBe(first);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(watcher.current()).toBeUndefined();
  } finally {
    watcher.stop();
  }
});
