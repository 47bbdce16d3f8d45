import type { Logger } from 'pino';
import { advanceBackfill, beginAtCheckpoint, readCheckpoint, type BackfillMark, type WriterLease } from '../indexdb';
import { writeCompletedTraceActions } from '../actions';
import { indexMetrics } from '../metrics';
import { FetchStoppedError } from './blockFetcher';
import { writeMcBlock } from './blockRows';
import { isConnectionError } from './connectionErrors';
import type { McBlockSource } from './mcBlockSource';
import { PrefetchWindow } from './prefetch';

/** Masterchain blocks the backfill prepares ahead of its commit (bounded: it shares servers and the database with the live lane). */
const BACKFILL_AHEAD = 4;
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 30_000;
const PROGRESS_LOG_MS = 60_000;

/** Where a backfill stands: blocks `from` .. `next` - 1 are in, `next` .. `until` - 1 are still missing. */
export interface BackfillProgress {
  readonly from: number;
  readonly next: number;
  readonly until: number;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * `--index-from N` on a remote network: the live lane starts at the head, and this lane fills
 * N .. (the live lane's first block - 1) from the lite servers (archival ones when there are),
 * oldest first, one masterchain block per transaction with its mark (`advanceBackfill`), so a
 * restart resumes with no gap and no duplicate. It is always behind the live edge (it stops below
 * the live lane's first block), fetches a few blocks ahead only, never emits blocks to streaming
 * (history, not news), and its failures are retried here: they never stop the live lane.
 */
export class BackfillLane {
  private warnedOtherStart = false;
  private lastLog = 0;

  constructor(
    private readonly source: McBlockSource,
    private readonly logger: Logger,
    /** --index-from; undefined: only a backfill a previous run left under way is resumed. */
    private readonly from: number | undefined,
    private readonly onProgress: (progress: BackfillProgress | null) => void,
  ) {}

  /** Runs until the backfill is complete or `ended()` (the lease is gone or the indexer stops). */
  async run(lease: WriterLease, ended: () => boolean): Promise<void> {
    let delay = RETRY_FIRST_MS;
    while (!ended()) {
      try {
        if (await this.pass(lease, ended)) return;
        await sleep(RETRY_FIRST_MS);
      } catch (err) {
        if (ended() || err instanceof FetchStoppedError || isConnectionError(err)) return;
        this.logger.warn({ err: (err as Error).message, retryMs: delay }, 'index backfill failed; retrying');
        await sleep(delay);
        delay = Math.min(delay * 2, RETRY_MAX_MS);
      }
    }
  }

  /** One run from the stored mark: true when the backfill is complete (or there is none to do). */
  private async pass(lease: WriterLease, ended: () => boolean): Promise<boolean> {
    const checkpoint = await lease.run((client) => readCheckpoint(client));
    if (!checkpoint) return false; // the live lane has not committed its first block yet
    let mark: BackfillMark | null = checkpoint.backfill ?? null;
    if (!mark) {
      if (this.from === undefined || this.from >= checkpoint.firstMcSeqno) {
        this.onProgress(null);
        return true;
      }
      mark = { from: this.from, next: this.from };
    } else if (this.from !== undefined && mark.from !== this.from && !this.warnedOtherStart) {
      this.warnedOtherStart = true;
      this.logger.warn({ stored: mark.from, asked: this.from }, 'a backfill from another block is under way; it goes on, --index-from applies once it is complete');
    }
    const until = checkpoint.firstMcSeqno;
    const start = mark.from;
    this.onProgress({ from: mark.from, next: mark.next, until });
    this.logger.info({ from: mark.from, next: mark.next, until }, 'index backfill: filling the blocks below the first indexed one');
    const tops = mark.next > 1 ? (await this.source.head(mark.next - 1)).parsed.shardTops : [];
    const window = new PrefetchWindow(this.source, mark.next, tops);
    while (mark) {
      if (ended()) throw new FetchStoppedError();
      window.fill(Math.min(until - 1, mark.next + BACKFILL_AHEAD - 1));
      const block = await window.take(mark.next);
      const at: BackfillMark = mark;
      const started = performance.now();
      mark = await lease.run(async (client) => {
        try {
          const stored = await beginAtCheckpoint(client);
          if (!stored || stored.firstMcSeqno !== until) throw new Error('the index checkpoint changed under the backfill');
          const written = await writeMcBlock(client, block);
          const moved = await advanceBackfill(client, at);
          await writeCompletedTraceActions(client, [...written.traces]);
          await client.query('commit');
          for (const [table, count] of Object.entries(written.counts)) indexMetrics.rows.inc({ table }, count);
          return moved;
        } catch (err) {
          await client.query('rollback').catch(() => {});
          throw err;
        }
      });
      indexMetrics.writeSeconds.observe((performance.now() - started) / 1000);
      indexMetrics.batches.inc();
      window.done(at.next);
      this.onProgress(mark ? { from: mark.from, next: mark.next, until } : null);
      if (mark && Date.now() - this.lastLog >= PROGRESS_LOG_MS) {
        this.lastLog = Date.now();
        this.logger.info({ from: mark.from, next: mark.next, until, remaining: until - mark.next }, 'index backfill progress');
      }
    }
    this.logger.info({ from: start, until }, 'index backfill complete');
    return true;
  }
}
