import { randomBytes } from 'node:crypto';
import { Address, Cell, Dictionary } from '@ton/core';
import {
  accountAt,
  type AccountRead,
  chainConfigAt,
  type LibraryDict,
  libraryBoc,
  librariesByHash,
  shardAccountCell,
} from '../chain';
import { v3ShardId, type V3TransactionJson } from '../converters';
import { ApiError, EmulationNotAcceptedError } from '../errors';
import type { ChainSession, McBlock } from '../proofs';
import { libraryReferences, type TracedOutMessage, tvmPool } from '../tvm';


/**
 * A whole trace emulated over state read from lite servers: the external message's transaction,
 * then every internal message it sends, and theirs, each run by the emulator (a TVM worker task)
 * on its account's state at the masterchain block the emulation starts from, read once through
 * the proving pool, with that block's config and the libraries the code and messages reference.
 *
 * Order: the network runs a message after every message created before it (lower created_lt),
 * whatever shard its account is in; each transaction here takes a logical time above the last one
 * (a step of LT_STEP, as a collator's transactions do), so its messages come after every message
 * already queued: the queue, ordered by created_lt, is run breadth-first, as the embedded chain
 * and a network with its shards in step run it. An account a trace reaches twice runs the second
 * message on the state the first left.
 *
 * Bounded: at most MAX_TRACE_TRANSACTIONS transactions and MAX_TRACE_DEPTH message hops (toncenter's
 * trace emulator's own limits), and the caller's deadline; past any of them the trace is returned
 * as far as it got, with `isIncomplete`. Only the root refusing the message is an error.
 */

/** toncenter's trace emulator stops at 256 transactions (EmulationContext::txs_count_limit_). */
export const MAX_TRACE_TRANSACTIONS = 256;
/** ...and at 32 hops from the external message (trace_depth_limit_). */
export const MAX_TRACE_DEPTH = 32;
/** Logical time between two emulated transactions (the collator's lt alignment). */
const LT_STEP = 1_000_000n;
/** Lite servers answer at most this many libraries per getLibraries query. */
const LIBRARIES_PER_QUERY = 16;

export type IncompleteReason = 'transactions' | 'depth' | 'deadline';

/** One emulated transaction: what a pending store keeps and the API renders. */
export interface EmulatedTransaction {
  /** Base64 hash of the transaction cell. */
  readonly hash: string;
  /** Raw `wc:hex` of the account. */
  readonly account: string;
  /** Base64 hash of the inbound message. */
  readonly inMsgHash: string;
  /** Hash of the transaction whose message this one ran, null for the root. */
  readonly parentHash: string | null;
  /** Hops from the external message (the root is 1). */
  readonly depth: number;
  /** BoC of the transaction cell. */
  readonly boc: Uint8Array;
  /** The transaction in toncenter v3's shape, rendered in the TVM worker. */
  readonly json: V3TransactionJson;
}

export interface EmulatedTrace {
  /** The masterchain block whose state the trace ran on. */
  readonly mcBlockSeqno: number;
  /** Base64 hash of the external message and of its normalized form (TEP-467). */
  readonly externalHash: string;
  readonly externalHashNorm: string;
  /** The random seed every transaction saw, 32 bytes. */
  readonly randSeed: Buffer;
  /** In the order they ran (logical time); the first is the root. */
  readonly transactions: readonly EmulatedTransaction[];
  readonly isIncomplete: boolean;
  readonly incompleteReason?: IncompleteReason;
  /** Base64 hash → base64 BoC of the code and data of the accounts after the trace (when asked). */
  readonly codeCells: ReadonlyMap<string, string>;
  readonly dataCells: ReadonlyMap<string, string>;
}

export interface TraceRequest {
  /** BoC of an inbound external message. */
  readonly boc: Uint8Array;
  readonly ignoreChksig: boolean;
  readonly includeCodeData: boolean;
  /** Ms since the epoch: no TVM task runs past it. */
  readonly deadline: number;
  readonly maxTransactions?: number;
  readonly maxDepth?: number;
  /** Accounts the caller already read at the block (TON Connect's wallet): not read again. */
  readonly accounts?: readonly AccountRead[];
}

interface QueuedMessage {
  readonly boc: Uint8Array;
  readonly hash: string;
  readonly destination: string;
  readonly createdLt: bigint;
  readonly depth: number;
  readonly parentHash: string | null;
  /** Arrival order, ties of created_lt keep it. */
  readonly order: number;
}

