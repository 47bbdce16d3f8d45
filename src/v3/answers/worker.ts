import { move } from 'piscina';
import { assembleAnswer, type AnswerTask } from './assemble';

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
