import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import type { BlockRef } from '../proofs';
import {
  beginAtCheckpoint,
  CheckpointMovedError,
  readCodeInterfaces,
  pruneBefore,
  readCheckpoint,
  rollbackTo,
  tryAcquireWriter,
  type Checkpoint,
  type IndexStore,
  type LatestAccountStateRow,
  type MessageRow,
  type TokenEventRows,
  type TokenStateRows,
  type TraceRow,
  type TransactionRow,
  type WriterLease,
} from '../indexdb';
import type { LitePool } from '../liteclient';
import { BlockFetcher, BlockUnavailableError, FetchStoppedError } from './blockFetcher';
import { McBlockSource, type PreparedMcBlock } from './mcBlockSource';
import { indexMetrics } from '../metrics';
import { verifiedHead, waitForHead } from './head';
import { writeCompletedTraceActions } from '../actions';
import { TokenDetector } from './tokenDetection';
import type { DomainMethod } from './dns';
import { BackfillLane, type BackfillProgress } from './backfill';
import { writeMcBlock, type WrittenBlock } from './blockRows';
import { BASELINE_SQL, BASELINE_TABLES, baselineOf, STATISTICS_GROUPS, StatisticsSchedule } from './statistics';
import { isConnectionError } from './connectionErrors';
import { PrefetchWindow } from './prefetch';
import { heldTraces } from './traceInputs';
import type { ApiActivity } from './apiActivity';

export interface IndexerOptions {
  /**
   * First masterchain block to index. On the embedded chain: where an empty index starts (default 1).
   * On a remote network the index starts at the head and a backfill fills this block onwards below it.
   */
  readonly fromSeqno?: number;
  /** The lite servers are the embedded chain (index from genesis; rewinds possible). */
  readonly embeddedChain: boolean;
  /** Delete masterchain blocks older than this many days (0/undefined: keep all). */
  readonly retentionDays?: number;
  /** Masterchain blocks fetched ahead of the commit. */
  readonly fetchAhead?: number;
  /** Detect jetton and NFT contracts and their transfers (default on). */
  readonly detectTokens?: boolean;
  /** The DNS collections whose items' records are indexed (./dns.ts dnsRootsFor; default none). */
  readonly dnsRoots?: ReadonlyMap<string, DomainMethod | 'either'>;
  /**
   * The API this index shares the machine with (its index thread): while it serves requests a
   * catch-up prepares one block at a time and nothing during a commit (writeLoop). Absent: the
   * pipeline always overlaps its stages (`ton-http-bridge index`, tests).
   */
  readonly apiActivity?: ApiActivity;
}

/** What one committed masterchain block added, as the streaming layer consumes it. */
export interface CommittedMcBlock {
  readonly mcSeqno: number;
  readonly id: BlockRef;
  readonly genUtime: number;
  readonly transactions: readonly TransactionRow[];
  readonly messages: readonly MessageRow[];
  readonly accountStates: readonly LatestAccountStateRow[];
  readonly traces: readonly TraceRow[];
  /** The token contracts' new states (a jetton balance change is one) and the block's transfers and burns. */
  readonly tokenStates: TokenStateRows;
  readonly tokenEvents: TokenEventRows;
}

export type IndexState = 'starting' | 'catching_up' | 'live' | 'reader' | 'database_unavailable' | 'stopped';

export interface IndexStatus {
  readonly state: IndexState;
  readonly writer: boolean;
  /** The first masterchain block indexed (the backfill's first once it committed one). */
  readonly firstMcSeqno: number | null;
  readonly committedMcSeqno: number | null;
  /** A backfill under way (`--index-from` on a remote network), null when none. */
  readonly backfill: BackfillProgress | null;
  readonly headMcSeqno: number | null;
  readonly lagBlocks: number | null;
  readonly lagMs: number | null;
  readonly lastError: string | null;
}

/** Before anything is known: the pipeline's first status, and the index's while its store opens. */
export const STARTING_STATUS: IndexStatus = {
  state: 'starting',
  writer: false,
  firstMcSeqno: null,
  committedMcSeqno: null,
  backfill: null,
  headMcSeqno: null,
  lagBlocks: null,
  lagMs: null,
  lastError: null,
};

/** The chain now has another block at a seqno the index committed: roll back. */
class ChainRewoundError extends Error {
  constructor(readonly seqno: number) {
    super(`the chain has another masterchain block ${seqno} than the index`);
  }
}

