import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Piscina } from 'piscina';
import { ApiError } from '../errors';
import { tvmQueueLength, tvmRunDuration, tvmRuns, tvmWorkerReplacements } from '../metrics/registry';
import type {
  ExternalMessageAnswer,
  GetMethodAnswer,
  GetMethodTask,
  QueryMessageTask,
  TransactionAnswer,
  TransactionTask,
  TvmAnswer,
  TvmTask,
} from './messages';

/**
 * The TVM runs in a fixed pool of worker threads (piscina), never on the event loop. Threads
 * start with the pool, each creates its emulator once and keeps it. A task is bounded by the
 * request deadline: when it passes, the task is aborted, which terminates that thread, and
 * piscina starts a fresh one. A task whose emulator trapped gets its own error; the worker
 * dropped that emulator instance, so later tasks never see its state.
 */

/** A message built in a worker, with what estimateFee needs of it, so the event loop never decodes it. */
export interface BuiltMessage {
  readonly boc: Buffer;
  /** Distinct cells and bits below the root cell (the import fee's measure). */
  readonly refCells: bigint;
  readonly refBits: bigint;
  /** Hashes of the library cells it references. */
  readonly libraries: Buffer[];
}

export interface TvmPoolOptions {
  /** Worker threads (default: the number of cores). */
  readonly workers?: number;
  /** Gas limit of get-methods (toncenter: 4 000 000). */
  readonly getMethodGas?: bigint;
}

/** toncenter's C++ server gives get-methods 4 000 000 gas (its patch of tonlib). */
export const DEFAULT_GET_METHOD_GAS = 4_000_000n;
/** Tasks waiting per worker before new ones are refused with a 503. */
const QUEUED_TASKS_PER_WORKER = 16;
/** Longest a stop waits for the threads to end (they are terminated with the process anyway). */
const CLOSE_WAIT_MS = 2000;
/** Longest emulator text quoted in an error. */
const MAX_ERROR_TEXT = 200;

function shortText(text: string): string {
  return text.length > MAX_ERROR_TEXT ? `${text.slice(0, MAX_ERROR_TEXT)}...` : text;
}

export class TvmPool {
  readonly workers: number;
  readonly getMethodGas: bigint;
  private readonly piscina: Piscina<TvmTask, TvmAnswer>;
  private closing = false;

  constructor(options: TvmPoolOptions = {}) {
    this.workers = Math.max(1, options.workers ?? availableParallelism());
    this.getMethodGas = options.getMethodGas ?? DEFAULT_GET_METHOD_GAS;
    this.piscina = new Piscina<TvmTask, TvmAnswer>({
      filename: path.join(__dirname, 'workerEntry.js'),
      minThreads: this.workers,
      maxThreads: this.workers,
      idleTimeout: Number.POSITIVE_INFINITY,
      maxQueue: this.workers * QUEUED_TASKS_PER_WORKER,
    });
    // piscina keeps minThreads alive: a thread that ends while the pool runs is replaced.
    this.piscina.on('workerDestroy', () => {
      if (!this.closing) tvmWorkerReplacements.inc();
    });
  }

  /** Threads alive now (a replaced thread is counted once its successor started). */
  get threads(): number {
    return this.piscina.threads.length;
  }

  /**
   * Resolves once the threads have loaded their code and created their emulators (a few hundred
   * ms each, seconds under tsx), so the first requests do not spend their deadline on that.
   */
  async warm(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const warmed = new Set<number>();
    // Tasks go to idle threads first; a few rounds reach every thread.
    for (let round = 0; round < 4 && warmed.size < this.workers; round++) {
      const answers = await Promise.all(Array.from({ length: this.workers }, () => this.run({ kind: 'warm' }, deadline)));
      for (const answer of answers) if (answer.kind === 'warm') warmed.add(answer.threadId);
    }
  }

  async getMethod(task: Omit<GetMethodTask, 'kind' | 'gasLimit'>, deadline: number): Promise<GetMethodAnswer> {
    const answer = await this.run({ ...task, kind: 'getMethod', gasLimit: this.getMethodGas.toString() }, deadline);
    if (answer.kind === 'refused') throw new ApiError(500, `cannot run get-method: ${shortText(answer.error)}`);
    if (answer.kind !== 'getMethod') throw new ApiError(500, 'TVM worker answered with the wrong kind of result');
    return answer;
  }

