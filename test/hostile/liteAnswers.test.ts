import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../../src/config';
import type { ServerStatus } from '../../src/liteclient';
import { startServer, type RunningServer } from '../../src/server';
import { ScriptedLiteServer } from '../helpers/scriptedLiteServer';
import { expectCanary, expectEnvelope, rawRequest } from './support';

/**
 * A lite server answering one query with bytes that do not decode: that request gets a 502,
 * and nothing else is affected: the server stays up, its connection stays open, queries in
 * flight on the same connection succeed, and the query is not retried on another server.
 */

let servers: ScriptedLiteServer[];
let running: RunningServer;

beforeAll(async () => {
  servers = [new ScriptedLiteServer('m'), new ScriptedLiteServer('n')];
  for (const server of servers) await server.start();
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'thb-hostile-lite-')), 'global.config.json');
  const configs = servers.map((server) => (server.globalConfig() as { liteservers: unknown[] }).liteservers[0]);
  fs.writeFileSync(file, JSON.stringify({ '@type': 'config.global', liteservers: configs }));
  const { config } = loadConfig(['--trust-liteservers', '--liteservers', file, '--port', '0', '--metrics-port', '0', '--health-interval', '200', '--keyless-rps', '0'], {});
  running = await startServer(config, pino({ level: 'silent' }));
}, 60_000);

afterAll(async () => {
  await running?.stop();
  for (const server of servers ?? []) await server.stop();
});

test('an undecodable answer is a 502 for its request only; the connection, the server and other queries go on', async () => {
  const api = `${running.url}/api/v2`;
  await expectCanary(api);
  const connectionsBefore = servers.map((server) => server.connections);
  for (const server of servers) {
    server.malformed.add('liteServer.lookupBlock');
    server.delayMs = 400;
  }
  const lookupsBefore = servers.flatMap((server) => server.calls).filter((call) => call.startsWith('lookupBlock')).length;

  // Queries in flight on the same connections while the bad answers arrive.
  const inFlight = Array.from({ length: 6 }, () => fetch(`${api}/getMasterchainInfo`));
  await new Promise((resolve) => setTimeout(resolve, 50));
  const bad = await Promise.all(
    // Four different blocks: identical requests would be answered by one lite query (single flight).
    Array.from({ length: 4 }, (_, i) => rawRequest(`${api}/lookupBlock?workchain=-1&shard=-9223372036854775808&seqno=${5 + i}`)),
  );
  for (const answer of bad) expectEnvelope(answer, 502, /^LITE_SERVER_INVALID_ANSWER: cannot decode the answer/);
  const statuses = await Promise.all(inFlight.map(async (res) => (await res).status));
  expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);

  // Not retried elsewhere: one lookupBlock per request.
  const lookupsAfter = servers.flatMap((server) => server.calls).filter((call) => call.startsWith('lookupBlock')).length;
  expect(lookupsAfter - lookupsBefore).toBe(4);
  // Neither server was taken out nor disconnected.
  const status = running.pool.status() as ServerStatus[];
  expect(status.map((server) => [server.state, server.connected])).toEqual([
    ['up', true],
    ['up', true],
  ]);
  expect(servers.map((server) => server.connections)).toEqual(connectionsBefore);

  for (const server of servers) {
    server.malformed.clear();
    server.delayMs = 0;
  }
  const good = await rawRequest(`${api}/lookupBlock?workchain=-1&shard=-9223372036854775808&seqno=5`);
  expect(good.status).toBe(200);
  await expectCanary(api);
});