const DEFAULT_FETCH_AHEAD = 8;
/** Most masterchain blocks committed in one database transaction (those ready together while catching up). */
const MAX_BATCH_BLOCKS = 8;
/** A masterchain block this many behind the head or more: catching up (progress logged per minute). */
const CATCHING_UP_BLOCKS = 10;
/**
 * A catch-up this many blocks behind yields to a busy API (writeLoop); live (a block or two behind)
 * the pipeline never waits for the API: its seal-to-commit latency is a target of its own.
 */
const YIELD_BEHIND_BLOCKS = CATCHING_UP_BLOCKS;
const ELECTION_RETRY_MS = 1000;
/** Longest pause between retries of a pipeline that failed while this instance keeps the writer lease. */
const PIPELINE_RETRY_MAX_MS = 30_000;
const PROGRESS_LOG_MS = 60_000;
/** Chain time between two retention passes, s. */
const RETENTION_EVERY_S = 60;
const ROLLBACK_SEARCH_LIMIT = 100_000;
const STOP_WAIT_MS = 5000;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** The writer's lease is gone (its connection to the database ended): another instance may write now. */
class LeaseLostError extends Error {
  constructor(reason: string) {
    super(`index writer lease lost: ${reason}`);
    this.name = 'LeaseLostError';
  }
}

/** The checkpoint at committed masterchain block `block`, which follows `previous`. */
function checkpointAt(block: PreparedMcBlock, previous: Checkpoint | null): Checkpoint {
  return {
    firstMcSeqno: previous?.firstMcSeqno ?? block.seqno,
    mcSeqno: block.seqno,
    rootHash: block.id.rootHash,
    fileHash: block.id.fileHash,
    genUtime: block.mc.row.gen_utime,
  };
}

/**
 * The block pipeline: follows the pool's verified masterchain head block by block, fetches ahead
 * in parallel (McBlockSource), commits strictly in masterchain order, each block's rows with the
 * checkpoint in one transaction, and emits 'block' (CommittedMcBlock) after each commit. Only the
 * elected writer indexes; every other instance reads the checkpoint for its status.
 */
export class Indexer extends EventEmitter {
  private stopped = false;
  private running: Promise<void> | undefined;
  private lease: WriterLease | null = null;
  private readonly source: McBlockSource;
  private readonly detector: TokenDetector | undefined;
  private readonly backfill: BackfillLane | undefined;
  /** The backfill's first block once it committed one (the index's first block from then on). */
  private backfilledFrom: number | null = null;
  private statusValue: IndexStatus = STARTING_STATUS;
  private lastProgressLog = 0;
  /** Where to start instead of the configured block, when that one turned out unavailable. */
  private startOverride: number | undefined;
  /** The committed head's gen_utime at the last retention pass. */
  private lastRetentionUtime = 0;
  /**
   * When the index's tables are analyzed (statistics.ts): null until the baseline is read, false
   * where the server's autovacuum does it.
   */
  private statistics: StatisticsSchedule | false | null = null;
  /** The ANALYZE (or VACUUM) under way (one at a time). */
  private analyzing: Promise<void> | null = null;
  private committedSinceLog = { blocks: 0, transactions: 0 };

  constructor(
    readonly store: IndexStore,
    private readonly pool: LitePool,
    private readonly logger: Logger,
    private readonly options: IndexerOptions,
  ) {
    super();
    this.setMaxListeners(0);
    const fetcher = new BlockFetcher(pool, logger, () => this.stopped);
    this.detector = options.detectTokens === false ? undefined : new TokenDetector(options.dnsRoots);
    this.source = new McBlockSource(pool, fetcher, logger, this.detector);
    // A remote network: a backfill for --index-from, or one a previous run left under way.
    if (!options.embeddedChain) {
      // Old blocks from archival servers when the pool has any (a non-archival one answers 651 below its window).
      const archival = pool.hasArchival() ? true : undefined;
      const backfillSource = new McBlockSource(pool, new BlockFetcher(pool, logger, () => this.stopped, archival), logger, this.detector, archival, 'backfill');
      this.backfill = new BackfillLane(backfillSource, logger, options.fromSeqno, (progress) => {
        indexMetrics.backfillRemaining.set(progress ? progress.until - progress.next : 0);
        if (progress && progress.next > progress.from) this.backfilledFrom = progress.from;
        this.setStatus({ backfill: progress });
        this.reportFirst(this.statusValue.firstMcSeqno);
      });
    }
  }

