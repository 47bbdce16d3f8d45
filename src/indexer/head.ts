import type { LitePool } from '../liteclient';

/**
 * The pool's verified masterchain head, as the pipelines that follow it (the index writer, the
 * streaming API's live source without the index) read it.
 */

/** The newest masterchain seqno some trusted server reports (proven when the pool verifies), null before any. */
export function verifiedHead(pool: LitePool): number | null {
  let best: number | null = null;
  const servers = pool.status().length;
  for (let index = 0; index < servers; index++) {
    if (!pool.heads.trusted(index)) continue;
    const seqno = pool.heads.headOf(index)?.last.seqno;
    if (seqno !== undefined && (best === null || seqno > best)) best = seqno;
  }
  return best;
}

/** Resolves at the pool's next head report, or after `timeoutMs`. */
export function waitForHead(pool: LitePool, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      pool.heads.off('head', done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    timer.unref();
    pool.heads.on('head', done);
  });
}
