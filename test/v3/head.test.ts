import { IndexHeadWatcher, type IndexHead } from '../../src/v3';
import { scriptedDatabase } from './scriptedDatabase';

/**
 * The head of the cache at the index head (src/v3/head.ts) over a database the test answers by
 * hand: what it keys by, when it knows nothing, and that a read sent before a commit report never
 * becomes the head after it.
 */

const row = (seqno: number, committedAt = `2026-11-27 05:00:0${seqno}.123456+00`) => ({
  mc_seqno: seqno,
  root_hash: Buffer.alloc(32, seqno),
  first_mc_seqno: 1,
  committed_at: committedAt,
  backfill_next: null,
});

const settle = () => new Promise((resolve) => setImmediate(resolve));

/** The head known now (not a read under way). */
function known(watcher: IndexHeadWatcher): IndexHead | undefined {
  const head = watcher.current();
  if (head instanceof Promise) throw new Error('a head read is under way');
  return head;
}

test('the head is the checkpoint row; unknown before the first read, after a failure; after a commit report the requests wait for the next read', async () => {
  const { db, pending } = scriptedDatabase();
  const watcher = new IndexHeadWatcher(db, { pollMs: 60_000 }).start();
  try {
    expect(known(watcher)).toBeUndefined();
    pending.shift()!.resolve([row(5)]);
    await settle();
    expect(known(watcher)?.mcSeqno).toBe(5);
    expect(known(watcher)?.token).toContain('2026-11-27 05:00:05.123456');
    // This process's index committed: the old head is gone, a request waits for the new one.
    watcher.refresh();
    const waiting = watcher.current();
    expect(waiting).toBeInstanceOf(Promise);
    pending.shift()!.reject(new Error('database away'));
    expect(await waiting).toBeUndefined();
    expect(known(watcher)).toBeUndefined();
    watcher.refresh();
    const next = watcher.current();
    pending.shift()!.resolve([row(6)]);
    expect((await next)?.mcSeqno).toBe(6);
    expect(known(watcher)?.mcSeqno).toBe(6);
    // No checkpoint (an empty index): no head.
    watcher.refresh();
    pending.shift()!.resolve([]);
    await settle();
    expect(known(watcher)).toBeUndefined();
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
    const waiting = watcher.current();
    // One query at a time: the second read waits for the first.
    expect(pending).toHaveLength(1);
    pending.shift()!.resolve([row(7)]);
    await settle();
    expect(watcher.current()).toBe(waiting);
    expect(pending).toHaveLength(1);
    pending.shift()!.resolve([row(8)]);
    expect((await waiting)?.mcSeqno).toBe(8);
    expect(known(watcher)?.mcSeqno).toBe(8);
  } finally {
    watcher.stop();
  }
});

test('a request waits at most HEAD_WAIT_MS for the head after a commit report', async () => {
  const { db, pending } = scriptedDatabase();
  const watcher = new IndexHeadWatcher(db, { pollMs: 60_000 }).start();
  try {
    pending.shift()!.resolve([row(3)]);
    await settle();
    watcher.refresh();
    const started = performance.now();
    expect(await watcher.current()).toBeUndefined();
    expect(performance.now() - started).toBeGreaterThanOrEqual(90);
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
    const first = known(watcher)!.token;
    watcher.refresh();
    pending.shift()!.resolve([row(9, '2026-11-27 05:00:10.000002+00')]);
    await settle();
    expect(known(watcher)!.token).not.toBe(first);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(known(watcher)).toBeUndefined();
  } finally {
    watcher.stop();
  }
});
