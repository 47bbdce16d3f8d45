import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import type { BlockRef } from '../proofs';
import {
  beginAtCheckpoint,
  CheckpointMovedError,
  insertMcBlockRows,
  insertTokenEvents,
  insertTokenStates,
  readCodeInterfaces,
  pruneBefore,
  readCheckpoint,
  rollbackTo,
  tryAcquireWriter,
  type Checkpoint,
  type IndexStore,
  type LatestAccountStateRow,
  type McBlockRows,
  type MessageRow,
  type TokenEventRows,
  type TokenStateRows,
  type TraceRow,
  type TransactionRow,
  type WrittenRows,
  type WriterLease,
} from '../indexdb';
import type { LitePool } from '../liteclient';
import { BlockFetcher, BlockUnavailableError, FetchStoppedError } from './blockFetcher';
import { McBlockSource, messageRowsOf, transactionsInOrder, type McHead, type PreparedMcBlock } from './mcBlockSource';
import { indexMetrics } from '../metrics';
import { assembleTraces, databaseTraceEdges } from './traces';
import { verifiedHead, waitForHead } from './head';
import { writeCompletedTraceActions } from '../actions';
import { TokenDetector } from './tokenDetection';
import type { DomainMethod } from './dns';
import { tokenEvents } from './tokenEvents';

export interface IndexerOptions {
  /** First masterchain block to index when the index is empty; default: 1 on the embedded chain, else the head. */
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
  readonly firstMcSeqno: number | null;
  readonly committedMcSeqno: number | null;
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
const ELECTION_RETRY_MS = 1000;
const PROGRESS_LOG_MS = 60_000;
const RETENTION_EVERY_MS = 60_000;
const ROLLBACK_SEARCH_LIMIT = 100_000;
const STOP_WAIT_MS = 5000;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function quiet<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
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
  private statusValue: IndexStatus = STARTING_STATUS;
  private lastProgressLog = 0;
  /** Where to start instead of the configured block, when that one turned out unavailable. */
  private startOverride: number | undefined;
  private lastRetention = 0;
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
        const lost = lease.lost.then((reason) => {
          throw new Error(`index writer lease lost: ${reason}`);
        });
        await Promise.race([this.writeLoop(lease), lost]);
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
        indexMetrics.writer.set(0);
        this.setStatus({ writer: false });
        if (lease) {
          this.lease = null;
          await lease.release();
        }
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
    this.setStatus({ state, firstMcSeqno: checkpoint?.firstMcSeqno ?? null, committedMcSeqno: committed, headMcSeqno: head, lagBlocks, lagMs });
  }

  private async startSeqno(): Promise<number> {
    if (this.startOverride !== undefined) return this.startOverride;
    if (this.options.fromSeqno !== undefined) return this.options.fromSeqno;
    if (this.options.embeddedChain) return 1;
    for (;;) {
      const head = this.verifiedHead();
      if (head !== null) return head;
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
    const heads = new Map<number, Promise<McHead>>();
    const prepared = new Map<number, Promise<PreparedMcBlock>>();
    // Blocks prepared and not committed yet: what a batch may take without waiting.
    const ready = new Map<number, PreparedMcBlock>();
    let scheduled = next - 1;
    const firstNext = next;
    const firstTops = previousTops;
    const schedule = (seqno: number) => {
      const head = quiet(this.source.head(seqno));
      heads.set(seqno, head);
      prepared.set(
        seqno,
        quiet(
          (async () => {
            const tops = seqno === firstNext ? firstTops : (await heads.get(seqno - 1)!).parsed.shardTops;
            const block = await this.source.prepare(await head, tops);
            if (prepared.has(seqno)) ready.set(seqno, block);
            return block;
          })(),
        ),
      );
    };
    const ahead = this.options.fetchAhead ?? DEFAULT_FETCH_AHEAD;
    try {
      while (!this.stopped) {
        const head = this.verifiedHead();
        if (head !== null) while (scheduled < Math.min(head, next + ahead - 1)) schedule(++scheduled);
        indexMetrics.fetchQueue.set(scheduled - next + 1);
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
          block = await prepared.get(next)!;
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
          const following = ready.get(seqno);
          const prev = following?.mc.previous[0];
          if (!following || !prev || !prev.rootHash.equals(batch[batch.length - 1]!.id.rootHash)) break;
          batch.push(following);
        }
        checkpoint = await this.commit(lease, checkpoint, batch);
        for (const done of batch) {
          heads.delete(done.seqno - 1);
          prepared.delete(done.seqno);
          ready.delete(done.seqno);
        }
        next += batch.length;
        this.reportProgress(checkpoint);
        this.logProgress(checkpoint);
        await this.maybePrune(lease);
      }
    } finally {
      indexMetrics.fetchQueue.set(0);
    }
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
        const written: { rows: McBlockRows; counts: WrittenRows; events: TokenEventRows }[] = [];
        // The newest row of each trace the batch touched: the actions of those now complete.
        const touchedTraces = new Map<string, TraceRow>();
        let from = previous;
        for (const block of blocks) {
          const transactions = transactionsInOrder(block);
          const { messages, messageContents } = messageRowsOf(transactions);
          // Pending edges of earlier blocks (of this batch too: their rows are in already) are read here.
          const { traces, edges } = await assembleTraces(databaseTraceEdges(client), transactions, block.seqno);
          const rows: McBlockRows = {
            blocks: [block.mc.row, ...block.shardBlocks.map((b) => b.row)],
            shardState: block.mc.shardTops.map((top) => ({ mc_seqno: block.seqno, workchain: top.workchain, shard: BigInt(top.shard), seqno: top.seqno })),
            transactions: transactions.map((tx) => tx.row),
            messages,
            messageContents,
            accountStates: block.accounts,
            latestAccountStates: block.accounts,
            traces,
            traceEdges: edges,
          };
          const to = checkpointAt(block, from);
          // The rows and the checkpoint's move: one statement.
          const counts = await insertMcBlockRows(client, rows, { previous: from, next: to });
          // Token contracts' states and the block's transfers and burns: with the block, never apart.
          await insertTokenStates(client, block.tokens.states);
          const events = tokenEvents(transactions, block.tokens, block.seqno);
          await insertTokenEvents(client, events);
          written.push({ rows, counts, events });
          for (const trace of traces) touchedTraces.set(trace.trace_id.toString('hex'), trace);
          from = to;
        }
        // Actions of the traces the batch completed, in the same transaction (src/actions).
        await writeCompletedTraceActions(client, [...touchedTraces.values()]);
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

  private async maybePrune(lease: WriterLease): Promise<void> {
    const days = this.options.retentionDays;
    if (!days || Date.now() - this.lastRetention < RETENTION_EVERY_MS) return;
    this.lastRetention = Date.now();
    const before = Math.floor(Date.now() / 1000) - days * 86_400;
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

/** Errors of the connection to the database (as opposed to SQL errors of ours). */
export function isConnectionError(err: unknown): boolean {
  // Not `instanceof Error`: node's own errors (net, from pg's socket) come from another realm under a
  // vm sandbox (jest), and there they were taken for a failure of ours.
  if (typeof err !== 'object' || err === null || typeof (err as { message?: unknown }).message !== 'string') return false;
  const code = (err as { code?: string }).code;
  if (code && (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'ENOENT' || code === 'EPIPE' || code === 'ETIMEDOUT')) return true;
  return /Connection terminated|connection timeout|Client has encountered a connection error|not queryable|lease lost/i.test((err as { message: string }).message);
}
