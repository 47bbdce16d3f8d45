import type { Logger } from 'pino';
import { Cell } from '@ton/core';
import { classifyTrace, EMPTY_DIRECTORY, type ActionJson, type TraceInput, type TraceMessage } from '../actions';
import { walletKindByCodeHash, type V3MessageJson, type V3TransactionJson } from '../converters';
import { ApiError } from '../errors';
import type { ChainSession } from '../proofs';
import { emulateTraceAt, type EmulatedTrace } from './trace';

/**
 * Pending traces: every external message sent through this server, emulated at once (its whole
 * trace, in the TVM pool, on the verified head) and kept until the index commits it, so v3's
 * pending* routes and the streaming API can show what it is doing before its block exists, as
 * toncenter's trace emulator does with its Redis of emulated traces.
 *
 * Keyed by the normalized external hash (TEP-467; ton-index-go's trace key), also found by the
 * plain hash and by every account a transaction of the trace ran on. The send never waits for any
 * of it: `track` queues the message and returns. A trace leaves the store when the index commits
 * its trace complete (`committed`), when it expires (the wallet's `valid_until` when the message
 * is a known wallet's, else `ttlMs` after it was sent; the sooner) — then listeners hear
 * `invalidated` unless its external message landed —, or when the bounds evict the oldest.
 *
 * One instance's memory: instances behind one load balancer do not see each other's pending
 * traces (docs/emulate.md, "Pending traces").
 */

export interface PendingOptions {
  /** A lite-server session with its own deadline (the proving pool). */
  readonly openSession: (deadline: number) => ChainSession;
  /** How long one emulation may run, ms. */
  readonly emulationTimeoutMs: number;
  /** Longest a trace stays pending when its message does not say (valid_until), ms. */
  readonly ttlMs: number;
  /** Most pending traces kept; the oldest leave first. */
  readonly maxTraces: number;
  /** Most bytes (transaction BoCs and JSON) kept. */
  readonly maxBytes: number;
  /** Emulations run at once (each holds a TVM thread per step). */
  readonly concurrency: number;
  /** Sends waiting for an emulation; past it a send is not emulated (counted, logged). */
  readonly queueLimit: number;
  readonly logger: Logger;
  /**
   * Which of these external message hashes (plain, 32 bytes) the index holds as inbound messages:
   * asked before an expired trace is invalidated, so an instance that does not hear the index's
   * commits (not its writer) or missed one never invalidates a trace that landed.
   */
  readonly landedInIndex?: (hashes: readonly Buffer[]) => Promise<ReadonlySet<string>>;
  /** Ms clock (tests). */
  readonly now?: () => number;
}

export const PENDING_DEFAULTS = {
  ttlMs: 60_000,
  maxTraces: 2_000,
  maxBytes: 64 * 1024 * 1024,
  concurrency: 2,
  queueLimit: 256,
} as const;

/** valid_until is checked against the block's time: a message may still land in the block sealed just after it. */
const VALID_UNTIL_GRACE_MS = 10_000;
/** How often expiry is checked, ms. */
const SWEEP_MS = 500;
/** External hashes the index committed, remembered so an emulation ending after the block is not kept. */
const LANDED_MEMORY = 4096;

export interface PendingTrace {
  readonly trace: EmulatedTrace;
  /** The trace's actions (src/actions over the emulated transactions), finality pending. */
  readonly actions: readonly ActionJson[];
  readonly addedAt: number;
  readonly expiresAt: number;
  readonly bytes: number;
  /** Transactions (base64 hashes) whose inbound message the index committed. */
  readonly landed: ReadonlySet<string>;
}

export interface PendingListener {
  /** A trace became pending. */
  added(entry: PendingTrace): void;
  /** A pending trace expired (or was evicted) without its external message landing. */
  invalidated(externalHashNorm: string): void;
}

