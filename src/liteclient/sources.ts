import fs from 'node:fs';
import path from 'node:path';
import type { PooledServer } from './gateway';
import { LiteServerConfigError } from '../errors';

/**
 * Where the pool's lite servers come from: a global config JSON (the official format, with two
 * optional per-server extensions of ours: `archival` and `weight`), a file given by
 * `--liteservers`, or the official mainnet/testnet config downloaded once and cached on disk.
 */

export const OFFICIAL_CONFIG_URLS = {
  mainnet: 'https://ton.org/global.config.json',
  testnet: 'https://ton.org/testnet-global.config.json',
} as const;

interface RawLiteServer {
  ip?: unknown;
  host?: unknown;
  port?: unknown;
  id?: { '@type'?: unknown; key?: unknown };
  archival?: unknown;
  weight?: unknown;
}

/** Global configs store IPv4 addresses as a signed 32-bit integer. */
export function ipFromInt(ip: number): string {
  const unsigned = ip >>> 0;
  return [unsigned >>> 24, (unsigned >>> 16) & 255, (unsigned >>> 8) & 255, unsigned & 255].join('.');
}

export function ipToInt(host: string): number {
  const parts = host.split('.').map(Number);
  if (parts.length !== 4 || parts.some((part) => !Number.isInteger(part) || part < 0 || part > 255)) {
    throw new LiteServerConfigError(`not an IPv4 address: ${host}`);
  }
  return (parts[0]! << 24) | (parts[1]! << 16) | (parts[2]! << 8) | parts[3]! | 0;
}

/** Reads the `liteservers` of a global config. Archival defaults to false, weight to 1. */
export function parseGlobalConfig(json: unknown, origin: string): PooledServer[] {
  const liteservers = (json as { liteservers?: unknown })?.liteservers;
  if (!Array.isArray(liteservers) || liteservers.length === 0) {
    throw new LiteServerConfigError(`${origin}: no "liteservers" list`);
  }
  return liteservers.map((entry: RawLiteServer, i) => {
    const where = `${origin}: liteservers[${i}]`;
    let host: string;
    if (typeof entry.host === 'string') host = entry.host;
    else if (typeof entry.ip === 'number' && Number.isInteger(entry.ip)) host = ipFromInt(entry.ip);
    else throw new LiteServerConfigError(`${where}: "ip" must be an integer`);
    if (typeof entry.port !== 'number' || !Number.isInteger(entry.port) || entry.port <= 0 || entry.port > 65535) {
      throw new LiteServerConfigError(`${where}: "port" must be a TCP port`);
    }
    const key = entry.id?.key;
    const publicKey = typeof key === 'string' ? Buffer.from(key, 'base64') : Buffer.alloc(0);
    if (publicKey.length !== 32) throw new LiteServerConfigError(`${where}: "id.key" must be a base64 ed25519 public key`);
    if (entry.archival !== undefined && typeof entry.archival !== 'boolean') {
      throw new LiteServerConfigError(`${where}: "archival" must be true or false`);
    }
    if (entry.weight !== undefined && (typeof entry.weight !== 'number' || !(entry.weight >= 0))) {
      throw new LiteServerConfigError(`${where}: "weight" must be a non-negative number`);
    }
    return { host, port: entry.port, publicKey, archival: entry.archival ?? false, weight: entry.weight ?? 1 };
  });
}

/** The JSON of a global config file. */
export function readGlobalConfigJson(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new LiteServerConfigError(`cannot read ${file}: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new LiteServerConfigError(`${file} is not JSON: ${(err as Error).message}`);
  }
}

export function loadGlobalConfigFile(file: string): PooledServer[] {
  return parseGlobalConfig(readGlobalConfigJson(file), file);
}

export interface DownloadOptions {
  cacheDir: string;
  timeoutMs: number;
  /** Overrides the official address (tests). */
  url?: string;
}

/**
 * The official global config of a public network. A fresh download is cached; when the download
 * fails the cached copy is used, and without one the error says what to do instead of hanging.
 */
export async function loadNetworkConfig(
  network: keyof typeof OFFICIAL_CONFIG_URLS,
  options: DownloadOptions,
  onWarning: (message: string) => void = () => undefined,
): Promise<PooledServer[]> {
  return (await loadNetworkGlobalConfig(network, options, onWarning)).servers;
}

/** loadNetworkConfig with the config's JSON too (its `validator` section is the trust anchor). */
export async function loadNetworkGlobalConfig(
  network: keyof typeof OFFICIAL_CONFIG_URLS,
  options: DownloadOptions,
  onWarning: (message: string) => void = () => undefined,
): Promise<{ servers: PooledServer[]; json: unknown }> {
  const url = options.url ?? OFFICIAL_CONFIG_URLS[network];
  const cacheFile = path.join(options.cacheDir, `${network}-global.config.json`);
  let text: string;
  let servers: PooledServer[];
  let json: unknown;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(options.timeoutMs) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    text = await response.text();
    json = JSON.parse(text);
    servers = parseGlobalConfig(json, url);
  } catch (err) {
    const reason = err instanceof Error ? (err.cause instanceof Error ? `${err.message}: ${err.cause.message}` : err.message) : String(err);
    if (fs.existsSync(cacheFile)) {
      onWarning(`cannot download the ${network} global config from ${url} (${reason}); using the cached copy ${cacheFile}`);
      const cached = readGlobalConfigJson(cacheFile);
      return { servers: parseGlobalConfig(cached, cacheFile), json: cached };
    }
    throw new LiteServerConfigError(
      `cannot download the ${network} global config from ${url} (${reason}) and there is no cached copy at ${cacheFile}; ` +
        'pass --liteservers <global config file> instead',
    );
  }
  // The download worked; a cache that cannot be written (read-only volume) costs only the fallback.
  try {
    fs.mkdirSync(options.cacheDir, { recursive: true });
    fs.writeFileSync(cacheFile, text);
  } catch (err) {
    onWarning(
      `downloaded the ${network} global config but cannot cache it at ${cacheFile} (${(err as Error).message}); starting without a cached copy`,
    );
  }
  return { servers, json };
}
