import pg from 'pg';
import type { Logger } from 'pino';
import type { JettonWalletRow } from '../indexdb';
import type { IndexEventBuilder, WantedAnnotations } from './builder';

/** The PostgreSQL channel the index writer's instance announces committed masterchain blocks on. */
export const STREAMING_CHANNEL = 'ton_bridge_streaming';

/** Committed blocks whose jetton states are kept until built (the follower is never that far behind for long). */
const KNOWN_BLOCKS = 256;

/** Where events are published (the StreamingService). */
export interface EventSink {
  /** Whether a connection asked for address books, for token metadata (each costs queries per block). */
  wantsAnnotations(): WantedAnnotations;
  publish(block: Awaited<ReturnType<IndexEventBuilder['build']>>): void;
  rewind(seqno: number): void;
  /**
   * A block's events could not be built (retried at the next poll). Counted by the sink: the
   * follower runs in the index thread, whose registry of streaming metrics nobody scrapes.
   */
  failed(seqno: number): void;
}

export interface IndexFollowerOptions {
  /** How often the checkpoint is read when no announcement came (another instance writes, a lost NOTIFY), ms. */
  readonly pollMs: number;
  /** A real PostgreSQL shared by instances: announce and listen (absent for the embedded database). */
  readonly sharedDatabase?: pg.ClientConfig;
  /**
   * The newest block whose events were already published (by a follower before this one: the
   * index thread's, restarted): go on after it instead of publishing the newest committed block.
   */
  readonly resumeAfter?: number | null;
}

/**
 * Follows the index's checkpoint and publishes each committed masterchain block's events, each
 * block exactly once and in order, on every instance: the writer's instance is told by its
 * pipeline (`committed`) and announces the block with NOTIFY; the others LISTEN, and all read the
 * checkpoint every `pollMs` in case an announcement was lost. The checkpoint is the truth, the
 * announcements only wake the follower up, so an instance never skips or repeats a block.
 */
export class IndexFollower {
  private lastBuilt: number | null = null;
  /** Jetton wallet states of blocks the local pipeline committed, until they are built. */
  private readonly knownJettons = new Map<number, readonly JettonWalletRow[]>();
  private chain: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private listener: pg.Client | undefined;
  private stopped = false;

  constructor(
    private readonly builder: IndexEventBuilder,
    private readonly sink: EventSink,
    private readonly logger: Logger,
    private readonly options: IndexFollowerOptions,
  ) {}

  /** Publishes the newest committed block (so resumes have a reference point), then follows. */
  async start(): Promise<void> {
    const resumeAfter = this.options.resumeAfter;
    await this.enqueue(async () => {
      const committed = await this.builder.committedSeqno();
      if (committed === null) return;
      if (resumeAfter !== undefined && resumeAfter !== null) {
        // Publishing the committed block again would be a rewind to the bus (a seqno it has).
        this.lastBuilt ??= resumeAfter;
        this.followTo(committed);
        return;
      }
      this.sink.publish({ ...(await this.builder.build(committed)), reference: true });
      this.lastBuilt = committed;
    });
    this.timer = setInterval(() => void this.poll(), this.options.pollMs);
    this.timer.unref();
    if (this.options.sharedDatabase) await this.listen(this.options.sharedDatabase);
  }

  private async listen(connection: pg.ClientConfig): Promise<void> {
    const client = new pg.Client(connection);
    client.on('error', (err) => {
      this.logger.warn({ err: err.message }, 'streaming: the LISTEN connection failed; following by polling until it is back');
      this.listener = undefined;
      if (!this.stopped) setTimeout(() => void this.listen(connection).catch(() => {}), 1000).unref();
    });
    client.on('notification', (message) => {
      const seqno = Number(message.payload);
      if (message.channel === STREAMING_CHANNEL && Number.isSafeInteger(seqno)) this.followTo(seqno);
    });
    try {
      await client.connect();
      await client.query(`listen ${STREAMING_CHANNEL}`);
      this.listener = client;
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'streaming: cannot LISTEN for committed blocks; following by polling');
      await client.end().catch(() => {});
    }
  }

  private async poll(): Promise<void> {
    try {
      const committed = await this.builder.committedSeqno();
      if (committed !== null) this.followTo(committed);
    } catch {
      // The database is away: the index's health says so; the next poll tries again.
    }
  }

  /**
   * The local pipeline committed `seqno` (with the jetton wallets' states it wrote: exact even when
   * the follower builds the block after later ones were committed): publish it and tell the other
   * instances.
   */
  committed(seqno: number, jettonWallets?: readonly JettonWalletRow[]): void {
    if (jettonWallets) {
      this.knownJettons.set(seqno, jettonWallets);
      while (this.knownJettons.size > KNOWN_BLOCKS) this.knownJettons.delete(this.knownJettons.keys().next().value!);
    }
    this.followTo(seqno, true);
  }

  /** The local pipeline rolled the index back to `seqno` (the local chain was rewound). */
  rolledBack(seqno: number): void {
    this.knownJettons.clear();
    void this.enqueue(async () => {
      this.sink.rewind(seqno);
      if (this.lastBuilt !== null && this.lastBuilt > seqno) this.lastBuilt = seqno;
    });
  }

  private followTo(seqno: number, announce = false): void {
    void this.enqueue(async () => {
      // A lower seqno is a stale read (a poll that started before the last commit), never a rewind:
      // rewinds come from the pipeline's own rollback (rolledBack), on the local chain only.
      let last = this.lastBuilt ?? seqno - 1;
      while (last < seqno && !this.stopped) {
        const next = last + 1;
        try {
          this.sink.publish(await this.builder.build(next, Date.now(), this.sink.wantsAnnotations(), this.knownJettons.get(next)));
          this.knownJettons.delete(next);
        } catch (err) {
          this.sink.failed(next);
          this.logger.warn(
            { err: (err as Error).message, seqno: next },
            'streaming: cannot build the events of a block; retrying at the next poll',
          );
          return;
        }
        last = next;
        this.lastBuilt = next;
        if (announce && this.options.sharedDatabase) await this.builderPoolNotify(next);
      }
      this.lastBuilt = last;
    });
  }

  private async builderPoolNotify(seqno: number): Promise<void> {
    try {
      await this.notifyClient().query('select pg_notify($1, $2)', [STREAMING_CHANNEL, String(seqno)]);
    } catch {
      // The others find the block at their next poll.
    }
  }

  private notifyClient(): Pick<pg.Client, 'query'> {
    if (!this.listener) throw new Error('no connection to announce on');
    return this.listener;
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(task, task).catch((err: unknown) => {
      this.logger.warn({ err }, 'streaming: follower task failed');
    });
    return this.chain;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.chain;
    await this.listener?.end().catch(() => {});
  }
}
