import { ApiError } from '../errors';
import type { PendingOptions } from './pendingEntry';
import { emulateTraceAt, type EmulatedTrace } from './trace';

/**
 * The emulations of sent messages, both pending stores' front: a bounded queue, a few at once,
 * each on the verified head within its deadline. The send never waits for any of it.
 */
export class PendingEmulations {
  private readonly queue: Buffer[] = [];
  private runningCount = 0;
  private droppedCount = 0;
  private failedCount = 0;
  private closed = false;
  private readonly now: () => number;

  constructor(
    private readonly options: PendingOptions,
    /** Where a finished emulation goes (the store). */
    private readonly done: (trace: EmulatedTrace) => Promise<void>,
  ) {
    this.now = options.now ?? Date.now;
  }

  get queued(): number {
    return this.queue.length;
  }

  get running(): number {
    return this.runningCount;
  }

  get dropped(): number {
    return this.droppedCount;
  }

  get failed(): number {
    return this.failedCount;
  }

  track(boc: Buffer): void {
    if (this.closed) return;
    if (this.queue.length >= this.options.queueLimit) {
      this.droppedCount += 1;
      this.options.logger.warn({ queued: this.queue.length }, 'pending: emulation queue full; a sent message is not shown as pending');
      return;
    }
    this.queue.push(boc);
    this.pump();
  }

  private pump(): void {
    while (!this.closed && this.runningCount < this.options.concurrency && this.queue.length > 0) {
      const boc = this.queue.shift()!;
      this.runningCount += 1;
      void this.emulate(boc).finally(() => {
        this.runningCount -= 1;
        this.pump();
      });
    }
  }

  private async emulate(boc: Buffer): Promise<void> {
    const deadline = this.now() + this.options.emulationTimeoutMs;
    let trace: EmulatedTrace;
    try {
      const session = this.options.openSession(deadline);
      const block = (await session.head()).last;
      trace = await emulateTraceAt(session, block, { boc, ignoreChksig: false, includeCodeData: false, deadline });
    } catch (err) {
      // A message its contract refuses never lands either: nothing to show.
      this.failedCount += 1;
      const level = err instanceof ApiError ? 'debug' : 'warn';
      this.options.logger[level]({ err }, 'pending: a sent message could not be emulated');
      return;
    }
    try {
      await this.done(trace);
    } catch (err) {
      this.failedCount += 1;
      this.options.logger.warn({ err }, 'pending: an emulated trace could not be kept');
    }
  }

  close(): void {
    this.closed = true;
    this.queue.length = 0;
  }
}