  start(): void {
    this.running ??= this.electionLoop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.setStatus({ state: 'stopped' });
    // A block being fetched or committed finishes (a commit is atomic anyway); a fetch stuck on a
    // server is not waited for beyond STOP_WAIT_MS: releasing the lease ends its connection.
    await Promise.race([this.running, sleep(STOP_WAIT_MS)]);
    // An ANALYZE under way finishes (it only reads samples) before the pool may be ended.
    if (this.analyzing) await Promise.race([this.analyzing, sleep(STOP_WAIT_MS)]);
    await this.lease?.release();
    indexMetrics.writer.set(0);
  }

  status(): IndexStatus {
    return this.statusValue;
  }

  private setStatus(patch: Partial<IndexStatus>): void {
    this.statusValue = { ...this.statusValue, ...patch };
  }

  private verifiedHead(): number | null {
    return verifiedHead(this.pool);
  }

  private waitForHead(timeoutMs: number): Promise<void> {
    return waitForHead(this.pool, timeoutMs);
  }

  private async electionLoop(): Promise<void> {
    while (!this.stopped) {
      let lease: WriterLease | null = null;
      let leaseEnded = false;
      try {
        lease = await tryAcquireWriter(this.store, this.logger);
        this.store.markUp();
        if (!lease) {
          indexMetrics.writer.set(0);
          await this.followAsReader();
          await sleep(ELECTION_RETRY_MS);
          continue;
        }
        this.lease = lease;
        indexMetrics.writer.set(1);
        this.setStatus({ writer: true });
        const held = lease;
        void this.backfill?.run(held, () => leaseEnded || this.stopped);
        await this.holdLease(held);
      } catch (err) {
        if (this.stopped || err instanceof FetchStoppedError) break;
        const message = (err as Error).message;
        this.setStatus({ lastError: message });
        if (isConnectionError(err)) {
          this.store.markDown(err as Error);
          this.setStatus({ state: 'database_unavailable' });
        } else if (!(err instanceof CheckpointMovedError)) {
          this.logger.error({ err: message }, 'index pipeline failed; restarting it');
        }
        await sleep(ELECTION_RETRY_MS);
      } finally {
        leaseEnded = true;
        indexMetrics.writer.set(0);
        this.setStatus({ writer: false });
        if (lease) {
          this.lease = null;
          await lease.release();
        }
      }
    }
  }

  /**
   * Runs the pipeline for as long as this instance holds the writer lease. A failure of the
   * pipeline that is not the database's (a lite answer too slow, a deadline, a block not there
   * yet) is retried with backoff under the same lease: releasing it would hand the writing to
   * another instance at every hiccup of a loaded machine, and that one would hit the same chain.
   * Returns or throws only when the lease is gone (connection lost), another writer moved the
   * checkpoint, or the indexer stops; the caller releases the lease then.
   */
  private async holdLease(lease: WriterLease): Promise<void> {
    const lost = lease.lost.then((reason) => {
      throw new LeaseLostError(reason);
    });
    lost.catch(() => {});
    let delay = ELECTION_RETRY_MS;
    while (!this.stopped) {
      try {
        await Promise.race([this.writeLoop(lease), lost]);
        delay = ELECTION_RETRY_MS;
      } catch (err) {
        if (this.stopped || err instanceof FetchStoppedError || err instanceof LeaseLostError || err instanceof CheckpointMovedError || isConnectionError(err)) throw err;
        const message = (err as Error).message;
        this.setStatus({ lastError: message });
        this.logger.warn({ err: message, retryMs: delay }, 'index pipeline failed; retrying it (this instance stays the writer)');
        await Promise.race([sleep(delay), lost]);
        delay = Math.min(delay * 2, PIPELINE_RETRY_MAX_MS);
      }
    }
  }

  /** Not the writer: the status follows the checkpoint the writer commits. */
  private async followAsReader(): Promise<void> {
    const checkpoint = await readCheckpoint(this.store.readPool);
    this.reportProgress(checkpoint, 'reader');
  }