/** What the trace knows of an account: its latest ShardAccount, and where and when it lives. */
interface AccountSlot {
  shardAccount: Uint8Array;
  lastLt: bigint;
  readonly now: number;
  readonly workchain: number;
  readonly blockRef: { workchain: number; shard: string; seqno: number };
}

/** A min-heap of messages by (created_lt, arrival). */
class MessageQueue {
  private readonly heap: QueuedMessage[] = [];

  get size(): number {
    return this.heap.length;
  }

  private less(a: QueuedMessage, b: QueuedMessage): boolean {
    return a.createdLt < b.createdLt || (a.createdLt === b.createdLt && a.order < b.order);
  }

  push(message: QueuedMessage): void {
    const heap = this.heap;
    heap.push(message);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  pop(): QueuedMessage | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length > 0 && last) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let smallest = i;
        if (left < heap.length && this.less(heap[left]!, heap[smallest]!)) smallest = left;
        if (right < heap.length && this.less(heap[right]!, heap[smallest]!)) smallest = right;
        if (smallest === i) break;
        [heap[i], heap[smallest]] = [heap[smallest]!, heap[i]!];
        i = smallest;
      }
    }
    return top;
  }
}

function isDeadlineError(err: unknown): boolean {
  return err instanceof ApiError && err.kind === 'timeout';
}

/**
 * The accounts and libraries of one emulation: each account read once (reads for the
 * destinations of a transaction's messages start together), each library fetched once.
 */
class TraceState {
  private readonly accounts = new Map<string, Promise<AccountSlot>>();
  private readonly libraries: LibraryDict = Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
  private readonly askedLibraries = new Set<string>();
  private libs: Uint8Array | undefined;

  constructor(
    private readonly session: ChainSession,
    private readonly block: McBlock,
  ) {}

  /** An account the caller already read. */
  known(read: AccountRead): void {
    const raw = read.address.toRawString();
    if (this.accounts.has(raw)) return;
    const slot = this.slotOf(read);
    slot.catch(() => undefined);
    this.accounts.set(raw, slot);
  }

  /** Starts reading the account (once); the slot resolves with its state and libraries fetched. */
  account(raw: string): Promise<AccountSlot> {
    let slot = this.accounts.get(raw);
    if (!slot) {
      slot = this.read(Address.parseRaw(raw));
      // A read that fails is awaited (and reported) only if its message is reached.
      slot.catch(() => undefined);
      this.accounts.set(raw, slot);
    }
    return slot;
  }

  private async read(address: Address): Promise<AccountSlot> {
    return this.slotOf(await accountAt(this.session, this.block, address));
  }

  private async slotOf(read: AccountRead): Promise<AccountSlot> {
    const address = read.address;
    const state = read.account?.storage.state;
    if (state?.type === 'active') await this.fetchLibraries(libraryReferences([state.state.code ?? null, state.state.data ?? null]));
    return {
      shardAccount: shardAccountCell(read).toBoc(),
      lastLt: read.lastTransaction?.lt ?? 0n,
      now: read.syncUtime,
      workchain: address.workChain,
      blockRef: { workchain: read.shardBlock.workchain, shard: v3ShardId(read.shardBlock.shard), seqno: read.shardBlock.seqno + 1 },
    };
  }

  /** Fetches the libraries not asked for yet (a library no lite server has stays missing). */
  async fetchLibraries(hashes: readonly Buffer[]): Promise<void> {
    const wanted = hashes.filter((hash) => !this.askedLibraries.has(hash.toString('hex')));
    for (const hash of wanted) this.askedLibraries.add(hash.toString('hex'));
    const batches: Buffer[][] = [];
    for (let i = 0; i < wanted.length; i += LIBRARIES_PER_QUERY) batches.push(wanted.slice(i, i + LIBRARIES_PER_QUERY));
    const answers = await Promise.all(batches.map((batch) => librariesByHash(this.session, batch)));
    let added = false;
    for (const entry of answers.flat()) {
      this.libraries.set(entry.hash, Cell.fromBoc(entry.data)[0]!);
      added = true;
    }
    if (added) this.libs = libraryBoc(this.libraries);
  }

  get libraryBoc(): Uint8Array | undefined {
    return this.libs;
  }
}

/** The message a queued out message is, for the queue. */
function queued(message: TracedOutMessage, depth: number, parentHash: string, order: number): QueuedMessage {
  return {
    boc: message.boc,
    hash: message.hash,
    destination: message.destination,
    createdLt: BigInt(message.createdLt),
    depth,
    parentHash,
    order,
  };
}

