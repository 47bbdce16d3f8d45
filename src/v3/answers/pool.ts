import path from 'node:path';
import { Piscina } from 'piscina';
import { ApiError, ValidationError } from '../../errors';
import { v3AnswerQueueLength, v3AnswerTasks } from '../../metrics';
import { answerTooLargeText, assembleAnswer, movableBuffers, taskSize, type AnswerTask, type TaskFailure, type TransactionsQueryTask } from './assemble';

/**
 * v3 answers assembled off the event loop. A page of 1 000 transactions is 2.6-2.8 MB of JSON;
 * parsing PostgreSQL's JSON, building the answer's objects and writing its text took ~70-130 ms
 * of the event loop, during which every other request (v2 included) waited: any client could
 * stall the server by asking for such pages in a loop. Here that work runs in a few worker threads
 * (piscina): the rows cross as the text PostgreSQL sent, as its bytes (V3Database.queryTextBytes,
 * moved to the thread, not copied), or, for the pages of transactions on a PostgreSQL server, the
 * thread reads them itself (queryAndAssemble: the driver makes a string of all of it, which then
 * happens in the thread); the answer comes back as bytes moved too, written to the response as they are.
 *
 * Small answers stay on the event loop: the hop to a thread and back costs ~0.1-0.3 ms of the
 * event loop's time (the task's clone, the answer's message, two wake-ups), more than assembling
 * an answer of a few KB (`inlineBelow`, measured: docs/benchmarks.md). With 0 threads every answer
 * is assembled inline (as before the pool).
 *
 * Bounded: `threads` threads, started by the first large answers and kept (each holds its loaded
 * code, ~20-40 MB), and `queue` tasks waiting; past that a request is answered 503 at once, as the TVM pool
 * does, never queued without bound. A thread that dies under a task (a crash) fails that request
 * with a 500 and piscina starts another.
 */

export interface AnswerPoolOptions {
  /** Threads (0: every answer on the event loop). */
  readonly threads: number;
  /** Tasks waiting for a thread before new ones are refused with a 503. */
  readonly queue: number;
  /** Tasks with less JSON text than this (characters) are assembled on the event loop. */
  readonly inlineBelow: number;
  /**
   * The most JSON text (characters or bytes) a task may hold (default MAX_TASK_BYTES); a larger
   * one is refused with a 422 before any work, in a thread or inline.
   */
  readonly maxTaskBytes?: number;
  /** The threads' nice value (default ANSWER_THREAD_NICE; 0: the process's priority). */
  readonly nice?: number;
  /** V8 old generation of a thread, MB (default THREAD_OLD_GENERATION_MB); past it the thread dies. */
  readonly maxOldGenerationMb?: number;
  /**
   * The index's PostgreSQL server (its read URL): each thread then reads the large pages of
   * transactions itself (queryAndAssemble), on connections of its own. Absent (the embedded
   * store, whose one connection is the index thread's): every statement runs on the event loop's side.
   */
  readonly databaseUrl?: string;
  /** Throws the reason when the index cannot be read (as the event loop's reads check it first). */
  readonly gate?: () => void;
}

/** What the routes need: a task's answer as the bytes of its JSON. */
export interface AnswerAssembler {
  assemble(task: AnswerTask): Promise<Buffer>;
  /** A page's statement run and its answer assembled in a thread; absent where threads cannot read the index. */
  readonly queryAndAssemble?: (task: TransactionsQueryTask) => Promise<Buffer>;
}

/** Tasks a thread runs at once when it reads the index itself: one may assemble while another waits on PostgreSQL. */
const QUERY_TASKS_PER_THREAD = 2;

/** The answer on the event loop (no pool, or a small task). */
export function assembleInline(task: AnswerTask): Buffer {
  return Buffer.from(assembleAnswer(task));
}

/**
 * The default bound of a task's JSON text (`--v3-answer-max`). A page of 1 000 transactions is
 * ~4 MB; a `traces` page of 1 000 traces with their actions can pass 40 MB (47 MB measured on the
 * bench's fill), and nothing in the parameters bounds it otherwise (a trace holds up to 4 000
 * transactions). Past this the request is refused before any work: assembling ~94 MB of text
 * took a thread past a 256 MB heap, and past a thread's heap limit V8 may end the whole process
 * rather than the thread (seen with JSON.parse at a 16 MB limit, Node 20.20). So what bounds the
 * memory is this size, checked first, with the heap limit below ~20x above it.
 */
export const MAX_TASK_BYTES = 48 * 1024 * 1024;
/**
 * V8 old generation of an answer thread, MB: room for the largest task MAX_TASK_BYTES lets in
 * (its text, the parsed rows, the answer's objects and text: a 47 MB `traces` page fitted in
 * 256 MB, ~94 MB of text in 1 024 MB). A limit, not a reservation: a thread's heap grows only
 * with the task it holds.
 */