  private reportProgress(checkpoint: Checkpoint | null, role?: IndexState): void {
    const head = this.verifiedHead();
    const committed = checkpoint?.mcSeqno ?? null;
    const lagBlocks = head !== null && committed !== null ? Math.max(0, head - committed) : null;
    const lagMs = checkpoint ? Math.max(0, Date.now() - checkpoint.genUtime * 1000) : null;
    if (lagBlocks !== null) indexMetrics.lagBlocks.set(lagBlocks);
    if (lagMs !== null) indexMetrics.lagSeconds.set(lagMs / 1000);
    if (committed !== null) indexMetrics.committedSeqno.set(committed);
    const state: IndexState = role ?? (lagBlocks !== null && lagBlocks >= CATCHING_UP_BLOCKS ? 'catching_up' : 'live');
    if (role === 'reader') this.setStatus({ backfill: readerBackfill(checkpoint) });
    this.setStatus({ state, committedMcSeqno: committed, headMcSeqno: head, lagBlocks, lagMs });
    this.reportFirst(checkpoint?.firstMcSeqno ?? null);
  }

  /** The first indexed masterchain block: the backfill's first once it committed one, else the live lane's first. */
  private reportFirst(liveFirst: number | null): void {
    const backfill = this.statusValue.backfill;
    const candidates = [liveFirst, this.backfilledFrom, backfill && backfill.next > backfill.from ? backfill.from : null].filter((n): n is number => n !== null);
    const first = candidates.length > 0 ? Math.min(...candidates) : null;
    if (first !== null) indexMetrics.firstSeqno.set(first);
    this.setStatus({ firstMcSeqno: first });
  }

  private async startSeqno(): Promise<number> {
    if (this.startOverride !== undefined) return this.startOverride;
    if (this.options.embeddedChain) return this.options.fromSeqno ?? 1;
    // A remote network: from the head at start; the blocks from --index-from up to it are the backfill's.
    for (;;) {
      const head = this.verifiedHead();
      if (head !== null) return Math.max(head, this.options.fromSeqno ?? head);
      if (this.stopped) throw new FetchStoppedError();
      await this.waitForHead(1000);
    }
  }

  private async writeLoop(lease: WriterLease): Promise<void> {
    let checkpoint = await lease.run((client) => readCheckpoint(client));
    if (this.detector) this.detector.load(await lease.run((client) => readCodeInterfaces(client)));
    let next = checkpoint ? checkpoint.mcSeqno + 1 : await this.startSeqno();
    this.reportProgress(checkpoint);
    // The shard tops below the next block: from the committed block (checked against the chain), or the block before the start.
    let previousTops: readonly BlockRef[];
    if (checkpoint) {
      const committed = await this.source.head(checkpoint.mcSeqno).catch((err: unknown) => {
        if (err instanceof BlockUnavailableError) return null;
        throw err;
      });
      if (!committed || !committed.id.rootHash.equals(checkpoint.rootHash)) {
        await this.rollBack(lease, checkpoint);
        return;
      }
      previousTops = committed.parsed.shardTops;
    } else {
      previousTops = next > 1 ? (await this.source.head(next - 1)).parsed.shardTops : [];
    }
    this.logger.info({ from: next, resumed: checkpoint !== null }, 'indexing masterchain blocks');
    const window = new PrefetchWindow(this.source, next, previousTops);
    const ahead = this.options.fetchAhead ?? DEFAULT_FETCH_AHEAD;
    try {
      while (!this.stopped) {
        const head = this.verifiedHead();
        const yielding = this.yieldsToApi(head, next);
        if (head !== null) window.fill(Math.min(head, yielding ? next : next + ahead - 1));
        indexMetrics.fetchQueue.set(window.scheduled - next + 1);
        if (head === null || next > head) {
          if (checkpoint && head !== null && head < checkpoint.mcSeqno) {
            // The chain's head went below what the index committed: the embedded chain was rewound.
            await this.rollBack(lease, checkpoint);
            return;
          }
          this.reportProgress(checkpoint);
          await this.waitForHead(1000);
          continue;
        }
        let block: PreparedMcBlock;
        try {
          block = await window.take(next);
        } catch (err) {
          if (err instanceof BlockUnavailableError && !checkpoint) {
            const headNow = this.verifiedHead() ?? next;
            this.logger.warn({ seqno: next, head: headNow, err: err.message }, 'the first block to index is not available; starting at the head instead');
            return this.restartAt(headNow);
          }
          throw err;
        }
        if (checkpoint && checkpoint.mcSeqno === next - 1) {
          const prev = block.mc.previous[0];
          if (prev && !prev.rootHash.equals(checkpoint.rootHash)) {
            await this.rollBack(lease, checkpoint);
            return;
          }
        }
        // With it, the blocks after it that are already prepared and link to it, up to a batch.
        const batch = [block];
        for (let seqno = next + 1; batch.length < MAX_BATCH_BLOCKS; seqno++) {
          let following = window.readyBlock(seqno);
          if (!following && yielding && head !== null && seqno <= head) {
            // Yielding: the batch's blocks are prepared one after another, never two at once. A
            // block that fails is left for its turn as `next`, where its error is handled.
            window.fill(seqno);
            following = await window.take(seqno).catch(() => undefined);
          }
          const prev = following?.mc.previous[0];
          if (!following || !prev || !prev.rootHash.equals(batch[batch.length - 1]!.id.rootHash)) break;
          batch.push(following);
        }
        // The blocks after the batch are fetched and prepared while it commits: the commit's
        // thread mostly waits on PostgreSQL (its statements, COMMIT), and with the window ending at
        // the batch it had nothing else to do then (the catch-up's thread idle ~24 % of the run).
        // Not while yielding: then PostgreSQL's commit is the one thing the index runs.
        if (head !== null && !yielding) window.fill(Math.min(head, next + batch.length + ahead - 1));
        if (yielding) indexMetrics.yieldedBatches.inc();
        checkpoint = await this.commit(lease, checkpoint, batch);
        for (const done of batch) window.done(done.seqno);
        next += batch.length;
        this.reportProgress(checkpoint);
        this.logProgress(checkpoint);
        await this.maybePrune(lease, checkpoint);
        this.maybeAnalyze();
      }
    } finally {
      indexMetrics.fetchQueue.set(0);
    }
  }

