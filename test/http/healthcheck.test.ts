import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config';
import type { PooledServer } from '../../src/liteclient';
import { plainReason } from '../../src/liteclient/health';
import { createLogger } from '../../src/logging/index';
import { startServer, type RunningServer } from '../../src/server';
import { StartupError } from '../../src/errors';
import { ScriptedLiteServer } from '../helpers/scriptedLiteServer';
import { freePort, until } from '../helpers/waiting';

/** The healthcheck tells the truth, with reasons in plain words; a start with no usable server fails clearly. */

interface HealthBody {
  ok: boolean;
  code?: number;
  error?: string;
  result: { status: string; healthy_liteservers: number; liteservers: Array<{ index: number; state: string; reason: string | null }> };
}



function capturedLogger(): { logger: ReturnType<typeof createLogger>; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger('info', sink), lines };
}

const flags = (...extra: string[]) =>
  loadConfig(
    // Scripted servers cannot prove a masterchain: these tests are about the transport.
    ['--trust-liteservers', '--port', '0', '--metrics-port', '0', '--keyless-rps', '0', '--health-interval', '100', '--query-timeout', '1500', ...extra],
    {},
  ).config;

test('raw transport texts become plain reasons', () => {
  expect(plainReason('not connected: socket error: connect ECONNREFUSED 127.0.0.1:1')).toBe('connection refused');
  expect(plainReason('connection closed during the handshake')).toBe('handshake failed: wrong server key?');
  expect(plainReason('no answer within 2000 ms')).toBe('timeout');
  expect(plainReason('not connected: handshake timed out after 3000 ms')).toBe('timeout');
  expect(plainReason('socket error: getaddrinfo ENOTFOUND nowhere.invalid')).toBe('host not found');
  expect(plainReason('not connected: connecting')).toBe('timeout');
  expect(plainReason('something new')).toBe('something new');
});

