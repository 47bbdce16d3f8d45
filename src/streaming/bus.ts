import { eventBytes, type StreamEvent } from './events';

/**
 * The event bus of one instance: blocks of events arrive in masterchain order (publish), each
 * event gets its id, `<mc seqno>:<index in the block>`, which orders all events, and goes to every
 * live connection. The newest blocks stay in memory (a bounded window); older ones are rebuilt
 * from the index (ReplaySource) when a client resumes from an id before the window.
 */

/** The events one committed masterchain block produced (possibly none), in their delivery order. */
export interface SourceBlock {
  readonly mcSeqno: number;
  /** When the block was committed (Date.now()), for the delivery lag; replayed blocks: when rebuilt. */
  readonly committedAt: number;
  readonly events: readonly StreamEvent[];
  /**
   * The newest committed block when the index's follower starts: the bus's point of reference
   * for resumes (kept in the window), delivered to no live connection. The follower starts at the
   * first streaming request, so this block may have been committed long before that request.
   */
  readonly reference?: true;
}

/** Rebuilds the events of masterchain blocks that left the in-memory window (from the index). */
export interface ReplaySource {
  /** The oldest masterchain block whose events can be rebuilt; null when there is none. */
  oldestSeqno(): Promise<number | null>;
  /** Blocks `from`..`to` (inclusive) in order; a seqno the index does not have is left out. */
  blocks(from: number, to: number): Promise<SourceBlock[]>;
}

export interface EventId {
  readonly seqno: number;
  readonly index: number;
}

const EVENT_ID = /^(\d{1,10}):(\d{1,7})$/;

export function formatEventId(id: EventId): string {
  return `${id.seqno}:${id.index}`;
}

/** An id as sent in Last-Event-ID or `from`; undefined when it is not one of ours. */
export function parseEventId(text: string): EventId | undefined {
  const match = EVENT_ID.exec(text.trim());
  if (!match) return undefined;
  const seqno = Number(match[1]);
  const index = Number(match[2]);
  if (seqno > 0xffffffff) return undefined;
  return { seqno, index };
}

/** A client mistake in a resume request (bad id, too old, too new). */
export class ResumeError extends Error {
  constructor(
    message: string,
    /** 400 (not an id / newer than any event), 410 (older than what is kept). */
    readonly status: 400 | 410,
    readonly oldestId: string | null = null,
  ) {
    super(message);
    this.name = 'ResumeError';
  }
}

/** The answer to a resume from before the oldest event kept (the index's retention, or the in-memory window without it). */
function tooOld(id: EventId, oldest: number | null): ResumeError {
  const oldestId = oldest === null ? null : formatEventId({ seqno: oldest, index: 0 });
  return new ResumeError(
    `event id ${formatEventId(id)} is older than the oldest event kept${oldestId ? ` (${oldestId})` : ''}: ` +
      'resume from there or re-read the gap through /api/v3',
    410,
    oldestId,
  );
}

/** A live connection: gets every published event (its own filter decides) and invalidations. */
export interface LiveListener {
  deliver(id: string, event: StreamEvent, block: SourceBlock): void;
}

export interface EventBusOptions {
  /** Most events kept in memory for resume (whole blocks; at least the newest block stays). */
  readonly windowEvents: number;
  /** Most bytes of events kept in memory for resume (eventBytes; whole blocks; at least the newest block stays). */
  readonly windowBytes?: number;
  /** Blocks rebuilt per replay read. */
  readonly replayPage?: number;
  /** How long a resume from an id newer than this instance's newest waits for it (another instance may be ahead), ms. */
  readonly aheadWaitMs?: number;
}

const DEFAULT_REPLAY_PAGE = 32;
const DEFAULT_AHEAD_WAIT_MS = 5000;

export class EventBus {
  /** Contiguous blocks, oldest first. */
  private window: SourceBlock[] = [];
  private windowEventCount = 0;
  private windowByteCount = 0;
  /** eventBytes of each block in the window, in the same order. */
  private windowBlockBytes: number[] = [];
  private lastSeqnoValue: number | null = null;
  private readonly listeners = new Set<LiveListener>();
  private waiters: Array<() => void> = [];
  private closed = false;