  /**
   * Yielding to the API: catching up (YIELD_BEHIND_BLOCKS or more behind) while the API this
   * index shares a machine with serves requests. The pipeline then runs one stage at a time (a
   * block's fetch and preparation, then the next's, then the batch's commit) instead of fetching
   * ahead during each commit: on 2 cores its three busy threads (this one, the chain's thread
   * answering its reads, PostgreSQL's backend) left no core free, and a v2 request waited behind
   * them (p99 3-4x idle). One stage at a time leaves the API a core, at the price of the
   * catch-up's speed while requests come (docs/index.md, "Where it runs").
   */
  private yieldsToApi(head: number | null, next: number): boolean {
    const activity = this.options.apiActivity;
    return activity !== undefined && head !== null && head - next >= YIELD_BEHIND_BLOCKS && activity.busy();
  }

  /** Index from `seqno` (the configured start was not available): only when the index is empty. */
  private restartAt(seqno: number): void {
    this.startOverride = seqno;
  }

  /**
   * Commits consecutive masterchain blocks (the first follows `previous`) in one database
   * transaction: per block its rows and the checkpoint's move to it (one statement), then the
   * actions of the traces they completed, then COMMIT. The index is still always at a whole
   * masterchain block; a batch only shares the transaction's fixed costs (BEGIN, the checkpoint
   * lock, the actions' reads, COMMIT) among the blocks that were ready together while catching up.
   * Live, one block is ready at a time and a batch is that block.
   */
  private async commit(lease: WriterLease, previous: Checkpoint | null, blocks: readonly PreparedMcBlock[]): Promise<Checkpoint> {
    const started = performance.now();
    const committed = await lease.run(async (client) => {
      try {
        const stored = await beginAtCheckpoint(client);
        if ((stored?.mcSeqno ?? null) !== (previous?.mcSeqno ?? null)) throw new CheckpointMovedError(previous?.mcSeqno ?? null);
        const written: WrittenBlock[] = [];
        // The newest row of each trace the batch touched: the actions of those now complete.
        const touchedTraces = new Map<string, TraceRow>();
        let from = previous;
        for (const block of blocks) {
          const to = checkpointAt(block, from);
          // Pending edges of earlier blocks (of this batch too: their rows are in already) are read in it.
          const done = await writeMcBlock(client, block, { previous: from, next: to });
          written.push(done);
          for (const trace of done.traces) touchedTraces.set(trace.trace_id.toString('hex'), trace);
          from = to;
        }
        // Actions of the traces the batch completed, in the same transaction (src/actions). A trace
        // that began in the batch is all in what it wrote: classified from that, not read back.
        const held = heldTraces(touchedTraces.values(), blocks[0]!.seqno, written.flatMap((done) => done.transactions));
        await writeCompletedTraceActions(client, [...touchedTraces.values()], undefined, held);
        await client.query('commit');
        return written;
      } catch (err) {
        // Also after a failed BEGIN + select: the transaction may be open or not, a rollback is harmless.
        await client.query('rollback').catch(() => {});
        throw err;
      }
    });
    indexMetrics.writeSeconds.observe((performance.now() - started) / 1000);
    indexMetrics.batches.inc();
    let checkpoint = previous;
    blocks.forEach((block, i) => {
      const { rows, counts, events } = committed[i]!;
      for (const [table, count] of Object.entries(counts)) indexMetrics.rows.inc({ table }, count);
      if (this.statistics) this.statistics.add(counts);
      const genUtime = block.mc.row.gen_utime;
      indexMetrics.sealToCommitSeconds.observe(Math.max(0, Date.now() / 1000 - genUtime));
      this.committedSinceLog.blocks++;
      this.committedSinceLog.transactions += rows.transactions.length;
      const event: CommittedMcBlock = {
        mcSeqno: block.seqno,
        id: block.id,
        genUtime,
        transactions: rows.transactions,
        messages: rows.messages,
        accountStates: block.accounts,
        traces: rows.traces,
        tokenStates: block.tokens.states,
        tokenEvents: events,
      };
      this.emit('block', event);
      checkpoint = checkpointAt(block, checkpoint);
    });
    return checkpoint!;
  }

