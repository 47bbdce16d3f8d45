import type { Logger } from 'pino';
import type { AppConfig } from './config';
import { StartupError } from './errors';
import type { LitePool, ServerStatus } from './liteclient';
// The pool module alone: the tvm index would load @ton/core (~0.1 s) before the threads are started.
import { configureTvm } from './tvm/pool';

/**
 * How long a start waits for the first head proofs before it reports the lite servers: a healthy
 * server is `unverified (proof pending)` for the few ms its first proof takes, which is not worth
 * a warning. Servers that are still not usable after it are reported and waited for as before.
 */
const FIRST_PROOF_WAIT_MS = 2000;

/**
 * When each phase of the start ended, in ms since the process started (process.uptime(), so
 * node's own start and module loading count), for the log line main.ts writes once ready.
 */
export class StartupClock {
  private readonly ends: Record<string, number> = {};

  mark(phase: string): void {
    this.ends[phase] = Math.round(process.uptime() * 1000);
  }

  get phases(): Readonly<Record<string, number>> {
    return { ...this.ends };
  }
}

function describe(server: ServerStatus): string {
  const where = `#${server.index} ${server.host}:${server.port}`;
  if (server.state === 'up') {
    const latency = server.latencyMs === null ? '' : `, ${Math.round(server.latencyMs)} ms`;
    return `${where}: up (seqno ${server.seqno ?? '?'}${latency})`;
  }
  return `${where}: ${server.state} (${server.reason ?? 'unknown'})`;
}

/**
 * Sets up the TVM worker pool. With `--tvm-idle-timeout 0` (a fixed pool) its threads start now
 * and load their code and create their emulators (seconds of CPU on other cores): main.ts calls
 * this as soon as the configuration is read, before it loads the rest of the server, so that runs
 * alongside the loading and the local chain's genesis; startServer calls it when nobody did.
 * Otherwise threads start when the first task needs one, and nothing runs here.
 */
export function startTvmWorkers(config: AppConfig, logger: Logger): Promise<void> {
  return configureTvm({ workers: config.tvmWorkers, idleTimeoutMs: config.tvmIdleTimeout, getMethodGas: BigInt(config.getMethodGas) })
    .warm()
    .catch((err: unknown) => logger.warn({ err }, 'TVM workers did not start'));
}

/**
 * Start-up diagnostics, after the pool's first round of probes and (up to FIRST_PROOF_WAIT_MS) its
 * first head proofs: one log line per lite server with its outcome and, when it is not usable,
 * why in plain words. With none usable, waits up to
 * `--start-timeout` for one, then gives up with a message naming every server and its reason,
 * rather than serving nothing but 503s.
 */
export async function checkLiteServersAtStart(pool: LitePool, startTimeoutMs: number, logger: Logger): Promise<void> {
  const started = Date.now();
  await pool.waitHealthy(Math.min(startTimeoutMs, FIRST_PROOF_WAIT_MS)).catch(() => undefined);
  for (const server of pool.status()) {
    const details = { server: server.index, address: `${server.host}:${server.port}`, state: server.state, reason: server.reason };
    if (server.state === 'up') logger.info(details, `lite server ${describe(server)}`);
    else logger.warn(details, `lite server ${describe(server)}`);
  }
  if (pool.hasHealthy()) return;
  logger.warn({ startTimeoutMs }, `no usable lite server yet; waiting up to ${startTimeoutMs} ms (--start-timeout)`);
  try {
    await pool.waitHealthy(Math.max(0, startTimeoutMs - (Date.now() - started)));
  } catch {
    const lines = pool.status().map((server) => `  ${describe(server)}`);
    throw new StartupError(`no lite server became usable within ${startTimeoutMs} ms (--start-timeout):\n${lines.join('\n')}`);
  }
  const usable = pool.status().filter((server) => server.state === 'up');
  for (const server of usable) logger.info({ server: server.index }, `lite server ${describe(server)}`);
}
