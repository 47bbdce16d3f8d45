import type { Logger } from 'pino';
import type { AccountStateRow, MessageContentRow, MessageRow, TransactionRow } from '../indexdb';
import type { ChainBlock, LiveChainFollower } from '../indexer';
import { loadedFromIndexRows } from '../v3';
import { blockEvents, completedTraces, type TraceRowLite } from './builder';
import type { SourceBlock } from './bus';
import { streamingMetrics } from './metrics';
import type { SourceStatus } from './service';

/**
 * The streaming API's event source without the index (`--index off`): the blocks the live chain
 * follower reads from the verified masterchain head (fetched, checked and parsed by the index
 * pipeline's code, src/indexer), turned into events by the same function as the index's
 * (builder.ts `blockEvents`, over the same rows converted as v3 reads them). Nothing is stored:
 * what this source remembers is bounded memory, so
 * - `account_state_before` carries the state when the account changed in a block seen since the
 *   start (else the hash alone, as for a state the index does not hold);
 * - a `trace` event needs the whole trace seen: one that began before the start, or whose earlier
 *   transactions were forgotten (over `maxTraceTransactions`), has its `transactions` events only;
 * - no `actions` (the classifier reads its token directory from the index), no address book (the
 *   book reads the index's states), no `jettons_change`.
 */

/** Where events go (the StreamingService). */
export interface ChainEventSink {
  publish(block: SourceBlock): void;
  rewind(seqno: number): void;
}

export interface ChainEventSourceOptions {
  /** Transactions of traces still in flight kept for their `trace` event. */
  readonly maxTraceTransactions?: number;
  /** Account states kept for transactions' `account_state_before`. */
  readonly maxStates?: number;
}

interface HeldTrace {
  transactions: TransactionRow[];
  messages: MessageRow[];
  contents: MessageContentRow[];
}

const DEFAULT_MAX_TRACE_TRANSACTIONS = 100_000;
const DEFAULT_MAX_STATES = 100_000;
const hex = (b: Buffer) => b.toString('hex');

export class ChainEventSource {
  private readonly states = new Map<string, AccountStateRow>();
  /** Pending traces (hex id) and what of them was seen, oldest first. */
  private readonly held = new Map<string, HeldTrace>();
  private heldCount = 0;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly follower: LiveChainFollower,
    private readonly sink: ChainEventSink,
    private readonly logger: Logger,
    private readonly options: ChainEventSourceOptions = {},
  ) {
    follower.on('block', (block: ChainBlock) => this.enqueue(() => this.onBlock(block)));
    follower.on('rewind', (common: number) =>
      this.enqueue(async () => {
        this.held.clear();
        this.heldCount = 0;
        this.sink.rewind(common);
      }),
    );
  }

  start(): void {
    this.follower.start();
  }

  async stop(): Promise<void> {
    await this.follower.stop();
    await this.chain;
  }

  status(): SourceStatus {
    const status = this.follower.status();
    if (status.state === 'stopped') return { ok: false, reason: 'the chain source is stopped', source: 'chain' };
    if (status.lastMcSeqno === null) return { ok: false, reason: status.lastError ?? 'waiting for the verified masterchain head', source: 'chain' };
    return { ok: true, reason: null, source: 'chain' };
  }

  private enqueue(task: () => Promise<void>): void {
    this.chain = this.chain.then(task).catch((err: unknown) => {
      streamingMetrics.blocks.inc({ outcome: 'failed' });
      this.logger.warn({ err }, 'streaming: cannot build the events of a block');
    });
  }

  private remember(state: AccountStateRow): void {
    const key = hex(state.hash);
    this.states.delete(key);
    this.states.set(key, state);
    const max = this.options.maxStates ?? DEFAULT_MAX_STATES;
    while (this.states.size > max) this.states.delete(this.states.keys().next().value!);
  }

  private async onBlock(block: ChainBlock): Promise<void> {
    const committedAt = Date.now();
    for (const state of block.accountStates) this.remember(state);
    const loaded = loadedFromIndexRows(block.transactions, block.messages, block.messageContents, this.states);
    const traces: TraceRowLite[] = block.traces.map((t) => ({
      trace_id: t.trace_id,
      external_hash_norm: t.external_hash_norm,
      state: t.state,
      mc_seqno_end: t.mc_seqno_end,
      nodes_: t.nodes_.toString(),
    }));
    // This block's part of each trace, then the held parts of the traces it completed.
    const parts = new Map<string, HeldTrace>();
    const contentByHash = new Map(block.messageContents.map((c) => [hex(c.hash), c]));
    for (const tx of block.transactions) {
      const key = tx.trace_id ? hex(tx.trace_id) : '';
      const part = parts.get(key) ?? { transactions: [], messages: [], contents: [] };
      part.transactions.push(tx);
      parts.set(key, part);
    }
    for (const message of block.messages) {
      const part = parts.get(message.trace_id ? hex(message.trace_id) : '');
      if (!part) continue;
      part.messages.push(message);
      for (const hash of [message.body_hash, message.init_state_hash]) {
        const content = hash ? contentByHash.get(hex(hash)) : undefined;
        if (content) part.contents.push(content);
      }
    }
    const whole: HeldTrace = { transactions: [], messages: [], contents: [] };
    const completed = completedTraces(block.mcSeqno, traces).filter((trace) => {
      const key = hex(trace.trace_id);
      const earlier = this.held.get(key);
      const here = parts.get(key);
      const count = (earlier?.transactions.length ?? 0) + (here?.transactions.length ?? 0);
      this.forget(key);
      // Only a trace seen whole (nothing of it before the start, nothing forgotten) is sent whole.
      if (count !== Number(trace.nodes_)) return false;
      for (const part of [earlier, here]) {
        if (!part) continue;
        whole.transactions.push(...part.transactions);
        whole.messages.push(...part.messages);
        whole.contents.push(...part.contents);
      }
      return true;
    });
    for (const trace of block.traces) {
      if (trace.state !== 'pending') continue;
      const key = hex(trace.trace_id);
      const here = parts.get(key);
      if (!here) continue;
      const held = this.held.get(key) ?? { transactions: [], messages: [], contents: [] };
      held.transactions.push(...here.transactions);
      held.messages.push(...here.messages);
      held.contents.push(...here.contents);
      this.heldCount += here.transactions.length;
      this.held.set(key, held);
    }
    const max = this.options.maxTraceTransactions ?? DEFAULT_MAX_TRACE_TRANSACTIONS;
    while (this.heldCount > max && this.held.size > 0) this.forget(this.held.keys().next().value!);
    whole.transactions.sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : a.account < b.account ? -1 : 1));
    const events = await blockEvents({
      loaded,
      traces,
      completed,
      actions: new Map(),
      whole: completed.length > 0 ? loadedFromIndexRows(whole.transactions, whole.messages, whole.contents, this.states) : undefined,
    });
    this.sink.publish({ mcSeqno: block.mcSeqno, committedAt, events });
  }

  private forget(key: string): void {
    const held = this.held.get(key);
    if (!held) return;
    this.heldCount -= held.transactions.length;
    this.held.delete(key);
  }
}
