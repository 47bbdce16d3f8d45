import type { Logger } from 'pino';
import { Cell } from '@ton/core';
import { classifyTrace, EMPTY_DIRECTORY, type ActionJson, type TraceInput, type TraceMessage } from '../actions';
import { walletKindByCodeHash, type V3MessageJson, type V3TransactionJson } from '../converters';
import type { ChainSession } from '../proofs';
import type { EmulatedTrace } from './trace';

/**
 * What both pending stores share (src/emulate/pending.ts keeps traces in this process's memory,
 * src/emulate/pendingRedis.ts in a Redis every instance shares): the store's interface, the entry
 * built from an emulated trace (expiry, actions, size), and how a committed trace is compared
 * with its emulation.
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
  /** Most bytes (transaction BoCs and JSON) kept: in memory, all traces together; in Redis, one trace. */
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

/** Largest trace kept in Redis (its transactions' BoCs and JSON); a bigger one is this instance's only. */
export const PENDING_REDIS_ENTRY_BYTES = 1024 * 1024;

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
  /**
   * A pending trace is no longer what will happen: it expired (or was evicted) without its
   * external message landing, or the index committed its trace with another shape.
   */
  invalidated(externalHashNorm: string): void;
}

/** One committed transaction, as far as the comparison with an emulation cares (src/indexdb's TransactionRow). */
export interface CommittedTransaction {
  readonly trace_id: Buffer | null;
  readonly account: string;
  readonly aborted: boolean | null;
  readonly compute_skipped: boolean | null;
  readonly compute_exit_code: number | null;
}

/** What the index committed, as far as pending traces care (src/indexer's CommittedMcBlock rows). */
export interface CommittedRows {
  readonly transactions: readonly CommittedTransaction[];
  readonly messages: readonly { readonly msg_hash: Buffer; readonly direction: 'in' | 'out'; readonly source: string | null }[];
  readonly traces: readonly {
    readonly trace_id: Buffer;
    readonly external_hash: Buffer | null;
    readonly external_hash_norm: Buffer | null;
    readonly state: string;
    /** Transactions of the whole trace so far. */
    readonly nodes_: bigint;
  }[];
}

export interface PendingStats {
  readonly traces: number;
  readonly bytes: number;
  readonly queued: number;
  readonly running: number;
  readonly dropped: number;
  readonly failed: number;
}

/**
 * The pending store every part above it sees (v3's pending routes, the streaming wiring, the send
 * path). Two implementations: PendingTraces (this process's memory, the default) and
 * RedisPendingTraces (shared by every instance on one Redis).
 */
export interface PendingTraceStore {
  /** Listeners hear every trace added and invalidated (in Redis: on any instance). */
  listen(listener: PendingListener): () => void;
  stats(): PendingStats;
  /** A message was sent: emulate it in the background. Never throws, never waits. */
  track(boc: Buffer): void;
  /** Keeps an emulated trace as pending (what an emulation ends with; tests call it directly). */
  add(trace: EmulatedTrace): Promise<void>;
  /** Pending traces by external hash (plain or normalized, 32 bytes each); the newest first. */
  findByExternalHash(hashes: readonly Buffer[]): Promise<PendingTrace[]>;
  /** Pending traces with a transaction on `account` (raw upper-case); the newest first. */
  findByAccount(accounts: readonly string[]): Promise<PendingTrace[]>;
  /**
   * The index committed a masterchain block (told on the index's writer): a root whose message
   * landed is marked; a trace the index holds complete leaves the store, `invalidated` first
   * when it landed with another shape than emulated.
   */
  committed(rows: CommittedRows): Promise<void>;
  /** Drops expired traces: invalidated unless their message landed (then the index has them). */
  sweep(): Promise<void>;
  close(): Promise<void>;
}

/** valid_until is checked against the block's time: a message may still land in the block sealed just after it. */
const VALID_UNTIL_GRACE_MS = 10_000;

