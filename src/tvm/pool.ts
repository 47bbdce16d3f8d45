import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { useNativeCellHashing } from '../cells';
import { ApiError } from '../errors';
import { tvmQueueLength, tvmRunDuration, tvmRuns, tvmThreads, tvmWorkerReplacements } from '../metrics';
import { checkGlobalVersion, type NewerNetworkPolicy } from './version';
import { shareConfig } from './sharedConfig';
import type { TonConnectRequest } from './walletMessages';
import type {
  DeadlinedTask,
  ExternalMessageAnswer,
  GetMethodAnswer,
  GetMethodTask,
  QueryMessageTask,
  TraceStepAnswer,
  TraceStepTask,
  TransactionAnswer,
  TransactionTask,
  TvmAnswer,
  TvmTask,
} from './messages';

/**
 * The TVM runs in a pool of worker threads (piscina), never on the event loop. A thread holds an
 * emulator (a wasm instance) and its code, 25-55 MB, so by default threads start when a task needs
 * one (up to `workers`) and end after `idleTimeoutMs` without a task: a server that serves no
 * get-methods carries none. The price is the first task after a quiet spell, which waits for a
 * thread to start and create its emulator (~0.3 s from compiled code). With `idleTimeoutMs` 0 every
 * thread starts with the pool and lives as long as it (`warm()` readies them at start).
 * A task is bounded by the request deadline: when it passes, the task is aborted, which
 * terminates that thread (the next task starts another; see `run` for why). A task whose
 * emulator trapped gets its own error; the worker dropped that emulator instance, so later tasks
 * never see its state. Memory per thread: docs/emulate.md, "TVM threads".
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
  /** Most worker threads at once (default: the number of cores). */
  readonly workers?: number;
  /**
   * A thread without a task for this long ends, ms (default 60 s); 0: all threads start with the
   * pool and never end by themselves.
   */
  readonly idleTimeoutMs?: number;
  /** Gas limit of get-methods (toncenter: 4 000 000). */
  readonly getMethodGas?: bigint;
  /** A network whose global version is above the emulator's: refuse its tasks (default) or run them. */
  readonly newerNetwork?: NewerNetworkPolicy;
}

/** toncenter's C++ server gives get-methods 4 000 000 gas (its patch of tonlib). */
export const DEFAULT_GET_METHOD_GAS = 4_000_000n;
/**
 * How long an idle thread lives: a minute covers a client's bursts of get-methods (the thread
 * stays, each call ~ms) while a server that stopped running them gives the memory back soon.
 */
export const DEFAULT_TVM_IDLE_TIMEOUT_MS = 60_000;
/**
 * V8 young generation of a worker thread, MB. V8's default lets it grow to 32 MB (two 16 MB
 * semi-spaces) once a thread allocates a lot, e.g. rendering a large result stack, and keeps it;
 * a worker's JavaScript only moves BoCs and renders bounded stacks, its real work is in wasm.
 */
const WORKER_YOUNG_GENERATION_MB = 4;
/**
 * V8 old generation of a worker thread, MB; a thread past it is ended by V8 and replaced. Its
 * JavaScript holds bounded BoCs, cells and stacks (src/tvm/bounds.ts), and the emulator's answer:
 * the emulator of @ton/sandbox 0.41.0 logs every VM step of a get-method whatever the verbosity
 * (~11 bytes per gas unit), so a 4 000 000-gas run answers ~45 MB of text, held twice while it is
 * parsed. The emulator's own memory is wasm linear memory, outside this limit (worker.ts bounds it).
 */
const WORKER_OLD_GENERATION_MB = 256;
/** Tasks waiting per worker before new ones are refused with a 503. */
const QUEUED_TASKS_PER_WORKER = 16;
/**
 * Longest a terminated thread holds its task slot while it exits. Measured: a thread terminated
 * in the middle of a 4 000 000-gas get-method exits within ~100 ms (its wasm memory unmapped).
 * Past this the slot is given back anyway, so a thread that never reports its exit cannot stall
 * the pool.
 */