const THREAD_OLD_GENERATION_MB = 1024;
/**
 * Nice value of the answer threads (as the index thread's). The threads share the machine's cores
 * with the event loop's thread; at the same priority the scheduler made the event loop wait for a
 * core behind them (bench: with 4 clients of 1 000-row pages on 2 cores, the loop's delay p99 still
 * 146-175 ms with the work in threads at nice 0, docs/benchmarks.md). Lowered, a thread yields its core when
 * the event loop wakes; a large page takes longer only while the machine is busy.
 */
export const ANSWER_THREAD_NICE = 10;
/** Longest a stop waits for the threads to end (they end with the process anyway). */
const CLOSE_WAIT_MS = 2000;

export class AnswerPool implements AnswerAssembler {
  private readonly piscina: Piscina<AnswerTask | TransactionsQueryTask, Uint8Array | TaskFailure> | undefined;
  private readonly inlineBelow: number;
  private readonly maxTaskBytes: number;
  readonly queryAndAssemble?: (task: TransactionsQueryTask) => Promise<Buffer>;

  constructor(options: AnswerPoolOptions) {
    this.inlineBelow = options.inlineBelow;
    this.maxTaskBytes = options.maxTaskBytes ?? MAX_TASK_BYTES;
    if (options.threads <= 0) return;
    const reads = options.databaseUrl !== undefined;
    this.piscina = new Piscina<AnswerTask | TransactionsQueryTask, Uint8Array | TaskFailure>({
      filename: path.join(__dirname, 'workerEntry.js'),
      // Started by the first large answer (a server, or a test, that never answers one carries
      // none: under tsx a thread compiles its code for ~1-2 s of CPU), then kept.
      minThreads: 0,
      maxThreads: options.threads,
      idleTimeout: Number.POSITIVE_INFINITY,
      maxQueue: options.queue,
      // One task at a time per thread: a second would only wait inside it, out of the queue's count.
      // Two where the threads read the index: one assembles while the other waits on PostgreSQL.
      concurrentTasksPerWorker: reads ? QUERY_TASKS_PER_THREAD : 1,
      workerData: {
        nice: options.nice ?? ANSWER_THREAD_NICE,
        maxTaskBytes: this.maxTaskBytes,
        ...(reads ? { databaseUrl: options.databaseUrl, connections: QUERY_TASKS_PER_THREAD } : {}),
      },
      resourceLimits: { maxOldGenerationSizeMb: options.maxOldGenerationMb ?? THREAD_OLD_GENERATION_MB },
    });
    if (reads) {
      const gate = options.gate ?? (() => undefined);
      this.queryAndAssemble = async (task) => {
        gate();
        return this.inThread(task);
      };
    }
  }

  /** Threads alive now. */
  get threads(): number {
    return this.piscina?.threads.length ?? 0;
  }

  async assemble(task: AnswerTask): Promise<Buffer> {
    const size = taskSize(task);
    if (size > this.maxTaskBytes) {
      v3AnswerTasks.inc({ where: 'refused', outcome: 'too_large' });
      throw new ValidationError(answerTooLargeText(size, this.maxTaskBytes));
    }
    if (!this.piscina || size < this.inlineBelow) {
      const bytes = assembleInline(task);
      v3AnswerTasks.inc({ where: 'inline', outcome: 'ok' });
      return bytes;
    }
    return this.inThread(task);
  }

  private async inThread(task: AnswerTask | TransactionsQueryTask): Promise<Buffer> {
    const piscina = this.piscina!;
    const where = task.kind === 'transactionsQuery' ? 'thread_read' : 'thread';
    let answer: Uint8Array | TaskFailure;
    try {
      // The rows' bytes are moved, not copied (the route never reads them again).
      const running = piscina.run(task, { transferList: task.kind === 'transactionsQuery' ? [] : movableBuffers(task) });
      v3AnswerQueueLength.set(piscina.queueSize);
      answer = await running;
    } catch (err) {
      v3AnswerQueueLength.set(piscina.queueSize);
      if (err instanceof Error && /queue is at limit/i.test(err.message)) {
        v3AnswerTasks.inc({ where, outcome: 'busy' });
        throw new ApiError('unavailable', 'all v3 answer threads are busy; try again later');
      }
      // The thread died under the task (or the task threw): piscina replaces a dead thread.
      v3AnswerTasks.inc({ where, outcome: 'failed' });
      throw new ApiError('failed', 'v3 answer thread failed');
    }
    v3AnswerQueueLength.set(piscina.queueSize);
    if ('failure' in answer) {
      // The thread's read failed (the database's timeout, or its absence) or its rows were too many: the error the event loop's side gives.
      const { kind, message } = answer.failure;
      v3AnswerTasks.inc({ where, outcome: kind === 'badInput' ? 'too_large' : 'read_failed' });
      throw kind === 'badInput' ? new ValidationError(message) : new ApiError(kind, message);
    }
    v3AnswerTasks.inc({ where, outcome: 'ok' });
    return Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength);
  }


  /** Ends the threads (a stop comes after the requests were answered or cut). */
  async close(): Promise<void> {
    if (!this.piscina) return;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)));
    await Promise.race([this.piscina.destroy().catch(() => undefined), waited]);
    clearTimeout(timer);
  }
}