/** An emulated trace as kept: its actions, when it expires, what it weighs. */
export function pendingEntry(trace: EmulatedTrace, addedAt: number, ttlMs: number, logger: Logger): Omit<PendingTrace, 'landed'> {
  const validUntil = validUntilOf(trace);
  const expiresAt = Math.min(addedAt + ttlMs, validUntil === undefined ? Infinity : validUntil * 1000 + VALID_UNTIL_GRACE_MS);
  let actions: ActionJson[] = [];
  try {
    actions = classifyTrace(classifierInput(trace), EMPTY_DIRECTORY);
  } catch (err) {
    logger.debug({ err }, 'pending: the classifier could not read an emulated trace');
  }
  const bytes = trace.transactions.reduce((sum, tx) => sum + tx.boc.length + JSON.stringify(tx.json).length, 0) + 512;
  return { trace, actions, addedAt, expiresAt, bytes };
}

/** The newest first. */
export function newestFirst<T extends PendingTrace>(entries: Iterable<T>): T[] {
  return [...entries].sort((a, b) => b.addedAt - a.addedAt);
}

// --- Comparing what landed with what was emulated ------------------------------------------

/**
 * One transaction's shape: its account, whether it aborted, and its compute phase's exit code
 * (or that it was skipped). Balances, fees, lts and times are left out: they move with the block
 * the trace lands in without the trace doing anything else.
 */
function shapeOf(account: string, aborted: boolean, skipped: boolean, exitCode: number | null | undefined): string {
  return `${account}|${aborted ? 'aborted' : 'ok'}|${skipped ? 'skipped' : String(exitCode ?? 'none')}`;
}

function emulatedShapes(trace: EmulatedTrace): string[] {
  return trace.transactions
    .map(({ json }) => {
      const compute = json.description.compute_ph;
      const exitCode = compute?.['exit_code'];
      return shapeOf(json.account, json.description.aborted ?? false, compute === undefined || compute['skipped'] === true, typeof exitCode === 'number' ? exitCode : null);
    })
    .sort();
}

/** The shapes of a landed trace's transactions seen so far, and how many the trace has. */
export interface LandedShape {
  readonly transactions: number;
  /** Sorted; fewer than `transactions` when some were committed before this process watched. */
  readonly shapes: readonly string[];
}

/**
 * Whether a trace landed otherwise than emulated: another transaction count, or (when every
 * landed transaction was seen) another set of (account, aborted, exit code). An emulation cut
 * short (`is_incomplete`) is known to be partial and never compared.
 */
export function landedDifferently(trace: EmulatedTrace, landed: LandedShape): boolean {
  if (trace.isIncomplete) return false;
  if (landed.transactions !== trace.transactions.length) return true;
  if (landed.shapes.length !== landed.transactions) return false;
  const emulated = emulatedShapes(trace);
  return emulated.some((shape, i) => shape !== landed.shapes[i]);
}

/** Traces whose transactions are remembered across blocks until they complete. */
const WATCHED_TRACES = 4096;

/**
 * The transactions of external traces the index has committed but not completed, remembered
 * block by block (a trace can span masterchain blocks), so its shape is whole when its last
 * transaction commits. Only the instance told of commits (the index's writer) fills it; one that
 * became the writer mid-trace has part of it, and compares the count only.
 */
export class LandedTraces {
  private readonly open = new Map<string, string[]>();

  /** Feeds a committed block; returns the whole shape of each external trace it completes (by trace id, hex). */
  observe(rows: CommittedRows): Map<string, LandedShape> {
    const byTrace = new Map<string, string[]>();
    for (const tx of rows.transactions) {
      if (!tx.trace_id) continue;
      const id = tx.trace_id.toString('hex');
      const list = byTrace.get(id) ?? [];
      list.push(shapeOf(tx.account, tx.aborted ?? false, tx.compute_skipped !== false, tx.compute_exit_code));
      byTrace.set(id, list);
    }
    const done = new Map<string, LandedShape>();
    for (const trace of rows.traces) {
      if (!trace.external_hash) continue;
      const id = trace.trace_id.toString('hex');
      const shapes = [...(this.open.get(id) ?? []), ...(byTrace.get(id) ?? [])];
      if (trace.state === 'complete') {
        this.open.delete(id);
        done.set(id, { transactions: Number(trace.nodes_), shapes: shapes.sort() });
      } else {
        this.open.delete(id);
        this.open.set(id, shapes);
        if (this.open.size > WATCHED_TRACES) this.open.delete(this.open.keys().next().value as string);
      }
    }
    return done;
  }
}

// --- Reading an emulated trace -----------------------------------------------------------------

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