/** What the index committed, as far as pending traces care (src/indexer's CommittedMcBlock rows). */
export interface CommittedRows {
  readonly messages: readonly { readonly msg_hash: Buffer; readonly direction: 'in' | 'out' }[];
  readonly traces: readonly { readonly external_hash: Buffer | null; readonly external_hash_norm: Buffer | null; readonly state: string }[];
}

export interface PendingStats {
  readonly traces: number;
  readonly bytes: number;
  readonly queued: number;
  readonly running: number;
  readonly dropped: number;
  readonly failed: number;
}

interface Entry extends PendingTrace {
  readonly landed: Set<string>;
  rootLanded: boolean;
}

const hexOf = (base64: string) => Buffer.from(base64, 'base64').toString('hex');

export class PendingTraces {
  private readonly entries = new Map<string, Entry>();
  /** Plain external hash (hex) -> normalized (hex). */
  private readonly byPlain = new Map<string, string>();
  /** Raw upper-case account -> normalized hashes (hex) of the traces it ran in. */
  private readonly byAccount = new Map<string, Set<string>>();
  private readonly landedHashes = new Set<string>();
  private readonly listeners = new Set<PendingListener>();
  private readonly queue: Buffer[] = [];
  private running = 0;
  private bytesValue = 0;
  private dropped = 0;
  private failed = 0;
  private readonly timer: NodeJS.Timeout;
  private closed = false;
  private sweeping = false;
  private readonly now: () => number;

  constructor(private readonly options: PendingOptions) {
    this.now = options.now ?? Date.now;
    this.timer = setInterval(() => void this.sweep(), SWEEP_MS);
    this.timer.unref();
  }