  constructor(
    private readonly options: EventBusOptions,
    private readonly replay: ReplaySource | undefined,
  ) {}

  /** The newest published masterchain block, null before the first. */
  get lastSeqno(): number | null {
    return this.lastSeqnoValue;
  }

  get liveCount(): number {
    return this.listeners.size;
  }

  /** The id of the newest event, null when none was published. */
  newestEventId(): string | null {
    for (let i = this.window.length - 1; i >= 0; i--) {
      const block = this.window[i]!;
      if (block.events.length > 0) return formatEventId({ seqno: block.mcSeqno, index: block.events.length - 1 });
    }
    return null;
  }

  /**
   * The next block, in order. A block at or below the last one means the chain was rewound (the
   * local chain only): the window drops the blocks above it and connections that got data of their
   * traces receive trace_invalidated. A gap (blocks this instance never saw) empties the window.
   */
  publish(block: SourceBlock): void {
    if (this.closed) return;
    const last = this.lastSeqnoValue;
    if (last !== null && block.mcSeqno <= last) this.rewind(block.mcSeqno - 1);
    else if (last !== null && block.mcSeqno !== last + 1) this.dropWindow();
    this.window.push(block);
    this.windowEventCount += block.events.length;
    const bytes = block.events.reduce((n, event) => n + eventBytes(event), 0);
    this.windowBlockBytes.push(bytes);
    this.windowByteCount += bytes;
    this.lastSeqnoValue = block.mcSeqno;
    this.trimWindow();
    if (!block.reference) {
      block.events.forEach((event, index) => {
        const id = formatEventId({ seqno: block.mcSeqno, index });
        for (const listener of this.listeners) listener.deliver(id, event, block);
      });
    }
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /**
   * The chain went back to `seqno` (the index rolled back): blocks above it leave the window, and
   * their traces are invalidated for the connections that got them. Ids above it will be reused.
   */
  rewind(seqno: number): void {
    const dropped: SourceBlock[] = [];
    while (this.window.length > 0 && this.window[this.window.length - 1]!.mcSeqno > seqno) {
      const block = this.window.pop()!;
      this.windowEventCount -= block.events.length;
      this.windowByteCount -= this.windowBlockBytes.pop()!;
      dropped.push(block);
    }
    if (this.lastSeqnoValue !== null && this.lastSeqnoValue > seqno) this.lastSeqnoValue = seqno;
    const traces = new Set<string>();
    for (const block of dropped) {
      for (const event of block.events) {
        if (event.type === 'transactions' || event.type === 'actions' || event.type === 'trace') traces.add(event.traceExternalHashNorm);
      }
    }
    const now = Date.now();
    for (const trace of traces) {
      const event: StreamEvent = { type: 'trace_invalidated', traceExternalHashNorm: trace };
      const block: SourceBlock = { mcSeqno: seqno, committedAt: now, events: [] };
      for (const listener of this.listeners) listener.deliver('', event, block);
    }
  }

  /**
   * An event of no committed block (a pending trace, its invalidation): to the live connections
   * only, without an id; it is not kept for resume.
   */
  deliverLive(event: StreamEvent): void {
    if (this.closed) return;
    const block: SourceBlock = { mcSeqno: this.lastSeqnoValue ?? 0, committedAt: Date.now(), events: [] };
    for (const listener of this.listeners) listener.deliver('', event, block);
  }

  private dropWindow(): void {
    this.window = [];
    this.windowEventCount = 0;
    this.windowBlockBytes = [];
    this.windowByteCount = 0;
  }

  private trimWindow(): void {
    const maxBytes = this.options.windowBytes ?? Infinity;
    while (this.window.length > 1 && (this.windowEventCount > this.options.windowEvents || this.windowByteCount > maxBytes)) {
      this.windowEventCount -= this.window.shift()!.events.length;
      this.windowByteCount -= this.windowBlockBytes.shift()!;
    }
  }

  addLive(listener: LiveListener): void {
    this.listeners.add(listener);
  }

  removeLive(listener: LiveListener): void {
    this.listeners.delete(listener);
  }

  /** The oldest block a resume can start in (window or index), null when there is nothing. */
  async oldestResumableSeqno(): Promise<number | null> {
    const fromIndex = this.replay ? await this.replay.oldestSeqno() : null;
    const inWindow = this.window[0]?.mcSeqno ?? null;
    if (fromIndex === null) return inWindow;
    if (inWindow === null) return fromIndex;
    return Math.min(fromIndex, inWindow);
  }

  private waitForPublish(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== wake);
        resolve();
      }, ms);
      timer.unref();
      const wake = () => {
        clearTimeout(timer);
        resolve();
      };
      this.waiters.push(wake);
    });
  }

  /** Checks a resume id before anything is sent (so the client gets a plain HTTP error). */
  async checkResume(id: EventId): Promise<void> {
    const deadline = Date.now() + (this.options.aheadWaitMs ?? DEFAULT_AHEAD_WAIT_MS);
    while ((this.lastSeqnoValue === null || id.seqno > this.lastSeqnoValue) && Date.now() < deadline && !this.closed) {
      await this.waitForPublish(deadline - Date.now());
    }
    if (this.lastSeqnoValue === null || id.seqno > this.lastSeqnoValue) {
      throw new ResumeError(`event id ${formatEventId(id)} is newer than the newest event (${this.newestEventId() ?? 'none yet'})`, 400);
    }
    const oldest = await this.oldestResumableSeqno();
    if (oldest === null || id.seqno < oldest) throw tooOld(id, oldest);
  }

  /**
   * Delivers every event after `from`, in order, then makes `listener` live in the same turn as
   * the last check, so no event is missed or sent twice between the replay and the live stream.
   * `deliver` may wait (a client's backpressure); events published meanwhile are picked up from
   * the window. Returns false when `stillWanted` turned false (the client went away).
   */
  async resume(
    from: EventId,
    deliver: (id: string, event: StreamEvent, block: SourceBlock) => Promise<void> | void,
    listener: LiveListener,
    stillWanted: () => boolean,
  ): Promise<boolean> {
    let seqno = from.seqno;
    let index = from.index + 1;
    const page = this.options.replayPage ?? DEFAULT_REPLAY_PAGE;
    for (;;) {
      if (!stillWanted() || this.closed) return false;
      const last = this.lastSeqnoValue;
      if (last === null || seqno > last) {
        this.addLive(listener);
        return true;
      }
      const windowStart = this.window[0]?.mcSeqno;
      let blocks: readonly SourceBlock[];
      if (windowStart !== undefined && seqno >= windowStart) {
        blocks = this.window.slice(seqno - windowStart);
      } else if (this.replay) {
        const to = Math.min(seqno + page - 1, windowStart !== undefined ? windowStart - 1 : last);
        blocks = await this.replay.blocks(seqno, to);
        if (blocks.length === 0) {
          // Nothing kept between here and `to` (pruned or never indexed): go on after it.
          seqno = to + 1;
          index = 0;
          continue;
        }
      } else {
        // The window moved past the client while it was replayed (no index to rebuild from).
        throw tooOld(from, windowStart ?? null);
      }
      for (const block of blocks) {
        if (block.mcSeqno < seqno) continue;
        if (block.mcSeqno > seqno) index = 0;
        for (let i = index; i < block.events.length; i++) {
          if (!stillWanted()) return false;
          await deliver(formatEventId({ seqno: block.mcSeqno, index: i }), block.events[i]!, block);
        }
        seqno = block.mcSeqno + 1;
        index = 0;
      }
    }
  }

  /** Wakes resumes waiting for a newer block; nothing is published after this. */
  close(): void {
    this.closed = true;
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
    this.listeners.clear();
  }
}