describe('healthcheck and reasons over real lite servers', () => {
  const scripted: ScriptedLiteServer[] = [];
  let running: RunningServer | undefined;

  afterEach(async () => {
    await running?.stop();
    running = undefined;
    for (const server of scripted.splice(0)) await server.stop();
  });

  async function scriptedServer(name: string, setup: (server: ScriptedLiteServer) => void = () => undefined): Promise<ScriptedLiteServer> {
    const server = new ScriptedLiteServer(name);
    setup(server);
    await server.start();
    scripted.push(server);
    return server;
  }

  const health = async (): Promise<{ status: number; body: HealthBody }> => {
    const res = await fetch(`${running!.url}/api/v2/healthcheck`);
    return { status: res.status, body: (await res.json()) as HealthBody };
  };

  test('each unusable server says why: refused, wrong key, lagging, timeout; 200 while one is up', async () => {
    const good = await scriptedServer('g');
    const behind = await scriptedServer('l', (server) => (server.seqno = 88));
    const wrongKey = await scriptedServer('w');
    const mute = await scriptedServer('s');
    const servers: PooledServer[] = [
      good.endpoint(),
      { host: '127.0.0.1', port: await freePort(), publicKey: randomBytes(32), archival: false, weight: 1 },
      { ...wrongKey.endpoint(), publicKey: randomBytes(32) },
      behind.endpoint(),
      mute.endpoint(),
    ];
    mute.silent = true;
    const { logger, lines } = capturedLogger();
    running = await startServer(flags(), logger, { servers, stop: async () => undefined });

    await until(async () => (await health()).body.result.liteservers.every((server) => server.state !== 'starting'), 10_000);
    const { status, body } = await health();
    expect(status).toBe(200);
    expect(body.ok).toBe(true);
    expect(body.result.status).toBe('ok');
    expect(body.result.healthy_liteservers).toBe(1);
    expect(body.result.liteservers.map((server) => [server.state, server.reason])).toEqual([
      ['up', null],
      ['down', 'connection refused'],
      ['down', 'handshake failed: wrong server key?'],
      ['lagging', 'lagging 12 blocks behind'],
      ['down', 'timeout'],
    ]);
    // Start-up diagnostics: one line per server with its outcome and reason.
    const startup = lines.filter((line) => typeof line['msg'] === 'string' && (line['msg'] as string).startsWith('lite server #'));
    expect(startup.slice(0, 5).map((line) => line['server'])).toEqual([0, 1, 2, 3, 4]);
    // The first probe round's outcome (on a loaded machine a probe may still time out: then it says so).
    expect(startup[0]!['msg']).toMatch(/^lite server #0 127\.0\.0\.1:\d+: (up \(seqno 100, \d+ ms\)|down \(timeout\))$/);
    expect(startup[1]!['msg']).toMatch(/^lite server #1 127\.0\.0\.1:\d+: down \((connection refused|timeout)\)$/);
    expect(startup[2]!['msg']).toMatch(/^lite server #2 127\.0\.0\.1:\d+: down \((handshake failed: wrong server key\?|timeout)\)$/);
    expect(startup[4]!['msg']).toMatch(/^lite server #4 127\.0\.0\.1:\d+: down \(timeout\)$/);
  }, 60_000);

  test('503 with the same body when every server is down; 200 again when one returns', async () => {
    const only = await scriptedServer('o');
    const other = await scriptedServer('p');
    running = await startServer(flags(), capturedLogger().logger, {
      servers: [only.endpoint(), other.endpoint()],
      stop: async () => undefined,
    });
    expect((await health()).status).toBe(200);

    const port = only.port;
    await only.stop();
    await other.stop();
    // 503 at once (both disconnected), and 'connection refused' once the probes have tried again.
    await until(async () => (await health()).status === 503, 10_000);
    await until(async () => (await health()).body.result.liteservers.every((server) => server.reason === 'connection refused'), 10_000);
    const down = await health();
    expect(down.body.ok).toBe(false);
    expect(down.body.code).toBe(503);
    expect(down.body.result.status).toBe('unavailable');
    expect(down.body.result.healthy_liteservers).toBe(0);
    expect(down.body.result.liteservers.map((server) => server.reason)).toEqual(['connection refused', 'connection refused']);
    expect(down.body.error).toMatch(
      /^no healthy lite server: #0 127\.0\.0\.1:\d+ down \(connection refused\), #1 .* down \(connection refused\)$/,
    );
    // API calls say the same reason.
    const call = await fetch(`${running!.url}/api/v2/getMasterchainInfo`);
    expect(call.status).toBe(503);
    expect(((await call.json()) as { error: string }).error).toContain('down (connection refused)');

    await only.start(port);
    await until(async () => (await health()).status === 200, 15_000);
    expect((await health()).body.result.liteservers[0]).toMatchObject({ state: 'up', reason: null });
  }, 60_000);

  test('no usable server within --start-timeout: the start fails naming each server and why', async () => {
    const wrongKey = await scriptedServer('x');
    const refusedPort = await freePort();
    const servers: PooledServer[] = [
      { host: '127.0.0.1', port: refusedPort, publicKey: randomBytes(32), archival: false, weight: 1 },
      { ...wrongKey.endpoint(), publicKey: randomBytes(32) },
    ];
    let sourceStopped = false;
    const started = Date.now();
    const error = await startServer(flags('--start-timeout', '1500'), capturedLogger().logger, {
      servers,
      stop: async () => {
        sourceStopped = true;
      },
    }).catch((err: unknown) => err);
    expect(Date.now() - started).toBeLessThan(8000);
    expect(error).toBeInstanceOf(StartupError);
    const message = (error as Error).message;
    expect(message).toContain('no lite server became usable within 1500 ms (--start-timeout)');
    expect(message).toContain(`#0 127.0.0.1:${refusedPort}: down (connection refused)`);
    expect(message).toContain(`#1 127.0.0.1:${wrongKey.port}: down (handshake failed: wrong server key?)`);
    expect(sourceStopped).toBe(true);
  }, 30_000);
});
