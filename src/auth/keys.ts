import { createHash, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { YAMLParseError, parse as parseYaml } from 'yaml';
import type { BucketRate } from './bucket';

/**
 * The API keys file: which keys exist, what each one may do, and how fast.
 *
 * ```yaml
 * keys:
 *   - name: backend            # shown in logs and used as the rate-limit bucket
 *     key: 6f1c...             # the key itself, or instead:
 *     sha256: 9b71...          # the hex SHA-256 of the key, so the file holds no secret
 *     rps: 10                  # tokens added per second (0 = no limit for this key)
 *     burst: 20                # bucket size (default: rps rounded up)
 *     networks: [mainnet, testnet]
 *     streaming_connections: 20  # streaming API: open streams at once (0 = no limit; default: the keyless limit)
 *     streaming_addresses: 1000  # streaming API: addresses in one subscription (0 = no limit; default: the keyless limit)
 * ```
 *
 * Only SHA-256 digests are kept in memory: plain keys are hashed while the file is read.
 * Error messages name the entry and field but never print a key or any file content.
 */

export type NetworkName = 'local' | 'mainnet' | 'testnet';

export const NETWORK_NAMES: readonly NetworkName[] = ['local', 'mainnet', 'testnet'];

export interface ApiKeyRecord {
  readonly name: string;
  /** `undefined` when the key is not limited (`rps: 0`). */
  readonly rate: BucketRate | undefined;
  readonly networks: ReadonlySet<NetworkName>;
  /** Streaming API limits; undefined = the keyless default, 0 = no limit. */
  readonly streamingConnections: number | undefined;
  readonly streamingAddresses: number | undefined;
}

export class KeysFileError extends Error {}

const NAME_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;
/** Printable ASCII without spaces: what survives an HTTP header and a query string unchanged. */
const KEY_PATTERN = /^[\x21-\x7e]{16,256}$/;
const SHA256_PATTERN = /^[0-9a-fA-F]{64}$/;
const ENTRY_FIELDS = new Set(['name', 'key', 'sha256', 'rps', 'burst', 'networks', 'streaming_connections', 'streaming_addresses']);

/** The hex SHA-256 of a key, as the `sha256` field of the keys file expects it. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

interface KeyEntry {
  readonly digest: Buffer;
  readonly record: ApiKeyRecord;
}

/** The keys of one version of the file, looked up by the digest of the presented key. */
export class Keyring {
  private readonly byDigest: Map<string, KeyEntry>;

  constructor(entries: readonly KeyEntry[]) {
    this.byDigest = new Map(entries.map((entry) => [entry.digest.toString('hex'), entry]));
  }

  get size(): number {
    return this.byDigest.size;
  }

  /**
   * The record of a presented key, or undefined.
   *
   * The map is indexed by the SHA-256 of the presented key, never by the key: whatever timing
   * the lookup has depends on a digest the caller cannot steer towards a stored one without a
   * preimage, so it tells nothing about stored keys. The final equality check is constant-time.
   */
  lookup(presented: string): ApiKeyRecord | undefined {
    const digest = createHash('sha256').update(presented, 'utf8').digest();
    const entry = this.byDigest.get(digest.toString('hex'));
    if (!entry || !timingSafeEqual(entry.digest, digest)) return undefined;
    return entry.record;
  }

  names(): string[] {
    return [...this.byDigest.values()].map((entry) => entry.record.name);
  }
}

function describeEntry(index: number, name: unknown): string {
  return typeof name === 'string' && NAME_PATTERN.test(name) ? `keys[${index}] ('${name}')` : `keys[${index}]`;
}

/** YAML reads unquoted digits as a number, which loses the text of a key or digest. */
function quoteHint(value: unknown): string {
  return typeof value === 'number' ? ' (quote it: YAML read it as a number)' : '';
}

function parseRate(raw: Record<string, unknown>, where: string): BucketRate | undefined {
  const rps = raw['rps'];
  if (typeof rps !== 'number' || !Number.isFinite(rps) || rps < 0) {
    throw new KeysFileError(`${where}: rps must be a number >= 0 (0 = no limit)`);
  }
  const burstValue = raw['burst'];
  if (burstValue !== undefined && (typeof burstValue !== 'number' || !Number.isInteger(burstValue) || burstValue < 1)) {
    throw new KeysFileError(`${where}: burst must be an integer >= 1`);
  }
  if (rps === 0) return undefined;
  return { rps, burst: burstValue ?? Math.max(1, Math.ceil(rps)) };
}

function parseStreamingLimit(raw: Record<string, unknown>, field: string, where: string): number | undefined {
  const value = raw[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 1_000_000) {
    throw new KeysFileError(`${where}: ${field} must be an integer from 0 (no limit) to 1000000`);
  }
  return value;
}

function parseNetworks(value: unknown, where: string): Set<NetworkName> {
  if (!Array.isArray(value) || value.length === 0) {
    throw new KeysFileError(`${where}: networks must be a non-empty list of ${NETWORK_NAMES.join(', ')}`);
  }
  const networks = new Set<NetworkName>();
  for (const item of value) {
    if (typeof item !== 'string' || !(NETWORK_NAMES as readonly string[]).includes(item)) {
      throw new KeysFileError(`${where}: networks may only contain ${NETWORK_NAMES.join(', ')}`);
    }
    networks.add(item as NetworkName);
  }
  return networks;
}

function parseEntry(raw: unknown, index: number): KeyEntry {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new KeysFileError(`keys[${index}] must be a mapping`);
  }
  const fields = raw as Record<string, unknown>;
  const where = describeEntry(index, fields['name']);
  for (const field of Object.keys(fields)) {
    if (!ENTRY_FIELDS.has(field)) throw new KeysFileError(`${where}: unknown field '${field.slice(0, 40)}'`);
  }
  const name = fields['name'];
  if (typeof name !== 'string' || !NAME_PATTERN.test(name)) {
    throw new KeysFileError(`${where}: name must be 1-64 characters of A-Z a-z 0-9 . _ -`);
  }
  const key = fields['key'];
  const sha256 = fields['sha256'];
  if ((key === undefined) === (sha256 === undefined)) {
    throw new KeysFileError(`${where}: give exactly one of key and sha256`);
  }
  let digest: Buffer;
  if (key !== undefined) {
    if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
      throw new KeysFileError(`${where}: key must be 16-256 printable ASCII characters without spaces${quoteHint(key)}`);
    }
    digest = createHash('sha256').update(key, 'utf8').digest();
  } else {
    if (typeof sha256 !== 'string' || !SHA256_PATTERN.test(sha256)) {
      throw new KeysFileError(`${where}: sha256 must be 64 hex digits${quoteHint(sha256)}`);
    }
    digest = Buffer.from(sha256, 'hex');
  }
  const record: ApiKeyRecord = {
    name,
    rate: parseRate(fields, where),
    networks: parseNetworks(fields['networks'], where),
    streamingConnections: parseStreamingLimit(fields, 'streaming_connections', where),
    streamingAddresses: parseStreamingLimit(fields, 'streaming_addresses', where),
  };
  return { digest, record };
}

