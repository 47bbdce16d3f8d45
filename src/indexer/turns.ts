import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Hands out turns of the event loop, one caller a turn: each `next()` resolves on a later turn
 * than the previous caller's, after that turn's I/O callbacks (libuv's poll phase) have run.
 *
 * Why: the pipeline decodes and parses blocks on the thread that commits the blocks before them.
 * Blocks arrive together (8 masterchain blocks are fetched ahead), and their lite answers resolve
 * in one tick, so their checks and parses ran back to back as microtasks, 0.3-1 s without the
 * event loop getting a turn, while each of the commit's database answers (~30 a batch), the
 * ingest's critical path, waited for them to end (docs/benchmarks.md, "The index"). Taking a turn
 * before each block's decode and parse lets the commit's answers in between.
 */
export class EventLoopTurns {
  private tail: Promise<void> = Promise.resolve();

  next(): Promise<void> {
    const turn = this.tail.then(() => nextTurn());
    this.tail = turn;
    return turn;
  }
}

/** The turns of this thread's block decodes and parses (one event loop a thread, so one queue). */
export const blockWorkTurns = new EventLoopTurns();