  async transaction(task: Omit<TransactionTask, 'kind'>, deadline: number): Promise<TransactionAnswer> {
    const answer = await this.run({ ...task, kind: 'transaction' }, deadline);
    if (answer.kind === 'refused') throw new ApiError(500, `cannot emulate the message: ${shortText(answer.error)}`);
    if (answer.kind !== 'transaction') throw new ApiError(500, 'TVM worker answered with the wrong kind of result');
    return answer;
  }

  /** Checks and hashes a BoC a client wants sent (422 when it is not a sendable message). */
  async externalMessage(boc: Uint8Array, deadline: number): Promise<ExternalMessageAnswer> {
    const answer = await this.run({ kind: 'externalMessage', boc }, deadline);
    if (answer.kind !== 'externalMessage') throw new ApiError(500, 'TVM worker answered with the wrong kind of result');
    return answer;
  }

  /** sendQuery's / estimateFee's message built from its parts (422 for bad parts). */
  async queryMessage(task: Omit<QueryMessageTask, 'kind'>, deadline: number): Promise<BuiltMessage> {
    const answer = await this.run({ ...task, kind: 'queryMessage' }, deadline);
    if (answer.kind !== 'queryMessage') throw new ApiError(500, 'TVM worker answered with the wrong kind of result');
    return {
      boc: Buffer.from(answer.boc.buffer, answer.boc.byteOffset, answer.boc.byteLength),
      refCells: BigInt(answer.refCells),
      refBits: BigInt(answer.refBits),
      libraries: answer.libraries.map((hex) => Buffer.from(hex, 'hex')),
    };
  }

  private async run(task: TvmTask, deadline: number): Promise<TvmAnswer> {
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      tvmRuns.inc({ kind: task.kind, outcome: 'deadline' });
      throw deadlineError();
    }
    const stopTimer = tvmRunDuration.startTimer({ kind: task.kind });
    let outcome = 'ok';
    try {
      let answer: TvmAnswer;
      const running = this.piscina.run(task, { signal: AbortSignal.timeout(remaining) });
      tvmQueueLength.set(this.piscina.queueSize);
      try {
        answer = await running;
      } catch (err) {
        if (err instanceof Error && err.name === 'AbortError') {
          outcome = 'deadline';
          throw deadlineError();
        }
        if (err instanceof Error && /queue is at limit/i.test(err.message)) {
          outcome = 'busy';
          throw new ApiError(503, 'all TVM workers are busy; try again later');
        }
        outcome = 'failed';
        throw new ApiError(500, 'TVM worker failed; it was replaced');
      }
      if (answer.kind === 'trapped') {
        outcome = 'trapped';
        throw new ApiError(500, 'TVM emulator failed on this request; it was reset');
      }
      if (answer.kind === 'rejected') {
        outcome = 'rejected';
        throw new ApiError(answer.code, shortText(answer.error));
      }
      return answer;
    } finally {
      stopTimer();
      tvmRuns.inc({ kind: task.kind, outcome });
      tvmQueueLength.set(this.piscina.queueSize);
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    const waited = new Promise<void>((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref());
    await Promise.race([this.piscina.close({ force: true }).catch(() => undefined), waited]);
  }
}

function deadlineError(): ApiError {
  return new ApiError(504, 'TVM execution did not finish before the request deadline');
}

let shared: TvmPool | undefined;
let sharedOptions: TvmPoolOptions = {};

/** Sets the options of the process-wide pool (main/startServer, before the first request). */
export function configureTvm(options: TvmPoolOptions): TvmPool {
  if (shared) void shared.close();
  sharedOptions = options;
  shared = new TvmPool(options);
  return shared;
}

/** The process-wide pool, started with the configured (or default) options on first use. */
export function tvmPool(): TvmPool {
  shared ??= new TvmPool(sharedOptions);
  return shared;
}

/** Stops the process-wide pool (graceful stop, tests). */
export async function closeTvm(): Promise<void> {
  const pool = shared;
  shared = undefined;
  await pool?.close();
}