  listen(listener: PendingListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  stats(): PendingStats {
    return { traces: this.entries.size, bytes: this.bytesValue, queued: this.queue.length, running: this.running, dropped: this.dropped, failed: this.failed };
  }

  /** A message was sent: emulate it in the background. Never throws, never waits. */
  track(boc: Buffer): void {
    if (this.closed) return;
    if (this.queue.length >= this.options.queueLimit) {
      this.dropped += 1;
      this.options.logger.warn({ queued: this.queue.length }, 'pending: emulation queue full; a sent message is not shown as pending');
      return;
    }
    this.queue.push(boc);
    this.pump();
  }

  private pump(): void {
    while (!this.closed && this.running < this.options.concurrency && this.queue.length > 0) {
      const boc = this.queue.shift()!;
      this.running += 1;
      void this.emulate(boc).finally(() => {
        this.running -= 1;
        this.pump();
      });
    }
  }

  private async emulate(boc: Buffer): Promise<void> {
    const deadline = this.now() + this.options.emulationTimeoutMs;
    try {
      const session = this.options.openSession(deadline);
      const block = (await session.head()).last;
      const trace = await emulateTraceAt(session, block, { boc, ignoreChksig: false, includeCodeData: false, deadline });
      this.add(trace);
    } catch (err) {
      // A message its contract refuses never lands either: nothing to show.
      this.failed += 1;
      const level = err instanceof ApiError ? 'debug' : 'warn';
      this.options.logger[level]({ err }, 'pending: a sent message could not be emulated');
    }
  }

  /** Keeps an emulated trace as pending (exposed for tests that emulate themselves). */
  add(trace: EmulatedTrace): void {
    const key = hexOf(trace.externalHashNorm);
    if (this.closed || this.entries.has(key) || this.landedHashes.has(key) || this.landedHashes.has(hexOf(trace.externalHash))) return;
    const addedAt = this.now();
    const validUntil = validUntilOf(trace);
    const expiresAt = Math.min(addedAt + this.options.ttlMs, validUntil === undefined ? Infinity : validUntil * 1000 + VALID_UNTIL_GRACE_MS);
    let actions: ActionJson[] = [];
    try {
      actions = classifyTrace(classifierInput(trace), EMPTY_DIRECTORY);
    } catch (err) {
      this.options.logger.debug({ err }, 'pending: the classifier could not read an emulated trace');
    }
    const bytes = trace.transactions.reduce((sum, tx) => sum + tx.boc.length + JSON.stringify(tx.json).length, 0) + 512;
    const entry: Entry = { trace, actions, addedAt, expiresAt, bytes, landed: new Set(), rootLanded: false };
    this.entries.set(key, entry);
    this.byPlain.set(hexOf(trace.externalHash), key);
    for (const tx of trace.transactions) {
      const set = this.byAccount.get(tx.json.account) ?? new Set();
      set.add(key);
      this.byAccount.set(tx.json.account, set);
    }
    this.bytesValue += bytes;
    // Bounds: the oldest leave first (Map keeps insertion order).
    while (this.entries.size > 1 && (this.entries.size > this.options.maxTraces || this.bytesValue > this.options.maxBytes)) {
      const oldest = this.entries.keys().next().value as string;
      this.remove(oldest, true);
    }
    if (!this.entries.has(key)) return;
    for (const listener of this.listeners) listener.added(entry);
  }

  /** Pending traces by external hash (plain or normalized, 32 bytes each); the newest first. */
  findByExternalHash(hashes: readonly Buffer[]): PendingTrace[] {
    const found = new Set<Entry>();
    for (const hash of hashes) {
      const hex = hash.toString('hex');
      const entry = this.entries.get(hex) ?? this.entries.get(this.byPlain.get(hex) ?? '');
      if (entry) found.add(entry);
    }
    return newestFirst(found);
  }

  /** Pending traces with a transaction on `account` (raw upper-case); the newest first. */
  findByAccount(accounts: readonly string[]): PendingTrace[] {
    const found = new Set<Entry>();
    for (const account of accounts) {
      for (const key of this.byAccount.get(account) ?? []) {
        const entry = this.entries.get(key);
        if (entry) found.add(entry);
      }
    }
    return newestFirst(found);
  }

  /**
   * The index committed a masterchain block: transactions whose inbound message it holds are no
   * longer pending; a trace the index holds complete leaves the store (its events are the
   * index's now).
   */
  committed(rows: CommittedRows): void {
    for (const message of rows.messages) {
      if (message.direction !== 'in') continue;
      const hex = message.msg_hash.toString('hex');
      const key = this.entries.has(hex) ? hex : this.byPlain.get(hex);
      const root = key === undefined ? undefined : this.entries.get(key);
      if (root) {
        root.rootLanded = true;
        root.landed.add(root.trace.transactions[0]!.hash);
      }
      this.rememberLanded(hex);
    }
    for (const trace of rows.traces) {
      const norm = trace.external_hash_norm?.toString('hex');
      const plain = trace.external_hash?.toString('hex');
      const key = norm !== undefined && this.entries.has(norm) ? norm : plain !== undefined ? this.byPlain.get(plain) : undefined;
      if (norm !== undefined) this.rememberLanded(norm);
      if (key === undefined) continue;
      const entry = this.entries.get(key)!;
      entry.rootLanded = true;
      if (trace.state === 'complete') this.remove(key, false);
    }
  }

  private rememberLanded(hex: string): void {
    this.landedHashes.add(hex);
    if (this.landedHashes.size > LANDED_MEMORY) this.landedHashes.delete(this.landedHashes.values().next().value as string);
  }

  /** Drops expired traces: invalidated unless their message landed (then the index has them). */
  async sweep(): Promise<void> {
    if (this.sweeping) return;
    const now = this.now();
    const expired = [...this.entries].filter(([, entry]) => entry.expiresAt <= now);
    if (expired.length === 0) return;
    this.sweeping = true;
    try {
      const check = this.options.landedInIndex;
      const unsure = expired.filter(([, entry]) => !entry.rootLanded);
      if (check && unsure.length > 0) {
        try {
          const landed = await check(unsure.map(([, entry]) => Buffer.from(entry.trace.externalHash, 'base64')));
          for (const [, entry] of unsure) if (landed.has(hexOf(entry.trace.externalHash))) entry.rootLanded = true;
        } catch (err) {
          // The index is away: keep them one more round rather than invalidate what may have landed.
          this.options.logger.debug({ err }, 'pending: could not ask the index whether expired messages landed');
          return;
        }
      }
      for (const [key] of expired) this.remove(key, true);
    } finally {
      this.sweeping = false;
    }
  }

  private remove(key: string, notify: boolean): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.byPlain.delete(hexOf(entry.trace.externalHash));
    for (const tx of entry.trace.transactions) {
      const set = this.byAccount.get(tx.json.account);
      set?.delete(key);
      if (set && set.size === 0) this.byAccount.delete(tx.json.account);
    }
    this.bytesValue -= entry.bytes;
    if (notify && !entry.rootLanded) {
      for (const listener of this.listeners) listener.invalidated(entry.trace.externalHashNorm);
    }
  }

  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    this.queue.length = 0;
  }
}

