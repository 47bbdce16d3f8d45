import { createHash } from 'node:crypto';
import path from 'node:path';
import pino from 'pino';
import { createAccessControl } from '../../src/auth';
import { KeysFileError, buildKeyring, hashApiKey, loadKeysFile, parseKeysText } from '../../src/auth/keys';
import { loadConfig } from '../../src/config';
import { tempDir, writeFile } from './helpers';

const PLAIN_KEY = 'plain-key-0123456789abcdef';
const HASHED_KEY = 'hashed-key-fedcba9876543210';

const YAML_FILE = `
keys:
  - name: plain
    key: ${PLAIN_KEY}
    rps: 10
    burst: 20
    networks: [mainnet, testnet]
  - name: hashed
    sha256: "${createHash('sha256').update(HASHED_KEY).digest('hex')}"
    rps: 2.5
    networks: [local]
  - name: unlimited
    key: unlimited-key-0123456789
    rps: 0
    networks: [local, mainnet, testnet]
`;

function errorOf(fn: () => unknown): KeysFileError {
  try {
    fn();
  } catch (err) {
    if (err instanceof KeysFileError) return err;
    throw err;
  }
  throw new Error('expected a KeysFileError');
}

describe('keys file', () => {
  it('reads plain and hashed keys from YAML with their rates and networks', () => {
    const keyring = parseKeysText(YAML_FILE, 'keys.yaml');
    expect(keyring.size).toBe(3);
    const plain = keyring.lookup(PLAIN_KEY);
    expect(plain?.name).toBe('plain');
    expect(plain?.rate).toEqual({ rps: 10, burst: 20 });
    expect([...plain!.networks]).toEqual(['mainnet', 'testnet']);
    const hashed = keyring.lookup(HASHED_KEY);
    expect(hashed?.name).toBe('hashed');
    // burst defaults to rps rounded up
    expect(hashed?.rate).toEqual({ rps: 2.5, burst: 3 });
    expect(keyring.lookup('unlimited-key-0123456789')?.rate).toBeUndefined();
  });

  it('does not accept a key that differs by one character, nor the digest itself', () => {
    const keyring = parseKeysText(YAML_FILE, 'keys.yaml');
    expect(keyring.lookup(PLAIN_KEY.slice(0, -1) + 'g')).toBeUndefined();
    expect(keyring.lookup(PLAIN_KEY + ' ')).toBeUndefined();
    expect(keyring.lookup(hashApiKey(HASHED_KEY))).toBeUndefined();
    expect(keyring.lookup('')).toBeUndefined();
  });

  it('reads the same document as JSON', () => {
    const json = JSON.stringify({
      keys: [{ name: 'j', sha256: hashApiKey(PLAIN_KEY).toUpperCase(), rps: 1, burst: 5, networks: ['mainnet'] }],
    });
    const keyring = parseKeysText(json, '/etc/keys.json');
    expect(keyring.lookup(PLAIN_KEY)?.rate).toEqual({ rps: 1, burst: 5 });
  });

  it('hashApiKey is the hex SHA-256 that `printf %s key | sha256sum` prints', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('accepts an empty list', () => {
    expect(buildKeyring({ keys: [] }).size).toBe(0);
  });

  it.each([
    [{ keys: [{ name: 'a', rps: 1, networks: ['local'] }] }, "keys[0] ('a'): give exactly one of key and sha256"],
    [
      { keys: [{ name: 'a', key: PLAIN_KEY, sha256: hashApiKey(PLAIN_KEY), rps: 1, networks: ['local'] }] },
      "keys[0] ('a'): give exactly one of key and sha256",
    ],
    [
      { keys: [{ name: 'a b', key: PLAIN_KEY, rps: 1, networks: ['local'] }] },
      'keys[0]: name must be 1-64 characters of A-Z a-z 0-9 . _ -',
    ],
    [{ keys: [{ name: 'a', key: PLAIN_KEY, rps: -1, networks: ['local'] }] }, "keys[0] ('a'): rps must be a number >= 0 (0 = no limit)"],
    [{ keys: [{ name: 'a', key: PLAIN_KEY, rps: 1, burst: 1.5, networks: ['local'] }] }, "keys[0] ('a'): burst must be an integer >= 1"],
    [
      { keys: [{ name: 'a', key: PLAIN_KEY, rps: 1, networks: [] }] },
      "keys[0] ('a'): networks must be a non-empty list of local, mainnet, testnet",
    ],
    [
      { keys: [{ name: 'a', key: PLAIN_KEY, rps: 1, networks: ['devnet'] }] },
      "keys[0] ('a'): networks may only contain local, mainnet, testnet",
    ],
    [{ keys: [{ name: 'a', key: PLAIN_KEY, rps: 1, networks: ['local'], rate: 3 }] }, "keys[0] ('a'): unknown field 'rate'"],
    [{ keys: [{ name: 'a', sha256: 'abc', rps: 1, networks: ['local'] }] }, "keys[0] ('a'): sha256 must be 64 hex digits"],
    [
      { keys: [{ name: 'a', sha256: 12345, rps: 1, networks: ['local'] }] },
      "keys[0] ('a'): sha256 must be 64 hex digits (quote it: YAML read it as a number)",
    ],
    [{ keys: {} }, '`keys` must be a list'],
    [{ key: [] }, "unknown top-level field 'key' (only `keys`)"],
    [
      {
        keys: [
          { name: 'a', key: PLAIN_KEY, rps: 1, networks: ['local'] },
          { name: 'a', key: HASHED_KEY, rps: 1, networks: ['local'] },
        ],
      },
      "keys[1]: name 'a' is also used by keys[0]",
    ],
    [
      {
        keys: [
          { name: 'a', key: PLAIN_KEY, rps: 1, networks: ['local'] },
          { name: 'b', sha256: hashApiKey(PLAIN_KEY), rps: 1, networks: ['local'] },
        ],
      },
      "keys[1] ('b'): the same key is also keys[0]",
    ],
  ])('rejects %j', (document, message) => {
    expect(errorOf(() => buildKeyring(document)).message).toBe(message);
  });

  it('never prints a key or the file text in its errors', () => {
    const secret = 'sekrit key with spaces 0123456789';
    const badKey = errorOf(() => buildKeyring({ keys: [{ name: 'a', key: secret, rps: 1, networks: ['local'] }] }));
    expect(badKey.message).toBe("keys[0] ('a'): key must be 16-256 printable ASCII characters without spaces");
    const yaml = `keys:\n  - name: a\n    key: ${PLAIN_KEY}\n   bad: [\n`;
    const badYaml = errorOf(() => parseKeysText(yaml, 'k.yaml'));
    expect(badYaml.message).toMatch(/^k\.yaml is not valid YAML \([A-Z_]+ at line \d+, column \d+\)$/);
    expect(badYaml.message).not.toContain(PLAIN_KEY);
    const badJson = errorOf(() => parseKeysText(`{"keys": [{"key": "${PLAIN_KEY}", }]}`, 'k.json'));
    expect(badJson.message).toMatch(/^k\.json is not valid JSON/);
    expect(badJson.message).not.toContain(PLAIN_KEY);
  });

  it('says which file cannot be read', async () => {
    await expect(loadKeysFile('/nonexistent/keys.yaml')).rejects.toThrow('cannot read keys file /nonexistent/keys.yaml (ENOENT)');
  });
});

describe('config/keys.example.yaml', () => {
  it('is a valid keys file whose documented hash matches its documented key', async () => {
    const keyring = await loadKeysFile(path.resolve(__dirname, '..', '..', 'config', 'keys.example.yaml'));
    expect(keyring.names()).toEqual(['backend', 'partner', 'devtools']);
    expect(keyring.lookup('replace-me-with-a-long-random-string-0001')?.rate).toEqual({ rps: 10, burst: 20 });
    expect(keyring.lookup('replace-me-with-another-key-0002')?.rate).toEqual({ rps: 2.5, burst: 3 });
    expect(keyring.lookup('replace-me-local-development-0003')?.rate).toBeUndefined();
  });
});

describe('keys reload', () => {
  it('swaps the keys on reload and keeps the old ones when the new file is bad', async () => {
    const dir = tempDir();
    const file = writeFile(dir, 'keys.yaml', YAML_FILE);
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    const config = loadConfig(['--keys-file', file, '--network', 'mainnet'], {}).config;
    const access = await createAccessControl(config, logger);
    try {
      writeFile(dir, 'keys.yaml', `keys:\n  - name: only\n    key: ${HASHED_KEY}\n    rps: 1\n    networks: [mainnet]\n`);
      expect(await access.reloadKeys()).toEqual({ ok: true, keys: 1 });
      writeFile(dir, 'keys.yaml', `keys:\n  - name: broken\n    key: ${PLAIN_KEY}\n    rps: fast\n    networks: [mainnet]\n`);
      expect(await access.reloadKeys()).toEqual({
        ok: false,
        error: `${file}: keys[0] ('broken'): rps must be a number >= 0 (0 = no limit)`,
      });
      const rejected = lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((entry) => entry['msg'] === 'API keys file rejected; the previous keys stay in force');
      expect(rejected?.['keptKeys']).toBe(1);
      expect(lines.join('\n')).not.toContain(PLAIN_KEY);
      expect(lines.join('\n')).not.toContain(HASHED_KEY);
    } finally {
      await access.close();
    }
  });

  it('refuses to start with a bad keys file', async () => {
    const dir = tempDir();
    const file = writeFile(dir, 'keys.yaml', 'keys:\n  - name: x\n');
    const config = loadConfig(['--keys-file', file], {}).config;
    await expect(createAccessControl(config, pino({ level: 'silent' }))).rejects.toThrow(
      `${file}: keys[0] ('x'): give exactly one of key and sha256`,
    );
  });
});

describe('auth options', () => {
  it('has defaults: keyless 1 rps, memory store, fail open, no proxy trust', () => {
    const { config } = loadConfig([], {});
    expect(config.keylessRps).toBe(1);
    expect(config.redisUrl).toBeUndefined();
    expect(config.redisFailurePolicy).toBe('open');
    expect(config.trustProxy).toBe(false);
    expect(config.keysFile).toBeUndefined();
  });

  it('reads flags and environment variables', () => {
    const { config } = loadConfig(['--keyless-rps', '0', '--trust-proxy', '--redis-failure-policy', 'closed'], {
      TON_BRIDGE_REDIS_URL: 'redis://10.0.0.1:6379/2',
      TON_BRIDGE_KEYS_FILE: '/etc/keys.yaml',
    });
    expect(config.keylessRps).toBe(0);
    expect(config.trustProxy).toBe(true);
    expect(config.redisFailurePolicy).toBe('closed');
    expect(config.redisUrl).toBe('redis://10.0.0.1:6379/2');
    expect(config.keysFile).toBe('/etc/keys.yaml');
    expect(() => loadConfig(['--redis-failure-policy', 'ajar'], {})).toThrow('--redis-failure-policy must be one of open, closed');
  });
});
