import { setPriority } from 'node:os';
import { move, workerData } from 'piscina';
import { assembleAnswer, type AnswerTask } from './assemble';

// The thread's nice value (pool.ts's ANSWER_THREAD_NICE; Linux keeps one per thread): the event
// loop's thread wins a core from it. A platform that refuses leaves it at the process's.
try {
  setPriority((workerData as { nice?: number } | undefined)?.nice ?? 0);
} catch {
  // Not allowed here: the thread runs at the process's priority.
}

/**
 * The body of an answer thread (loaded through workerEntry.js): a task's answer as UTF-8 bytes in
 * an ArrayBuffer of their own, moved (not copied) to the event loop's thread, which writes them
 * to the response as they are.
 */
export default function runAnswerTask(task: AnswerTask): Uint8Array {
  // TextEncoder gives a Uint8Array over its own exact-size ArrayBuffer (Buffer.from may share a pool's).
  const bytes = new TextEncoder().encode(assembleAnswer(task));
  return move(bytes) as unknown as Uint8Array;
}