function newestFirst(entries: Iterable<Entry>): PendingTrace[] {
  return [...entries].sort((a, b) => b.addedAt - a.addedAt);
}

/**
 * The `valid_until` a known wallet's external message carries (seconds), read from the body by
 * the wallet's code: v2 (seqno, valid_until), v3/v4 (wallet_id, valid_until, seqno) after the
 * signature, v5 r1 (opcode, wallet_id, valid_until, seqno). Undefined for anything else.
 */
function validUntilOf(trace: EmulatedTrace): number | undefined {
  const root = trace.transactions[0]?.json;
  const codeHash = root?.account_state_before?.code_hash ?? root?.account_state_after?.code_hash;
  const body = root?.in_msg?.message_content.body;
  if (!codeHash || !body) return undefined;
  const kind = walletKindByCodeHash(Buffer.from(codeHash, 'base64'));
  if (!kind) return undefined;
  try {
    const slice = Cell.fromBase64(body).beginParse();
    if (kind.name.startsWith('wallet v2')) {
      slice.skip(512 + 32);
      return slice.loadUint(32);
    }
    if (kind.layout === 'seqno-wallet-id') {
      slice.skip(512 + 32);
      return slice.loadUint(32);
    }
    if (kind.name === 'wallet v5 r1') {
      slice.skip(64);
      return slice.loadUint(32);
    }
  } catch {
    // A body shorter than its wallet reads is refused by the wallet; no valid_until to go by.
  }
  return undefined;
}

function traceMessage(message: V3MessageJson): TraceMessage {
  let body: Cell | null = null;
  try {
    body = message.message_content.body ? Cell.fromBase64(message.message_content.body) : null;
  } catch {
    body = null;
  }
  return {
    hash: message.hash,
    source: message.source,
    destination: message.destination,
    value: message.value === null ? null : BigInt(message.value),
    opcode: message.opcode === null ? null : Number(message.opcode) >>> 0,
    body,
    bounce: message.bounce ?? false,
    bounced: message.bounced ?? false,
  };
}

type StatusWord = TraceInput['transactions'][number]['origStatus'];

/** The classifier's view of an emulated trace (what src/actions reads from the index's rows). */
function classifierInput(trace: EmulatedTrace): TraceInput {
  const transactions = trace.transactions.map(({ json }: { json: V3TransactionJson }) => ({
    hash: json.hash,
    lt: BigInt(json.lt),
    now: json.now,
    account: json.account,
    mcSeqno: json.mc_block_seqno,
    aborted: json.description.aborted ?? false,
    origStatus: json.orig_status as StatusWord,
    endStatus: json.end_status as StatusWord,
    tickTock: json.in_msg === null,
    inMsg: json.in_msg === null ? null : traceMessage(json.in_msg),
    outMsgs: json.out_msgs.map(traceMessage),
  }));
  return { traceId: trace.transactions[0]?.hash ?? trace.externalHash, externalHash: trace.externalHashNorm, transactions };
}