  private logProgress(checkpoint: Checkpoint): void {
    const now = Date.now();
    if (this.statusValue.state !== 'catching_up') {
      this.lastProgressLog = now;
      this.committedSinceLog = { blocks: 0, transactions: 0 };
      return;
    }
    if (now - this.lastProgressLog < PROGRESS_LOG_MS) return;
    const seconds = this.lastProgressLog ? (now - this.lastProgressLog) / 1000 : null;
    this.logger.info(
      {
        committed: checkpoint.mcSeqno,
        head: this.statusValue.headMcSeqno,
        lagBlocks: this.statusValue.lagBlocks,
        blocksPerSecond: seconds ? +(this.committedSinceLog.blocks / seconds).toFixed(1) : undefined,
        transactionsPerSecond: seconds ? +(this.committedSinceLog.transactions / seconds).toFixed(1) : undefined,
      },
      'index catching up',
    );
    this.lastProgressLog = now;
    this.committedSinceLog = { blocks: 0, transactions: 0 };
  }

  /**
   * Starts an ANALYZE of the tables the schedule says are due, and a VACUUM of `transactions` and
   * `messages` when due, unless one runs (statistics.ts). It runs beside the pipeline on a
   * connection of the store's pool (a real server's: not the writer's, so commits never wait for
   * it; the embedded one's single connection takes it between two of them), and a failure only
   * waits for the next commit to be tried again.
   */
  private maybeAnalyze(): void {
    if (this.analyzing || this.stopped) return;
    this.analyzing = this.analyzeDue()
      .catch((err: unknown) => this.logger.warn({ err: (err as Error).message }, 'index: ANALYZE failed (tried again later)'))
      .finally(() => {
        this.analyzing = null;
      });
  }

  private async analyzeDue(): Promise<void> {
    if (this.statistics === false) return;
    if (!this.statistics) {
      // A real server whose autovacuum is on analyzes the tables itself (and its settings are the
      // operator's): the writer only does it where nothing else will, PGlite and autovacuum off.
      if (this.store.kind === 'postgres') {
        const { rows } = await this.store.pool.query<{ on: boolean }>("select current_setting('autovacuum') = 'on' as on");
        if (rows[0]?.on) {
          this.statistics = false;
          return;
        }
      }
      const { rows } = await this.store.pool.query<{ relname: string; reltuples: number }>(BASELINE_SQL, [BASELINE_TABLES]);
      this.statistics = new StatisticsSchedule(baselineOf(rows));
    }
    for (const group of this.statistics.due()) {
      if (this.stopped) return;
      const written = this.statistics.writtenSince(group);
      const started = performance.now();
      // Table names from the fixed list, never from input.
      for (const table of STATISTICS_GROUPS[group]) await this.store.pool.query(`analyze ${table}`);
      this.statistics.analyzed(group, written, await this.estimatedRows(STATISTICS_GROUPS[group][0]!));
      indexMetrics.analyzes.inc({ group });
      this.logger.info({ group, tables: STATISTICS_GROUPS[group], ms: Math.round(performance.now() - started) }, 'index: tables analyzed');
    }
    for (const table of this.statistics.vacuumDue()) {
      if (this.stopped) return;
      const written = this.statistics.writtenSinceLastVacuum(table);
      const started = performance.now();
      // Table names from the fixed list; VACUUM runs outside a transaction, as one statement.
      await this.store.pool.query(`vacuum ${table}`);
      this.statistics.vacuumed(table, written, await this.estimatedRows(table));
      indexMetrics.vacuums.inc({ table });
      this.logger.debug({ table, ms: Math.round(performance.now() - started) }, 'index: table vacuumed');
    }
  }

