/** The `--block-interval` timer: a seal every interval, never two queued at once. */
import { LocalnetLogger } from '../adnlServer/logger';

export class BlockTimer {
  private timer: NodeJS.Timeout | null = null;
  private sealQueued = false;

  constructor(
    private readonly intervalMs: number,
    private readonly seal: () => Promise<unknown>,
    private readonly logger: LocalnetLogger | undefined,
  ) {}

  /** No-op when the interval is 0 or the timer runs. */
  start(): void {
    if (this.timer || this.intervalMs <= 0) return;
    this.timer = setInterval(() => {
      if (this.sealQueued) return;
      this.sealQueued = true;
      this.seal()
        .catch((err: unknown) =>
          this.logger?.error({ err: err instanceof Error ? err.message : String(err) }, 'localnet: timed seal failed'),
        )
        .finally(() => {
          this.sealQueued = false;
        });
    }, this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
