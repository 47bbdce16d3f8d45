import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ipFromInt, ipToInt, loadGlobalConfigFile, loadNetworkConfig, parseGlobalConfig } from '../../src/liteclient/sources';
import { LiteServerConfigError } from '../../src/errors';

const KEY = Buffer.alloc(32, 9).toString('base64');

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'thb-sources-'));
}

describe('lite-server sources', () => {
  test('integer IPs as global configs store them', () => {
    expect(ipFromInt(2130706433)).toBe('127.0.0.1');
    expect(ipFromInt(-1185526007)).toBe('185.86.79.9');
    expect(ipToInt('185.86.79.9')).toBe(-1185526007);
    expect(ipToInt('127.0.0.1')).toBe(2130706433);
  });

  test('parses liteservers with our archival and weight extensions', () => {
    const servers = parseGlobalConfig(
      {
        liteservers: [
          { ip: 2130706433, port: 4924, id: { '@type': 'pub.ed25519', key: KEY } },
          { ip: 2130706433, port: 4925, id: { '@type': 'pub.ed25519', key: KEY }, archival: true, weight: 3 },
        ],
      },
      'test',
    );
    expect(servers).toEqual([
      { host: '127.0.0.1', port: 4924, publicKey: Buffer.alloc(32, 9), archival: false, weight: 1 },
      { host: '127.0.0.1', port: 4925, publicKey: Buffer.alloc(32, 9), archival: true, weight: 3 },
    ]);
  });

  test.each([
    [{}, 'no "liteservers" list'],
    [{ liteservers: [{ ip: 'x', port: 1, id: { key: KEY } }] }, '"ip" must be an integer'],
    [{ liteservers: [{ ip: 1, port: 70000, id: { key: KEY } }] }, '"port" must be a TCP port'],
    [{ liteservers: [{ ip: 1, port: 1, id: { key: 'AAAA' } }] }, '"id.key" must be a base64 ed25519 public key'],
    [{ liteservers: [{ ip: 1, port: 1, id: { key: KEY }, archival: 'yes' }] }, '"archival" must be true or false'],
  ])('rejects %j', (json, message) => {
    expect(() => parseGlobalConfig(json, 'test')).toThrow(message);
  });

  test('file errors are clear', () => {
    const dir = tempDir();
    expect(() => loadGlobalConfigFile(path.join(dir, 'missing.json'))).toThrow(/cannot read .*missing.json/);
    fs.writeFileSync(path.join(dir, 'bad.json'), '{');
    expect(() => loadGlobalConfigFile(path.join(dir, 'bad.json'))).toThrow(/is not JSON/);
  });

  test('an unreachable download fails fast with advice, then a cached copy is used', async () => {
    const dir = tempDir();
    const unreachable = 'http://127.0.0.1:1/global.config.json';
    const started = Date.now();
    const error = await loadNetworkConfig('mainnet', { cacheDir: dir, timeoutMs: 2000, url: unreachable }).catch((err: unknown) => err);
    // One attempt within its 2 s timeout, no retry loop (room for a loaded machine).
    expect(Date.now() - started).toBeLessThan(4500);
    expect(error).toBeInstanceOf(LiteServerConfigError);
    expect((error as Error).message).toContain('cannot download the mainnet global config from http://127.0.0.1:1/global.config.json');
    expect((error as Error).message).toContain('pass --liteservers');

    fs.writeFileSync(
      path.join(dir, 'mainnet-global.config.json'),
      JSON.stringify({ liteservers: [{ ip: 2130706433, port: 1234, id: { '@type': 'pub.ed25519', key: KEY } }] }),
    );
    const warnings: string[] = [];
    const servers = await loadNetworkConfig('mainnet', { cacheDir: dir, timeoutMs: 2000, url: unreachable }, (message) => warnings.push(message));
    expect(servers).toHaveLength(1);
    expect(servers[0]!.port).toBe(1234);
    expect(warnings[0]).toContain('using the cached copy');
  });
});
