import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import type { MessageContentRow } from '../indexdb';
import type { LitePool } from '../liteclient';
import { BlockFetcher, FetchStoppedError } from './blockFetcher';
import type { CommittedMcBlock } from './indexer';
import { verifiedHead, waitForHead } from './head';
import { McBlockSource, messageRowsOf, transactionsInOrder, type McHead } from './mcBlockSource';
import { assembleTraces, MemoryTraceEdges } from './traces';

/**
 * The index pipeline's fetch, check and parse without its store: follows the pool's verified
 * masterchain head from where it is at start, and gives every masterchain block's rows (the same
 * rows the index would commit: its shard blocks fetched through the pool, each checked against an
 * id that links to the verified masterchain block, traces assembled with the pending edges kept in
 * memory). What the streaming API's events are built from with `--index off`: live only, nothing
 * stored.
 */

/** One masterchain block as the index would have committed it (its rows and message bodies; no token detection). */
export interface ChainBlock extends Omit<CommittedMcBlock, 'tokenStates' | 'tokenEvents'> {
  readonly messageContents: readonly MessageContentRow[];
}

export interface LiveChainStatus {
  readonly state: 'starting' | 'live' | 'stopped';
  readonly lastMcSeqno: number | null;
  readonly headMcSeqno: number | null;
  readonly lastError: string | null;
}

export interface LiveChainOptions {
  /** Blocks behind the head beyond which the follower jumps to the head (a gap) rather than catch up: it serves live events. */
  readonly maxLagBlocks?: number;
  /** Pending trace edges kept in memory (a message in flight across masterchain blocks). */
  readonly maxPendingEdges?: number;
}

const DEFAULT_MAX_LAG_BLOCKS = 200;
/** Masterchain blocks whose ids are kept to find the common block after a rewind (local chain). */
const REMEMBERED_IDS = 1024;
const RETRY_MS = 1000;
const STOP_WAIT_MS = 5000;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * Emits 'block' (ChainBlock) for each masterchain block in order from the verified head at start,
 * and 'rewind' (the last common seqno) when the embedded chain was rewound under it. A gap (the
 * follower fell more than `maxLagBlocks` behind) is a jump: the next block is not the last + 1.
 */
export class LiveChainFollower extends EventEmitter {
  private stopped = false;
  private running: Promise<void> | undefined;
  private readonly source: McBlockSource;
  private readonly edges: MemoryTraceEdges;
  private readonly ids = new Map<number, Buffer>();
  private statusValue: LiveChainStatus = { state: 'starting', lastMcSeqno: null, headMcSeqno: null, lastError: null };

  constructor(
    private readonly pool: LitePool,
    private readonly logger: Logger,
    private readonly options: LiveChainOptions = {},
  ) {
    super();
    this.setMaxListeners(0);
    this.source = new McBlockSource(pool, new BlockFetcher(pool, logger, () => this.stopped), logger);
    this.edges = new MemoryTraceEdges(options.maxPendingEdges);
  }

  status(): LiveChainStatus {
    return { ...this.statusValue, headMcSeqno: verifiedHead(this.pool) };
  }

  start(): void {
    this.running ??= this.loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.statusValue = { ...this.statusValue, state: 'stopped' };
    // A block being read finishes; a fetch stuck on a server is not waited for beyond STOP_WAIT_MS (as the index's stop).
    await Promise.race([this.running, sleep(STOP_WAIT_MS)]);
  }

  private async headAtStart(): Promise<number> {
    for (;;) {
      const head = verifiedHead(this.pool);
      if (head !== null) return head;
      if (this.stopped) throw new FetchStoppedError();
      await waitForHead(this.pool, 1000);
    }
  }

  private async loop(): Promise<void> {
    let next: number | null = null;
    let previous: McHead | null = null;
    while (!this.stopped) {
      try {
        if (next === null) next = await this.headAtStart();
        const head = verifiedHead(this.pool);
        if (head === null || next > head) {
          if (head !== null && previous && head < previous.id.seqno) {
            next = await this.rewind(head);
            previous = null;
            continue;
          }
          await waitForHead(this.pool, 1000);
          continue;
        }
        if (head - next > (this.options.maxLagBlocks ?? DEFAULT_MAX_LAG_BLOCKS)) {
          this.logger.warn({ from: next, to: head }, 'streaming source: too far behind the head; jumping to it (the blocks between have no events)');
          next = head;
          previous = null;
        }
        const current = await this.source.head(next);
        if (previous && !current.parsed.previous[0]?.rootHash.equals(previous.id.rootHash)) {
          next = await this.rewind(next - 1);
          previous = null;
          continue;
        }
        const before = previous ?? (next > 1 ? await this.source.head(next - 1) : null);
        const prepared = await this.source.prepare(current, before?.parsed.shardTops ?? []);
        const transactions = transactionsInOrder(prepared);
        const assembled = await assembleTraces(this.edges, transactions, prepared.seqno);
        this.edges.apply(assembled);
        const { messages, messageContents } = messageRowsOf(transactions);
        const block: ChainBlock = {
          mcSeqno: prepared.seqno,
          id: prepared.id,
          genUtime: prepared.mc.row.gen_utime,
          transactions: transactions.map((tx) => tx.row),
          messages,
          messageContents,
          accountStates: prepared.accounts,
          traces: assembled.traces,
        };
        this.remember(prepared.seqno, prepared.id.rootHash);
        previous = current;
        next = prepared.seqno + 1;
        this.statusValue = { ...this.statusValue, state: 'live', lastMcSeqno: prepared.seqno, lastError: null };
        this.emit('block', block);
      } catch (err) {
        if (this.stopped || err instanceof FetchStoppedError) break;
        const message = err instanceof Error ? err.message : String(err);
        this.statusValue = { ...this.statusValue, lastError: message };
        this.logger.warn({ err: message, seqno: next }, 'streaming source: cannot read a masterchain block; retrying');
        await sleep(RETRY_MS);
      }
    }
  }

  private remember(seqno: number, rootHash: Buffer): void {
    this.ids.set(seqno, rootHash);
    while (this.ids.size > REMEMBERED_IDS) this.ids.delete(this.ids.keys().next().value!);
  }

  /**
   * The chain under us changed at or below `below` (the embedded chain was rewound): the last
   * block both have is found among the remembered ids, 'rewind' tells the consumer, and following
   * goes on after it (memory of pending edges dropped: those traces are gone with their blocks).
   */
  private async rewind(below: number): Promise<number> {
    let common = -1;
    for (const seqno of [...this.ids.keys()].filter((s) => s <= below).sort((a, b) => b - a)) {
      const id = await this.source.mcBlockId(seqno);
      if (id.rootHash.equals(this.ids.get(seqno)!)) {
        common = seqno;
        break;
      }
    }
    if (common < 0) common = Math.max(0, below);
    for (const seqno of [...this.ids.keys()]) if (seqno > common) this.ids.delete(seqno);
    this.edges.clear();
    this.logger.warn({ common }, 'streaming source: the chain was rewound; following from the last common masterchain block');
    this.emit('rewind', common);
    return common + 1;
  }
}
