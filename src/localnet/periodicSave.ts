/**
 * `--save-interval`: with `--state-file`, the chain is also saved every so many seconds, so a
 * crash or a kill loses at most that much. Each save is atomic (see writeSnapshotFileAsync);
 * a save still running when the next is due is not doubled, and a failed save is logged and
 * retried at the next tick (the previous file stays as it was).
 */
import { LocalnetLogger } from './adnlServer/logger';

export interface PeriodicSave {
  /** Stops the timer and waits for a save in progress. */
  stop(): Promise<void>;
}

export function startPeriodicSave(intervalMs: number, save: () => Promise<void>, logger: LocalnetLogger): PeriodicSave {
  let running: Promise<void> | null = null;
  let stopped = false;
  const timer = setInterval(() => {
    if (running || stopped) return;
    running = save()
      .catch((err: unknown) => logger.error({ err: err instanceof Error ? err.message : String(err) }, 'localnet: periodic save failed'))
      .finally(() => {
        running = null;
      });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      if (running) await running;
    },
  };
}
