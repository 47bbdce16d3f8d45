import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { loadNetworkConfig } from '../../src/liteclient/sources';

/** A downloaded config that cannot be cached is a warning, never a failed start nor a "download failure". */

const KEY = Buffer.alloc(32, 3).toString('base64');
const CONFIG = JSON.stringify({ liteservers: [{ ip: 2130706433, port: 4321, id: { '@type': 'pub.ed25519', key: KEY } }] });

let server: http.Server;
let url: string;

beforeAll(async () => {
  server = http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(CONFIG));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/global.config.json`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

test('a cache dir that cannot be created: the downloaded servers are used, with a warning naming the cache', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thb-cache-'));
  // A regular file where the cache directory should be: mkdir fails even for root.
  const blocker = path.join(dir, 'not-a-dir');
  fs.writeFileSync(blocker, '');
  const warnings: string[] = [];
  const servers = await loadNetworkConfig('mainnet', { cacheDir: path.join(blocker, 'cache'), timeoutMs: 5000, url }, (message) =>
    warnings.push(message),
  );
  expect(servers.map((s) => s.port)).toEqual([4321]);
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toMatch(
    /^downloaded the mainnet global config but cannot cache it at .*not-a-dir\/cache\/mainnet-global\.config\.json/,
  );
  expect(warnings[0]).not.toContain('cannot download');
});

test('a writable cache dir gets the downloaded copy', async () => {
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'thb-cache-')), 'nested');
  const warnings: string[] = [];
  await loadNetworkConfig('testnet', { cacheDir: dir, timeoutMs: 5000, url }, (message) => warnings.push(message));
  expect(fs.readFileSync(path.join(dir, 'testnet-global.config.json'), 'utf8')).toBe(CONFIG);
  expect(warnings).toEqual([]);
});