/** Emulates the trace of an external message at masterchain block `block` (see the top of this file). */
export async function emulateTraceAt(session: ChainSession, block: McBlock, request: TraceRequest): Promise<EmulatedTrace> {
  const { deadline } = request;
  const maxTransactions = request.maxTransactions ?? MAX_TRACE_TRANSACTIONS;
  const maxDepth = request.maxDepth ?? MAX_TRACE_DEPTH;
  // Checked and hashed in a worker: a 422 for anything but one inbound external message.
  const external = await tvmPool().externalMessage(request.boc, deadline);
  const state = new TraceState(session, block);
  for (const read of request.accounts ?? []) state.known(read);
  const [config] = await Promise.all([chainConfigAt(session, block), state.account(external.destination)]);
  tvmPool().admitGlobalVersion(config.globalVersion);
  const randSeed = randomBytes(32);
  const queue = new MessageQueue();
  let order = 0;
  queue.push({ boc: request.boc, hash: external.hash, destination: external.destination, createdLt: 0n, depth: 1, parentHash: null, order: order++ });

  const transactions: EmulatedTransaction[] = [];
  const codeCells = new Map<string, string>();
  const dataCells = new Map<string, string>();
  let incomplete: IncompleteReason | undefined;
  let cursor = 0n;

  for (let message = queue.pop(); message; message = queue.pop()) {
    if (transactions.length >= maxTransactions) {
      incomplete = 'transactions';
      break;
    }
    if (message.depth > maxDepth) {
      incomplete ??= 'depth';
      continue;
    }
    let step;
    let account: AccountSlot;
    let lt: bigint;
    try {
      account = await state.account(message.destination);
      if (transactions.length === 0) cursor = account.lastLt + LT_STEP;
      lt = [cursor, account.lastLt + 1n, message.createdLt + 1n].reduce((a, b) => (a > b ? a : b));
      cursor = lt + LT_STEP;
      const libs = state.libraryBoc;
      step = await tvmPool().traceStep(
        {
          message: message.boc,
          shardAccount: account.shardAccount,
          config: config.base64,
          ...(libs ? { libs } : {}),
          now: account.now,
          lt: lt.toString(),
          randSeed: randSeed.toString('hex'),
          // Only the external message carries a signature to skip.
          ignoreChksig: message.parentHash === null && request.ignoreChksig,
          workchain: account.workchain,
          place: {
            mcBlockSeqno: block.seqno + 1,
            blockRef: account.blockRef,
            traceId: external.hash,
            traceExternalHash: external.hashNorm,
            emulated: true,
            finality: 'pending',
          },
          includeCodeData: request.includeCodeData,
        },
        deadline,
      );
    } catch (err) {
      // Out of time (or a read that did not finish in it) after the root ran: what ran is the answer.
      if (transactions.length > 0 && (isDeadlineError(err) || Date.now() >= deadline)) {
        incomplete = 'deadline';
        break;
      }
      throw err;
    }
    if (!step.accepted || !step.transaction || !step.hash || !step.shardAccount || !step.rendered) {
      if (message.parentHash === null) throw new EmulationNotAcceptedError(step.exitCode, step.error);
      // An internal message always makes a transaction; an emulator that made none ends the branch.
      incomplete ??= 'depth';
      continue;
    }
    account.shardAccount = step.shardAccount;
    account.lastLt = lt;
    transactions.push({
      hash: step.hash,
      account: message.destination,
      inMsgHash: message.hash,
      parentHash: message.parentHash,
      depth: message.depth,
      boc: step.transaction,
      json: step.rendered,
    });
    if (step.code) codeCells.set(step.code.hash, step.code.boc);
    if (step.data) dataCells.set(step.data.hash, step.data.boc);
    const sent = step.outMessages ?? [];
    // Reads of the next accounts and the libraries the messages carry start together.
    for (const out of sent) void state.account(out.destination);
    if (step.libraries && step.libraries.length > 0) await state.fetchLibraries(step.libraries.map((hex) => Buffer.from(hex, 'hex')));
    for (const out of sent) queue.push(queued(out, message.depth + 1, step.hash, order++));
  }

  return {
    mcBlockSeqno: block.seqno,
    externalHash: external.hash,
    externalHashNorm: external.hashNorm,
    randSeed,
    transactions,
    isIncomplete: incomplete !== undefined,
    ...(incomplete ? { incompleteReason: incomplete } : {}),
    codeCells,
    dataCells,
  };
}
