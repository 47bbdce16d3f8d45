import type { Logger } from 'pino';

/**
 * What the process does with errors nothing caught:
 * - an unhandled promise rejection is logged (error level, with its stack) and the process goes
 *   on serving: it is one failed operation whose caller stopped listening, and every request
 *   path has its own error handling, so shared state is not in doubt;
 * - an uncaught exception means a synchronous throw escaped from a callback in the middle of
 *   some work, so shared state may be half-updated: it is logged (fatal), then the server stops
 *   accepting, lets requests in flight finish within the shutdown grace period, and the process
 *   exits with status 1 so that a supervisor (systemd, Docker, Kubernetes) starts a clean one.
 */
export interface ProcessGuardOptions {
  readonly logger: Logger;
  /** Graceful stop of the server (the same as on SIGTERM). */
  stop(): Promise<void>;
  /** Upper bound of that stop; the process exits after it even if the stop hangs. */
  readonly graceMs: number;
  readonly exit?: (code: number) => void;
}

export function installProcessGuards(options: ProcessGuardOptions): () => void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let exiting = false;
  const onRejection = (reason: unknown) => {
    options.logger.error({ err: reason }, 'unhandled promise rejection (logged; the server keeps serving)');
  };
  const onException = (err: Error) => {
    options.logger.fatal({ err }, 'uncaught exception: stopping gracefully and exiting with status 1 for the supervisor to restart');
    if (exiting) return;
    exiting = true;
    const force = setTimeout(() => exit(1), options.graceMs + 1000);
    force.unref();
    options.stop().then(
      () => exit(1),
      () => exit(1),
    );
  };
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  };
}
