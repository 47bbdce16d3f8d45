import { setPriority } from 'node:os';
import { move, workerData } from 'piscina';
import { createThreadReads, databaseError, type V3Database } from '../db';
import { bundleTextLength, bundleTextOfRow, type BundleTextRow } from '../sql/bundle';
import { answerTooLargeText, assembleAnswer, type AnswerTask, type TaskFailure, type TransactionsQueryTask } from './assemble';

interface AnswerThreadData {
  readonly nice?: number;
  readonly maxTaskBytes?: number;
  /** The index's PostgreSQL server, when this thread reads its pages itself (pool.ts's queryAndAssemble). */
  readonly databaseUrl?: string;
  /** Its connections (the tasks it runs at once). */
  readonly connections?: number;
}

const data = (workerData ?? {}) as AnswerThreadData;

// The thread's nice value (pool.ts's ANSWER_THREAD_NICE; Linux keeps one per thread): the event
// loop's thread wins a core from it. A platform that refuses leaves it at the process's.
try {
  setPriority(data.nice ?? 0);
} catch {
  // Not allowed here: the thread runs at the process's priority.
}

/** This thread's own connection to the index, made by its first query task. */
let reads: V3Database | undefined;

/** Byte arrays among bind parameters came across as Uint8Arrays: the driver wants Buffers (bytea), in arrays too. */
function revived(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  return Array.isArray(value) ? value.map(revived) : value;
}

/** The answer's UTF-8 bytes over an ArrayBuffer of their own, to be moved (not copied) to the event loop's thread. */
function ownBytes(answer: string): Uint8Array {
  // Buffer.from writes a large string into memory of its own outside the heap (~0.2 ms for 580 KB,
  // where TextEncoder took ~3 ms in this thread's heap); a small one may share Node's pool: copied.
  const bytes = Buffer.from(answer, 'utf8');
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
}

async function queryAndAssemble(task: TransactionsQueryTask): Promise<Uint8Array | TaskFailure> {
  reads ??= createThreadReads(data.databaseUrl!, data.connections ?? 1);
  let row: BundleTextRow | undefined;
  try {
    [row] = await reads.query<BundleTextRow>(task.statement, task.values.map(revived));
  } catch (err) {
    const failure = databaseError(err);
    return { failure: { kind: failure.kind, message: failure.message } };
  }
  const text = bundleTextOfRow(row, task.addressBook);
  const size = bundleTextLength(text);
  const max = data.maxTaskBytes ?? Number.POSITIVE_INFINITY;
  if (size > max) return { failure: { kind: 'badInput', message: answerTooLargeText(size, max) } };
  return ownBytes(assembleAnswer({ kind: 'transactions', text, testnet: task.testnet }));
}

/**
 * The body of an answer thread (loaded through workerEntry.js): a task's answer as UTF-8 bytes in
 * an ArrayBuffer of their own, moved (not copied) to the event loop's thread, which writes them
 * to the response as they are; a query task's failure as its kind and text.
 */
export default async function runAnswerTask(task: AnswerTask | TransactionsQueryTask): Promise<Uint8Array | TaskFailure> {
  const answer = task.kind === 'transactionsQuery' ? await queryAndAssemble(task) : ownBytes(assembleAnswer(task));
  return answer instanceof Uint8Array ? (move(answer) as unknown as Uint8Array) : answer;
}