/** Validates a parsed keys document (the value of a whole JSON or YAML file). */
export function buildKeyring(document: unknown): Keyring {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new KeysFileError('the keys file must be a mapping with a `keys` list');
  }
  const top = document as Record<string, unknown>;
  for (const field of Object.keys(top)) {
    if (field !== 'keys') throw new KeysFileError(`unknown top-level field '${field.slice(0, 40)}' (only \`keys\`)`);
  }
  const list = top['keys'] ?? [];
  if (!Array.isArray(list)) throw new KeysFileError('`keys` must be a list');
  const entries = list.map((raw, index) => parseEntry(raw, index));
  const names = new Map<string, number>();
  const digests = new Map<string, number>();
  entries.forEach((entry, index) => {
    const sameName = names.get(entry.record.name);
    if (sameName !== undefined) throw new KeysFileError(`keys[${index}]: name '${entry.record.name}' is also used by keys[${sameName}]`);
    names.set(entry.record.name, index);
    const hex = entry.digest.toString('hex');
    const sameKey = digests.get(hex);
    if (sameKey !== undefined) throw new KeysFileError(`${describeEntry(index, entry.record.name)}: the same key is also keys[${sameKey}]`);
    digests.set(hex, index);
  });
  return new Keyring(entries);
}

/**
 * Parses the text of a keys file: JSON when the name ends in `.json`, YAML otherwise. Parser
 * messages are reduced to a position, because both parsers quote the offending text.
 */
export function parseKeysText(text: string, fileName: string): Keyring {
  let document: unknown;
  if (path.extname(fileName).toLowerCase() === '.json') {
    try {
      document = JSON.parse(text);
    } catch (err) {
      const position = /position (\d+)/.exec(err instanceof Error ? err.message : '')?.[1];
      throw new KeysFileError(`${fileName} is not valid JSON${position ? ` (near character ${position})` : ''}`);
    }
  } else {
    try {
      document = parseYaml(text, { prettyErrors: false, uniqueKeys: true });
    } catch (err) {
      if (err instanceof YAMLParseError) {
        const before = text.slice(0, err.pos[0]).split('\n');
        throw new KeysFileError(
          `${fileName} is not valid YAML (${err.code} at line ${before.length}, column ${before.at(-1)!.length + 1})`,
        );
      }
      throw new KeysFileError(`${fileName} is not valid YAML`);
    }
  }
  try {
    return buildKeyring(document);
  } catch (err) {
    if (err instanceof KeysFileError) throw new KeysFileError(`${fileName}: ${err.message}`);
    throw err;
  }
}

export async function loadKeysFile(filePath: string): Promise<Keyring> {
  let text: string;
  try {
    text = await readFile(filePath, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'read error';
    throw new KeysFileError(`cannot read keys file ${filePath} (${code})`);
  }
  return parseKeysText(text, filePath);
}
