import pino from 'pino';
import request from 'supertest';
import { loadConfig } from '../../src/config';
import { metricsRegistry } from '../../src/metrics/registry';
import { startServer, type RunningServer } from '../../src/server';
import { buildAuthApp, tempDir, writeFile } from '../auth/helpers';
import { parsePrometheus, valueOf, type Sample } from '../helpers/prometheus';
import { ScriptedLiteServer } from '../helpers/scriptedLiteServer';
import { freePort, until } from '../helpers/waiting';

/** Prometheus metrics: after a known sequence of requests the scraped counters equal it. */

const logger = pino({ level: 'silent' });
const ADDRESS = 'EQDtFpEwcFAEcRe5mLVh2N6C0x-_hJEM7W61_JLnSF74p4q2';



describe('the metrics server over a pool of two lite servers', () => {
  let first: ScriptedLiteServer;
  let second: ScriptedLiteServer;
  let running: RunningServer;
  let metricsUrl: string;

  const scrape = async (path = '/metrics'): Promise<Sample[]> => {
    const res = await fetch(`${metricsUrl}${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    return parsePrometheus(await res.text());
  };

  beforeAll(async () => {
    first = new ScriptedLiteServer('m');
    second = new ScriptedLiteServer('n');
    await first.start();
    await second.start();
    const dir = tempDir();
    const config = writeFile(
      dir,
      'global.json',
      JSON.stringify({
        liteservers: [
          ...(first.globalConfig() as { liteservers: unknown[] }).liteservers,
          ...(second.globalConfig() as { liteservers: unknown[] }).liteservers,
        ],
      }),
    );
    const metricsPort = await freePort();
    const flags = [
      '--trust-liteservers',
      '--liteservers',
      config,
      '--port',
      '0',
      '--metrics-port',
      String(metricsPort),
      '--health-interval',
      '100',
      '--keyless-rps',
      '0',
    ];
    running = await startServer(loadConfig(flags, {}).config, logger);
    metricsUrl = `http://127.0.0.1:${metricsPort}`;
    expect(running.metrics?.url).toBe(metricsUrl);
  });

  afterAll(async () => {
    await running?.stop();
    await first?.stop();
    await second?.stop();
  });

  test('request counters equal a known sequence of REST, JSON-RPC and batch calls', async () => {
    const before = await scrape();
    const api = `${running.url}/api/v2`;
    const post = (path: string, body: unknown) =>
      fetch(`${api}/${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    for (let i = 0; i < 3; i++) expect((await fetch(`${api}/getMasterchainInfo`)).status).toBe(200);
    expect((await post('getMasterchainInfo', {})).status).toBe(200);
    expect((await fetch(`${api}/detectAddress?address=${ADDRESS}`)).status).toBe(200);
    expect((await fetch(`${api}/detectAddress?address=nonsense`)).status).toBe(422);
    expect((await fetch(`${api}/noSuchMethod`)).status).toBe(404);
    expect((await fetch(`${api}/shards?seqno=1`)).status).not.toBe(0); // alias: counted as getShards
    expect((await post('jsonRPC', { jsonrpc: '2.0', id: 1, method: 'detectAddress', params: { address: ADDRESS } })).status).toBe(200);
    const batch = await post('jsonRPC', [
      { jsonrpc: '2.0', id: 1, method: 'getMasterchainInfo', params: {} },
      { jsonrpc: '2.0', id: 2, method: 'detectAddress', params: { address: 'nonsense' } },
      { jsonrpc: '2.0', id: 3, method: 'whatever', params: {} },
    ]);
    expect(batch.status).toBe(200);
    const shardsStatus = String((await fetch(`${api}/getShards?seqno=1`)).status);

    const after = await scrape();
    const delta = (labels: Record<string, string>) =>
      valueOf(after, 'ton_bridge_requests_total', labels) - valueOf(before, 'ton_bridge_requests_total', labels);
    expect(delta({ method: 'getMasterchainInfo', mode: 'rest', status: '200' })).toBe(4);
    expect(delta({ method: 'detectAddress', mode: 'rest', status: '200' })).toBe(1);
    expect(delta({ method: 'detectAddress', mode: 'rest', status: '422' })).toBe(1);
    expect(delta({ method: 'unknown', mode: 'rest', status: '404' })).toBe(1);
    expect(delta({ method: 'getShards', mode: 'rest', status: shardsStatus })).toBe(2);
    expect(delta({ method: 'detectAddress', mode: 'jsonrpc', status: '200' })).toBe(1);
    expect(delta({ method: 'getMasterchainInfo', mode: 'jsonrpc', status: '200' })).toBe(1);
    expect(delta({ method: 'detectAddress', mode: 'jsonrpc', status: '422' })).toBe(1);
    expect(delta({ method: 'unknown', mode: 'jsonrpc', status: '422' })).toBe(1);
    // Nothing else was counted: the series sum to the 13 calls made (a batch of 3 counts 3).
    const total = (samples: Sample[]) => samples.filter((s) => s.name === 'ton_bridge_requests_total').reduce((sum, s) => sum + s.value, 0);
    expect(total(after) - total(before)).toBe(13);
    // Latency histograms per method: one observation per call.
    const count = (labels: Record<string, string>) =>
      valueOf(after, 'ton_bridge_request_duration_seconds_count', labels) -
      valueOf(before, 'ton_bridge_request_duration_seconds_count', labels);
    expect(count({ method: 'getMasterchainInfo', mode: 'rest' })).toBe(4);
    expect(count({ method: 'getMasterchainInfo', mode: 'jsonrpc' })).toBe(1);
    // Keyless limit 0: each of the 11 HTTP requests passed the gate once as "unlimited" (a batch is one request).
    const unlimited =
      valueOf(after, 'ton_bridge_rate_limit_decisions_total', { decision: 'unlimited' }) -
      valueOf(before, 'ton_bridge_rate_limit_decisions_total', { decision: 'unlimited' });
    expect(unlimited).toBe(11);
  });

  test('node default metrics and /stats are served', async () => {
    const samples = await scrape('/stats');
    expect(valueOf(samples, 'ton_bridge_process_resident_memory_bytes')).toBeGreaterThan(1_000_000);
    expect(valueOf(samples, 'ton_bridge_nodejs_heap_size_used_bytes')).toBeGreaterThan(1_000_000);
    expect(samples.some((s) => s.name === 'ton_bridge_nodejs_eventloop_lag_p99_seconds')).toBe(true);
    expect((await fetch(`${metricsUrl}/other`)).status).toBe(404);
  });

  test('lite-server gauges: both up; a stopped server shows down with probe errors, and up again', async () => {
    let samples = await scrape();
    for (const server of ['0', '1']) {
      expect(valueOf(samples, 'ton_bridge_liteserver_up', { server })).toBe(1);
      expect(valueOf(samples, 'ton_bridge_liteserver_state', { server, state: 'up' })).toBe(1);
      expect(valueOf(samples, 'ton_bridge_liteserver_lag_blocks', { server })).toBe(0);
      expect(valueOf(samples, 'ton_bridge_liteserver_masterchain_seqno', { server })).toBe(100);
      expect(valueOf(samples, 'ton_bridge_liteserver_probe_duration_seconds_count', { server })).toBeGreaterThan(0);
    }
    const errorsBefore = valueOf(samples, 'ton_bridge_liteserver_errors_total', { server: '1', source: 'probe' });
    await second.stop();
    await until(async () => valueOf(await scrape(), 'ton_bridge_liteserver_state', { server: '1', state: 'down' }) === 1, 10_000);
    samples = await scrape();
    expect(valueOf(samples, 'ton_bridge_liteserver_state', { server: '1', state: 'down' })).toBe(1);
    expect(valueOf(samples, 'ton_bridge_liteserver_state', { server: '1', state: 'up' })).toBe(0);
    expect(valueOf(samples, 'ton_bridge_liteserver_up', { server: '0' })).toBe(1);
    expect(valueOf(samples, 'ton_bridge_liteserver_errors_total', { server: '1', source: 'probe' })).toBeGreaterThan(errorsBefore);

    second.seqno = 90; // it comes back 10 blocks behind: lagging
    await second.start();
    await until(async () => valueOf(await scrape(), 'ton_bridge_liteserver_state', { server: '1', state: 'lagging' }) === 1, 10_000);
    samples = await scrape();
    expect(valueOf(samples, 'ton_bridge_liteserver_lag_blocks', { server: '1' })).toBe(10);
    expect(valueOf(samples, 'ton_bridge_liteserver_up', { server: '1' })).toBe(0);
  });
});

describe('rate-limit decisions', () => {
  test('allowed, limited, unknown key: each counted once per request', async () => {
    const dir = tempDir();
    const keys = writeFile(
      dir,
      'keys.yaml',
      'keys:\n  - name: k\n    key: "a-test-key-of-some-length"\n    rps: 0\n    networks: [local]\n',
    );
    // A clock that never moves: no token comes back during the test.
    const { app } = await buildAuthApp(['--keys-file', keys, '--keyless-rps', '2'], { clock: () => 0 });
    const read = async (decision: string) =>
      valueOf(parsePrometheus(await metricsRegistry.metrics()), 'ton_bridge_rate_limit_decisions_total', { decision });
    const before = Object.fromEntries(
      await Promise.all(['allowed', 'limited', 'unknown_key', 'unlimited'].map(async (d) => [d, await read(d)] as const)),
    );
    const path = `/api/v2/detectAddress?address=${ADDRESS}`;
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await request(app).get(path)).status);
    expect(statuses).toEqual([200, 200, 429, 429, 429]);
    expect((await request(app).get(path).set('X-API-Key', 'not-a-key')).status).toBe(401);
    expect((await request(app).get(path).set('X-API-Key', 'a-test-key-of-some-length')).status).toBe(200);
    expect((await read('allowed')) - before['allowed']!).toBe(2);
    expect((await read('limited')) - before['limited']!).toBe(3);
    expect((await read('unknown_key')) - before['unknown_key']!).toBe(1);
    expect((await read('unlimited')) - before['unlimited']!).toBe(1);
    const samples = parsePrometheus(await metricsRegistry.metrics());
    expect(valueOf(samples, 'ton_bridge_requests_total', { method: 'detectAddress', mode: 'rest', status: '429' })).toBeGreaterThanOrEqual(
      3,
    );
  });
});
