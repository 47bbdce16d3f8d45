import { IndexHeadWatcher, type IndexHead } from '../../src/v3';
import { scriptedDatabase } from './scriptedDatabase';

/**
 * --v3-head-warm (src/v3/head.ts): a newer index head is published only once the keys read at
 * the published one are computed for it, at most `maxDelayMs` after it was reported; meanwhile
 * requests key by the published head. Over a database the test answers by hand, and warm
 * functions the test settles: what is warmed, when the head is published (never later than the
 * bound, never later than the last warm key), and what is never warmed (a rollback, no key).
 */

const row = (seqno: number, root = seqno) => ({
  mc_seqno: seqno,
  root_hash: Buffer.alloc(32, root),
  first_mc_seqno: 1,
  committed_at: `2026-11-27 05:00:${String(seqno).padStart(2, '0')}.123456+00`,
  backfill_next: null,
});

const settle = () => new Promise((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The published head now (not a read under way). */
function published(watcher: IndexHeadWatcher): number | undefined {
  const head = watcher.current();
  if (head instanceof Promise) throw new Error('a head read is under way');
  return head?.mcSeqno;
}

/** A warm function whose calls the test sees and settles. */
function warmKey() {
  const calls: { head: number; done(kept: boolean): void }[] = [];
  const warm = (head: IndexHead) => new Promise<boolean>((resolve) => calls.push({ head: head.mcSeqno, done: resolve }));
  return { calls, warm };
}

async function startedAt(seqno: number, maxDelayMs: number, concurrency?: number) {
  const { db, pending } = scriptedDatabase();
  const watcher = new IndexHeadWatcher(db, { pollMs: 60_000, warm: { maxDelayMs, maxKeys: 4, ...(concurrency ? { concurrency } : {}) } }).start();
  pending.shift()!.resolve([row(seqno)]);
  await settle();
  return { watcher, pending };
}

test('after a commit report the published head stays while the keys read at it are computed for the new one, then the new one is published at once', async () => {
  const { watcher, pending } = await startedAt(5, 60_000, 2);
  try {
    expect(published(watcher)).toBe(5);
    const keys = [warmKey(), warmKey(), warmKey()];
    keys.forEach((key, i) => watcher.readAt(`k${i}`, key.warm));
    watcher.refresh();
    // Requests go on at the published head (no wait) while the new head is read.
    expect(published(watcher)).toBe(5);
    expect(watcher.warming()).toBeUndefined();
    pending.shift()!.resolve([row(6)]);
    await settle();
    expect(watcher.warming()?.mcSeqno).toBe(6);
    expect(published(watcher)).toBe(5);
    // Two at a time, the most recently read first.
    expect(keys.map((k) => k.calls.length)).toEqual([0, 1, 1]);
    expect(keys[2]!.calls[0]!.head).toBe(6);
    keys[2]!.calls[0]!.done(true);
    await settle();
    await settle();
    expect(keys[0]!.calls.length).toBe(1);
    keys[1]!.calls[0]!.done(true);
    await settle();
    expect(published(watcher)).toBe(5);
    const lastDone = performance.now();
    keys[0]!.calls[0]!.done(true);
    // Published as soon as the last key is warm, not at the bound (a minute here).
    while (published(watcher) !== 6) {
      await settle();
      expect(performance.now() - lastDone).toBeLessThan(250);
    }
    expect(watcher.warming()).toBeUndefined();
  } finally {
    watcher.stop();
  }
});

test('a head whose keys are slow is published at the bound after the commit report, never later', async () => {
  const bound = 150;
  const { watcher, pending } = await startedAt(5, bound);
  try {
    const slow = warmKey();
    watcher.readAt('slow', slow.warm);
    const reported = performance.now();
    watcher.refresh();
    pending.shift()!.resolve([row(6)]);
    await settle();
    expect(slow.calls.length).toBe(1);
    while (published(watcher) !== 6 && performance.now() - reported < bound + 1000) await sleep(5);
    const delay = performance.now() - reported;
    expect(published(watcher)).toBe(6);
    expect(delay).toBeGreaterThanOrEqual(bound - 5);
    expect(delay).toBeLessThan(bound + 60);
    // The slow key ends later: nothing moves back.
    slow.calls[0]!.done(true);
    await settle();
    expect(published(watcher)).toBe(6);
  } finally {
    watcher.stop();
  }
});

test('a commit reported and not read by the bound: no head (nothing cached) until the read, then it is published', async () => {
  const bound = 60;
  const { watcher, pending } = await startedAt(5, bound);
  try {
    watcher.readAt('k', warmKey().warm);
    watcher.refresh();
    await sleep(bound + 30);
    expect(published(watcher)).toBeUndefined();
    pending.shift()!.resolve([row(6)]);
    await settle();
    expect(published(watcher)).toBe(6);
  } finally {
    watcher.stop();
  }
});

test('no key read at the published head: the new head is published with its read; a key read two heads ago is no longer warmed', async () => {
  const { watcher, pending } = await startedAt(5, 60_000);
  try {
    const old = warmKey();
    watcher.readAt('old', old.warm);
    // Published 6 after warming "old" (read at 5).
    watcher.refresh();
    pending.shift()!.resolve([row(6)]);
    await settle();
    old.calls[0]!.done(true);
    await settle();
    await settle();
    expect(published(watcher)).toBe(6);
    // 7: "old" was read at 5, the head before the published 6: still warmed.
    watcher.refresh();
    pending.shift()!.resolve([row(7)]);
    await settle();
    expect(old.calls.length).toBe(2);
    old.calls[1]!.done(true);
    await settle();
    await settle();
    expect(published(watcher)).toBe(7);
    // 8: nothing read at 6 or 7: published with its read, "old" forgotten.
    watcher.refresh();
    pending.shift()!.resolve([row(8)]);
    await settle();
    expect(published(watcher)).toBe(8);
    expect(old.calls.length).toBe(2);
  } finally {
    watcher.stop();
  }
});

test('a key not kept is no longer warmed; a newer head read while warming restarts the round for it', async () => {
  const { watcher, pending } = await startedAt(5, 60_000, 1);
  try {
    const big = warmKey();
    const small = warmKey();
    watcher.readAt('big', big.warm);
    watcher.readAt('small', small.warm);
    watcher.refresh();
    pending.shift()!.resolve([row(6)]);
    await settle();
    expect(small.calls.map((c) => c.head)).toEqual([6]);
    // Another commit before the first key is warm: the round restarts at 7.
    watcher.refresh();
    pending.shift()!.resolve([row(7)]);
    await settle();
    expect(watcher.warming()?.mcSeqno).toBe(7);
    small.calls[0]!.done(true);
    await settle();
    await settle();
    expect(small.calls.map((c) => c.head)).toEqual([6, 7]);
    small.calls[1]!.done(true);
    await settle();
    await settle();
    expect(big.calls.map((c) => c.head)).toEqual([7]);
    big.calls[0]!.done(false);
    await settle();
    await settle();
    expect(published(watcher)).toBe(7);
    watcher.refresh();
    pending.shift()!.resolve([row(8)]);
    await settle();
    expect(big.calls).toHaveLength(1);
    expect(small.calls.map((c) => c.head)).toEqual([6, 7, 8]);
  } finally {
    watcher.stop();
  }
});

test('a rollback report drops the published head at once (requests wait for the read); a head read going back is published at once', async () => {
  const { watcher, pending } = await startedAt(9, 60_000);
  try {
    const key = warmKey();
    watcher.readAt('k', key.warm);
    watcher.refresh(true);
    expect(watcher.current()).toBeInstanceOf(Promise);
    pending.shift()!.resolve([row(7)]);
    await settle();
    expect(published(watcher)).toBe(7);
    expect(key.calls).toHaveLength(0);
    // A head read by the poll at the same seqno with another root hash (another process rolled back and went on).
    watcher.readAt('k', key.warm);
    watcher.refresh();
    pending.shift()!.resolve([row(7, 0x77)]);
    await settle();
    expect(published(watcher)).toBe(7);
    expect(watcher.current()).toMatchObject({ rootHash: Buffer.alloc(32, 0x77) });
    expect(key.calls).toHaveLength(0);
  } finally {
    watcher.stop();
  }
});

test('the same head read again after a report (a replica not moved) keeps the published head and warms nothing', async () => {
  const { watcher, pending } = await startedAt(5, 60_000);
  try {
    const key = warmKey();
    watcher.readAt('k', key.warm);
    watcher.refresh();
    pending.shift()!.resolve([row(5)]);
    await settle();
    expect(published(watcher)).toBe(5);
    expect(watcher.warming()).toBeUndefined();
    expect(key.calls).toHaveLength(0);
  } finally {
    watcher.stop();
  }
});

test('the index unavailable: no head, warming or not', async () => {
  const { db, pending } = scriptedDatabase();
  let available = true;
  const watcher = new IndexHeadWatcher(db, { pollMs: 60_000, warm: { maxDelayMs: 200, maxKeys: 4 }, available: () => available }).start();
  try {
    pending.shift()!.resolve([row(3)]);
    await settle();
    expect(published(watcher)).toBe(3);
    available = false;
    expect(published(watcher)).toBeUndefined();
  } finally {
    watcher.stop();
  }
});