const TERMINATION_WAIT_MS = 10_000;
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
  /** 0: threads live as long as the pool. */
  readonly idleTimeoutMs: number;
  readonly newerNetwork: NewerNetworkPolicy;
  private readonly piscina: Piscina<DeadlinedTask, TvmAnswer>;
  /** True only while a deadline aborts a task: a thread piscina ends meanwhile ended under it. */
  private aborting = false;
  /** Every thread of this pool that has not exited yet, those being terminated included. */
  private readonly alive = new Set<Worker>();
  /** Threads piscina dropped, waited for until they exit. */
  private readonly dropped = new WeakSet<Worker>();
  /** Tasks handed to piscina and not settled. */
  private running = 0;
  /** Tasks waiting for a slot, first come first served. */
  private readonly waiting: (() => void)[] = [];

  constructor(options: TvmPoolOptions = {}) {
    this.workers = Math.max(1, options.workers ?? availableParallelism());
    this.getMethodGas = options.getMethodGas ?? DEFAULT_GET_METHOD_GAS;
    this.idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_TVM_IDLE_TIMEOUT_MS;
    // Default 'run': mainnet is past the emulator's version today (docs/emulate.md#tvm-version).
    this.newerNetwork = options.newerNetwork ?? 'run';
    const onDemand = this.idleTimeoutMs > 0;
    this.piscina = new Piscina<DeadlinedTask, TvmAnswer>({
      filename: path.join(__dirname, 'workerEntry.js'),
      minThreads: onDemand ? 0 : this.workers,
      maxThreads: this.workers,
      idleTimeout: onDemand ? this.idleTimeoutMs : Number.POSITIVE_INFINITY,
      maxQueue: this.workers * QUEUED_TASKS_PER_WORKER,
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB, maxOldGenerationSizeMb: WORKER_OLD_GENERATION_MB },
    });
    this.piscina.on('workerCreate', () => {
      tvmThreads.set(this.piscina.threads.length);
      this.trackNew();
    });
    this.trackNew();
    // Threads also end when idle (or at close); only the ones a deadline or a crash took count.
    this.piscina.on('workerDestroy', () => {
      if (this.aborting) tvmWorkerReplacements.inc();
      // piscina drops the thread from its list right after this event.
      queueMicrotask(() => {
        tvmThreads.set(this.piscina.threads.length);
        // One that never reports its exit stops holding a slot after a while.
        for (const worker of this.alive) {
          if (this.piscina.threads.includes(worker) || this.dropped.has(worker)) continue;
          this.dropped.add(worker);
          setTimeout(() => this.forget(worker), TERMINATION_WAIT_MS).unref();
        }
      });
    });
  }

  /** Threads alive now. */
  get threads(): number {
    return this.piscina.threads.length;
  }

  /** Threads not exited yet, those being terminated (no longer in `threads`) included. */
  get threadsAlive(): number {
    return this.alive.size;
  }

  /**
   * Tracks threads from the moment they are made: piscina makes one inside `run` (or at start) but
   * announces it only once it is ready, by when one terminated meanwhile may still be alive.
   */
  private trackNew(): void {
    for (const worker of this.piscina.threads) {
      if (this.alive.has(worker)) continue;
      this.alive.add(worker);
      worker.once('exit', () => this.forget(worker));
    }
  }

  private forget(worker: Worker): void {
    if (this.alive.delete(worker)) this.admitWaiting();
  }

  /**
   * Task slots free now. A thread terminated at a deadline keeps its memory (up to ~300 MB for a
   * 4 000 000-gas get-method: docs/emulate.md, "TVM threads") until it has exited, so its slot is
   * taken until then: without this a replacement thread started at once and ran the next heavy
   * task beside it (bench tvmflood counted up to 6 worker threads alive in the process with 2 TVM workers, RSS peaks 850 MB+).
   */
  private freeSlots(): number {
    const terminating = Math.max(0, this.alive.size - this.piscina.threads.length);
    return this.workers - terminating - this.running;
  }

  private admitWaiting(): void {
    while (this.waiting.length > 0 && this.freeSlots() > 0) {
      this.running++;
      this.waiting.shift()!();
    }
  }

  /** Resolves once the task holds a slot (the caller gives it back); rejects when the queue is full or `signal` aborts. */
  private async slot(signal: AbortSignal): Promise<void> {
    if (this.waiting.length === 0 && this.freeSlots() > 0) {
      this.running++;
      return;
    }
    if (this.waiting.length >= this.workers * QUEUED_TASKS_PER_WORKER)
      throw new ApiError('unavailable', 'all TVM workers are busy; try again later');
    await new Promise<void>((resolve, reject) => {
      const admitted = () => {
        signal.removeEventListener('abort', aborted);
        resolve();
      };
      const aborted = () => {
        const at = this.waiting.indexOf(admitted);
        if (at >= 0) this.waiting.splice(at, 1);
        tvmQueueLength.set(this.waiting.length);
        reject(deadlineError());
      };
      this.waiting.push(admitted);
      tvmQueueLength.set(this.waiting.length);
      signal.addEventListener('abort', aborted, { once: true });
    });
  }

  private release(): void {
    this.running--;
    this.admitWaiting();
  }

  /**
   * Readies the pool at start. Threads on demand: nothing to do (the first task starts one). A
   * fixed pool (`idleTimeoutMs` 0): resolves once every thread has created its emulator.
   */
  async warm(timeoutMs = 60_000): Promise<void> {
    if (this.idleTimeoutMs === 0) await this.warmAll(timeoutMs);
  }

  /**
   * Starts every thread and resolves once each has loaded its code and created its emulator (a
   * few hundred ms each, seconds under tsx), so the first requests do not spend their deadline
   * on that. Idle threads still end after `idleTimeoutMs`.
   */
  async warmAll(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const warmed = new Set<number>();
    // Tasks go to idle threads first; a few rounds reach every thread.
    for (let round = 0; round < 4 && warmed.size < this.workers; round++) {
      const answers = await Promise.all(Array.from({ length: this.workers }, () => this.run({ kind: 'warm' }, deadline)));
      for (const answer of answers) if (answer.kind === 'warm') warmed.add(answer.threadId);
    }
  }

  /**
   * Checks that the emulator implements the TVM a config's global version asks for (every
   * get-method, fee estimate and emulation calls it with its block's config first).
   */
  admitGlobalVersion(networkVersion: number): void {
    checkGlobalVersion(networkVersion, this.newerNetwork);
  }

  async getMethod(task: Omit<GetMethodTask, 'kind' | 'gasLimit'>, deadline: number): Promise<GetMethodAnswer> {
    const answer = await this.run({ ...task, kind: 'getMethod', gasLimit: this.getMethodGas.toString() }, deadline);
    if (answer.kind === 'refused') throw new ApiError('failed', `cannot run get-method: ${shortText(answer.error)}`);
    if (answer.kind !== 'getMethod') throw new ApiError('failed', 'TVM worker answered with the wrong kind of result');
    return answer;
  }

  async transaction(task: Omit<TransactionTask, 'kind'>, deadline: number): Promise<TransactionAnswer> {
    const answer = await this.run({ ...task, kind: 'transaction' }, deadline);
    if (answer.kind === 'refused') throw new ApiError('failed', `cannot emulate the message: ${shortText(answer.error)}`);
    if (answer.kind !== 'transaction') throw new ApiError('failed', 'TVM worker answered with the wrong kind of result');
    return answer;
  }

  /** One transaction of an emulated trace (src/emulate), its result read in the worker. */
  async traceStep(task: Omit<TraceStepTask, 'kind'>, deadline: number): Promise<TraceStepAnswer> {
    const answer = await this.run({ ...task, kind: 'traceStep' }, deadline);
    if (answer.kind === 'refused') throw new ApiError('failed', `cannot emulate the message: ${shortText(answer.error)}`);
    if (answer.kind !== 'traceStep') throw new ApiError('failed', 'TVM worker answered with the wrong kind of result');
    return answer;
  }

  /** The external message of a TON Connect request (422 for bad parts). */
  async tonConnectMessage(request: TonConnectRequest, deadline: number): Promise<Buffer> {
    const answer = await this.run({ kind: 'tonConnectMessage', request }, deadline);
    if (answer.kind !== 'tonConnectMessage') throw new ApiError('failed', 'TVM worker answered with the wrong kind of result');
    return Buffer.from(answer.boc.buffer, answer.boc.byteOffset, answer.boc.byteLength);
  }

  /** Checks and hashes a BoC a client wants sent (422 when it is not a sendable message). */
  async externalMessage(boc: Uint8Array, deadline: number): Promise<ExternalMessageAnswer> {
    const answer = await this.run({ kind: 'externalMessage', boc }, deadline);
    if (answer.kind !== 'externalMessage') throw new ApiError('failed', 'TVM worker answered with the wrong kind of result');
    return answer;
  }

  /** sendQuery's / estimateFee's message built from its parts (422 for bad parts). */
  async queryMessage(task: Omit<QueryMessageTask, 'kind'>, deadline: number): Promise<BuiltMessage> {
    const answer = await this.run({ ...task, kind: 'queryMessage' }, deadline);
    if (answer.kind !== 'queryMessage') throw new ApiError('failed', 'TVM worker answered with the wrong kind of result');
    return {
      boc: Buffer.from(answer.boc.buffer, answer.boc.byteOffset, answer.boc.byteLength),
      refCells: BigInt(answer.refCells),
      refBits: BigInt(answer.refBits),
      libraries: answer.libraries.map((hex) => Buffer.from(hex, 'hex')),
    };
  }

  /**
   * Runs a task in a thread and answers by `deadline`. When it passes, a task still queued is
   * dropped and a running one is aborted, which terminates its thread (the next task starts
   * another). Terminating is what bounds memory: the emulator of @ton/sandbox 0.41.0 logs every
   * VM step (~65 MB of wasm memory and ~11 bytes of text per 1 000 gas), so a run left to finish
   * after its caller gave up would hold hundreds of MB for nothing (measured: bench tvmflood, RSS
   * peak 988 MB when runs were left to finish against 469 MB when terminated, 30 s, 4 clients).
   * A thread that takes a task whose deadline already passed skips it. Tasks wait here for a slot
   * (`freeSlots`): at most `workers` run, fewer while a terminated thread has not exited.
   */
  private async run(task: TvmTask, deadline: number): Promise<TvmAnswer> {
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      tvmRuns.inc({ kind: task.kind, outcome: 'deadline' });
      throw deadlineError();
    }
    const stopTimer = tvmRunDuration.startTimer({ kind: task.kind });
    let outcome = 'ok';
    const abort = new AbortController();
    // piscina terminates the thread of a running task synchronously inside abort().
    const timer = setTimeout(() => {
      this.aborting = true;
      try {
        abort.abort();
      } finally {
        this.aborting = false;
      }
    }, remaining);
    timer.unref();
    try {
      try {
        await this.slot(abort.signal);
      } catch (err) {
        outcome = err instanceof ApiError && err.kind === 'unavailable' ? 'busy' : 'deadline';
        throw err;
      }
      let answer: TvmAnswer;
      // The config crosses in shared memory, not as a ~150 KB string cloned per task (./sharedConfig.ts).
      const wire: DeadlinedTask = 'config' in task && typeof task.config === 'string' ? { ...task, config: shareConfig(task.config), deadline } : { ...task, deadline };
      const running = this.piscina.run(wire, { signal: abort.signal });
      this.trackNew();
      running.then(
        () => this.release(),
        () => this.release(),
      );
      try {
        answer = await running;
      } catch (err) {
        if (err instanceof Error && err.name === 'AbortError') {
          outcome = 'deadline';
          throw deadlineError();
        }
        if (err instanceof Error && /queue is at limit/i.test(err.message)) {
          outcome = 'busy';
          throw new ApiError('unavailable', 'all TVM workers are busy; try again later');
        }
        // The thread died under the task (a crash, or past its heap limit); the next task gets a new one.
        outcome = 'failed';
        tvmWorkerReplacements.inc();
        throw new ApiError('failed', 'TVM worker failed; it was replaced');
      }
      if (answer.kind === 'expired') {
        outcome = 'deadline';
        throw deadlineError();
      }
      if (answer.kind === 'trapped') {
        outcome = 'trapped';
        throw new ApiError('failed', 'TVM emulator failed on this request; it was reset');
      }
      if (answer.kind === 'rejected') {
        outcome = 'rejected';
        throw new ApiError(answer.errorKind, shortText(answer.error));
      }
      return answer;
    } finally {
      clearTimeout(timer);
      stopTimer();
      tvmRuns.inc({ kind: task.kind, outcome });
    }
  }

  /**
   * Ends the threads. A stop comes after the server answered (or cut) its requests, so a task
   * still running has nobody to answer: the threads are terminated, not waited for (piscina's
   * close() would leave a timer of its closeTimeout running after the pool is gone).
   */
  async close(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)));
    await Promise.race([this.piscina.destroy().catch(() => undefined), waited]);
    clearTimeout(timer);
  }
}

function deadlineError(): ApiError {
  return new ApiError('timeout', 'TVM execution did not finish before the request deadline');
}

let shared: TvmPool | undefined;
let sharedOptions: TvmPoolOptions = {};

/** Sets the options of the process-wide pool (main/startServer, before the first request). */
export function configureTvm(options: TvmPoolOptions): TvmPool {
  // The process that runs TVM tasks decodes and builds their BoCs too; main.ts configures the
  // pool first thing, so everything after (the embedded chain's genesis included) hashes cells
  // natively (src/converters/cellHashing.ts).
  useNativeCellHashing();
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