  /** A table's rows as the statistics ANALYZE or VACUUM just wrote count them (pg_class.reltuples). */
  private async estimatedRows(table: string): Promise<number> {
    const { rows } = await this.store.pool.query<{ relname: string; reltuples: number }>(BASELINE_SQL, [[table]]);
    return rows[0]?.reltuples ?? 0;
  }

  /**
   * `--index-retention`: deletes the masterchain blocks older than the retention, measured on the
   * chain's own clock (the committed head's gen_utime), once a minute of it. On a live network that
   * clock is the wall clock; the embedded chain's can be moved forward (`/localnet/time`), and
   * its blocks then age with it, as a client of it sees their times.
   */
  private async maybePrune(lease: WriterLease, head: Checkpoint): Promise<void> {
    const days = this.options.retentionDays;
    // Not while a backfill fills the blocks below the first one (it would prune what it writes).
    if (!days || this.statusValue.backfill || head.genUtime - this.lastRetentionUtime < RETENTION_EVERY_S) return;
    this.lastRetentionUtime = head.genUtime;
    const before = head.genUtime - days * 86_400;
    const removed = await lease.run(async (client) => {
      await client.query('begin');
      try {
        const count = await pruneBefore(client, before, 1000);
        await client.query('commit');
        return count;
      } catch (err) {
        await client.query('rollback').catch(() => {});
        throw err;
      }
    });
    if (removed > 0) this.logger.info({ removed }, 'index retention: old masterchain blocks deleted');
  }

  /**
   * The chain no longer has the block the index committed last (the embedded chain was rewound):
   * the last masterchain block both have is found by comparing hashes downwards, and the index is
   * rolled back to it in one transaction. Only the embedded chain rewinds; on a real network a
   * mismatch means a broken store or a misconfigured network, and is refused.
   */
  private async rollBack(lease: WriterLease, checkpoint: Checkpoint): Promise<void> {
    if (!this.options.embeddedChain) {
      throw new ChainRewoundError(checkpoint.mcSeqno);
    }
    const head = this.verifiedHead() ?? checkpoint.mcSeqno;
    let common = checkpoint.firstMcSeqno - 1;
    const floor = Math.max(checkpoint.firstMcSeqno, checkpoint.mcSeqno - ROLLBACK_SEARCH_LIMIT);
    for (let seqno = Math.min(head, checkpoint.mcSeqno); seqno >= floor; seqno--) {
      const { rows } = await this.store.pool.query<{ root_hash: Buffer }>('select root_hash from blocks where workchain = -1 and seqno = $1', [seqno]);
      const stored = rows[0]?.root_hash;
      if (!stored) continue;
      const id = await this.source.mcBlockId(seqno);
      if (id.rootHash.equals(stored)) {
        common = seqno;
        break;
      }
    }
    this.logger.warn({ committed: checkpoint.mcSeqno, rollbackTo: common, head }, 'the chain was rewound: rolling the index back to the last common masterchain block');
    await lease.run(async (client) => {
      await client.query('begin');
      try {
        await rollbackTo(client, common);
        await client.query('commit');
      } catch (err) {
        await client.query('rollback').catch(() => {});
        throw err;
      }
    });
    indexMetrics.rollbacks.inc();
    this.detector?.reset();
    this.emit('rollback', common);
  }
}

/** A reader's view of the writer's backfill, from the checkpoint it reads. */
function readerBackfill(checkpoint: Checkpoint | null): BackfillProgress | null {
  const mark = checkpoint?.backfill;
  return checkpoint && mark ? { from: mark.from, next: mark.next, until: checkpoint.firstMcSeqno } : null;
}
