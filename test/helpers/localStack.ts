import type { AddressInfo } from 'node:net';
import pino, { type Logger } from 'pino';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { createApiHttpServer } from '../../src/intake';
import { API_VERSION } from '../../src/routes/http';
import { startLocalnetSource } from '../../src/localnetSource';
import type { Localnet } from '../../src/localnet';
import { startServer, type RunningServer } from '../../src/server';
import { HARNESS_DEADLINE_MS } from './sessionClient';

/**
 * The whole product as `npm start` runs it: the embedded chain behind its ADNL/TCP lite server,
 * the pool connected to it over TCP, and the HTTP API on a random port. End-to-end suites start
 * one per file (the chain takes a few seconds) and stop it in afterAll.
 */
export interface LocalStack {
  url: string;
  api: string;
  localnet: Localnet;
  server: RunningServer;
  stop(): Promise<void>;
}

export async function startLocalStack(flags: string[] = [], logger?: Logger): Promise<LocalStack> {
  // The index is on by default with the embedded chain; a stack that does not name it (nor a
  // database) does not need it and runs without (its embedded database costs seconds of CPU).
  const wantsIndex = flags.includes('--index') || flags.includes('--database-url');
  const { config } = loadConfig(
    ['--port', '0', '--metrics-port', '0', '--keyless-rps', '0', '--accounts', '2', '--health-interval', '200', ...(wantsIndex ? [] : ['--index', 'off']), ...flags],
    {},
  );
  logger ??= pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });
  const source = await startLocalnetSource(config, logger);
  const server = await startServer(config, logger, source);
  // An index test reads the store from its first line: the stack is ready once it is open.
  await server.services.index?.ready.catch(async (err: unknown) => {
    await server.stop();
    throw err;
  });
  return {
    url: server.url,
    api: `${server.url}/api/v2`,
    localnet: source.localnet,
    server,
    stop: () => server.stop(),
  };
}

/**
 * Waits until everything sent so far is in a block the API serves. The local chain answers a sent
 * message before its block exists (it lands in the next timed block, as on a network; at once
 * only with --block-interval 0), so a test that reads what a message did waits for that block.
 */
export async function nextBlock(stack: LocalStack, timeoutMs = 20_000): Promise<void> {
  const chain = stack.localnet.chain;
  // With --block-interval 0 the message sealed its block on arrival: it is in the head already.
  // Otherwise it waits for the next timed block (a block sealed since the answer only adds a wait).
  if (chain.blockInterval > 0) await chain.waitForMasterchainSeqno(chain.lastMasterchainBlock().id.seqno + 1, timeoutMs);
  await stack.server.pool.refreshHeads(Date.now() + HARNESS_DEADLINE_MS);
}

/** POSTs a JSON-RPC call and returns the parsed body and status. */
export async function rpc(stack: LocalStack, method: string, params: Record<string, unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${stack.api}/jsonRPC`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** POSTs a JSON body to a `/localnet/` control (fund, mine, time, snapshot, restore) and returns its result; throws on an error envelope. */
export async function localnetControl<T>(stack: LocalStack, path: string, body: Record<string, unknown>): Promise<T> {
  const res = await fetch(`${stack.url}/localnet/${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await res.json()) as { ok: boolean; result: T };
  if (!json.ok) throw new Error(`${path}: ${JSON.stringify(json)}`);
  return json.result;
}

/**
 * The same stack served by the Express app alone (no fast path ahead of it): another HTTP server
 * over the very services (pool, response cache, access gate and its buckets), for tests that
 * compare what the two paths answer.
 */
export async function startExpressOnly(stack: LocalStack): Promise<{ url: string; api: string; close(): Promise<void> }> {
  const { services } = stack.server;
  const app = createApp(services);
  const http = createApiHttpServer(app, services.logger, API_VERSION, app);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    url,
    api: `${url}/api/v2`,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

/**
 * Waits until v3's answers are keyed by an index head of at least `seqno`: with --v3-head-warm a
 * commit is published to the cached answers once the keys read before it are computed again (at
 * most that bound later), so a test that waited for the index's commit and then asks v3 a URL it
 * asked before waits for this too. Without the cache at the head (off, no index): at once.
 */
export async function v3HeadAtLeast(stack: LocalStack, seqno: number, timeoutMs = 120_000): Promise<void> {
  const source = stack.server.services.v3Head?.source;
  if (!source) return;
  const started = Date.now();
  while (((await source.current())?.mcSeqno ?? -1) < seqno) {
    if (Date.now() - started > timeoutMs) throw new Error(`v3's head did not reach ${seqno} in time`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
