/**
 * Snapshot files of a local chain: `LNET` magic, a JSON header, then one multi-root BoC holding
 * every block and state (shared cells are stored once, so the file grows with changes, not with
 * the number of blocks times the state size).
 */
import { Cell } from '@ton/core';
import fs from 'fs';
import path from 'path';
import { BocNodeCache, serializeBoc } from '../../cells';
import { ChainSnapshot } from './chainSnapshot';

const MAGIC = Buffer.from('LNET');
/** 2: several basechain shards; 3: the chains may have a gap (a retention window after the key-block rounds). */
const VERSION = 3;
const READABLE_VERSIONS = [2, 3];

/** A chain snapshot plus what the server around it needs to come back identical. */
export interface LocalnetSnapshot {
  chain: ChainSnapshot;
  /** Seed of the lite server's ADNL key: clients keep working with the same global config. */
  adnlSeed: Buffer;
  mnemonic: string[];
  accounts: number;
}

interface Header {
  version: number;
  validatorSeed: string;
  adnlSeed: string;
  mnemonic: string[];
  accounts: number;
  lastUtime: number;
  height: number;
  hasLibs: boolean;
  masterchainFileHashes: string[];
  /** Per basechain shard (hex shard id), its blocks' file hashes. */
  basechain: { shard: string; fileHashes: string[] }[];
}

/** `cache`: nodes kept from the previous saves of the same chain, so a save encodes what is new. */
export function encodeSnapshot(snap: LocalnetSnapshot, cache?: BocNodeCache): Buffer {
  const { head, roots } = snapshotParts(snap);
  return Buffer.concat([head, cache ? cache.serialize(roots) : serializeBoc(roots)]);
}

/**
 * The same bytes, encoded in slices of about `sliceMs` with the event loop free between them (a
 * periodic save of a chain of thousands of accounts would otherwise stall the API for a second).
 */
export async function encodeSnapshotInSlices(snap: LocalnetSnapshot, sliceMs: number, cache = new BocNodeCache()): Promise<Buffer> {
  const { head, roots } = snapshotParts(snap);
  return Buffer.concat([head, await cache.serializeInSlices(roots, sliceMs)]);
}

/** The file's magic, header length and JSON header, and the roots of its BoC in file order. */
function snapshotParts(snap: LocalnetSnapshot): { head: Buffer; roots: Cell[] } {
  const c = snap.chain;
  const header: Header = {
    version: VERSION,
    validatorSeed: c.validatorSeed.toString('hex'),
    adnlSeed: snap.adnlSeed.toString('hex'),
    mnemonic: snap.mnemonic,
    accounts: snap.accounts,
    lastUtime: c.lastUtime,
    height: c.masterchain.length,
    hasLibs: c.libs !== null,
    masterchainFileHashes: c.masterchain.map((b) => b.fileHash.toString('hex')),
    basechain: c.basechain.map((chain) => ({
      shard: chain.shard.toString(16),
      fileHashes: chain.blocks.map((b) => b.fileHash.toString('hex')),
    })),
  };
  const roots: Cell[] = [c.config, c.zeroStates.masterchain, c.zeroStates.basechain];
  if (c.libs) roots.push(c.libs);
  for (const b of [...c.masterchain, ...c.basechain.flatMap((chain) => chain.blocks)]) roots.push(b.root, b.state);
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(json.length, 0);
  return { head: Buffer.concat([MAGIC, length, json]), roots };
}

export function decodeSnapshot(data: Buffer): LocalnetSnapshot {
  if (data.length < 8 || !data.subarray(0, 4).equals(MAGIC)) throw new Error('not a localnet snapshot file');
  const jsonLength = data.readUInt32LE(4);
  const header = JSON.parse(data.subarray(8, 8 + jsonLength).toString('utf8')) as Header;
  if (!READABLE_VERSIONS.includes(header.version)) throw new Error(`unsupported localnet snapshot version ${header.version}`);
  const roots = Cell.fromBoc(data.subarray(8 + jsonLength));
  let i = 0;
  const config = roots[i++];
  const masterchainZero = roots[i++];
  const basechainZero = roots[i++];
  const libs = header.hasLibs ? roots[i++] : null;
  const blocks = (fileHashes: string[]) =>
    fileHashes.map((fileHash) => {
      const root = roots[i++];
      const state = roots[i++];
      return { root, state, fileHash: Buffer.from(fileHash, 'hex') };
    });
  const masterchain = blocks(header.masterchainFileHashes);
  const basechain = header.basechain.map((chain) => ({ shard: BigInt('0x' + chain.shard), blocks: blocks(chain.fileHashes) }));
  return {
    chain: {
      validatorSeed: Buffer.from(header.validatorSeed, 'hex'),
      config,
      zeroStates: { masterchain: masterchainZero, basechain: basechainZero },
      masterchain,
      basechain,
      libs,
      lastUtime: header.lastUtime,
    },
    adnlSeed: Buffer.from(header.adnlSeed, 'hex'),
    mnemonic: header.mnemonic,
    accounts: header.accounts,
  };
}

/** Writes a snapshot file atomically (see writeFileAtomicSync). */
export function writeSnapshotFile(file: string, snap: LocalnetSnapshot): void {
  writeFileAtomicSync(file, encodeSnapshot(snap));
}

/** A slice of the encoding of a periodic save: the longest the event loop waits for it (about). */
export const SAVE_SLICE_MS = 5;

/**
 * The same without stalling the event loop: the encoding (one BoC of every kept block and state)
 * runs on it in slices of SAVE_SLICE_MS, the disk work off it. Returns the timings, which the
 * caller logs (encodeMs is wall time, slices and the waits between them).
 */
export async function writeSnapshotFileAsync(
  file: string,
  snap: LocalnetSnapshot,
  cache?: BocNodeCache,
): Promise<{ bytes: number; encodeMs: number; writeMs: number }> {
  const started = performance.now();
  const data = await encodeSnapshotInSlices(snap, SAVE_SLICE_MS, cache);
  const encoded = performance.now();
  await writeFileAtomic(file, data);
  return { bytes: data.length, encodeMs: encoded - started, writeMs: performance.now() - encoded };
}

/**
 * Atomic replacement of `file`: the bytes go to `<file>.tmp`, are flushed to disk (fsync), then
 * renamed over `file`, and the directory is flushed so the rename itself survives a power cut.
 * A crash at any point leaves either the previous file or the new one, never a part of one; a
 * leftover `.tmp` is overwritten by the next save.
 */
export async function writeFileAtomic(file: string, data: Buffer): Promise<void> {
  const { dir, tmp } = prepare(file);
  const handle = await fs.promises.open(tmp, 'w');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.promises.rename(tmp, file);
  await syncDirectoryAsync(dir);
}

export function writeFileAtomicSync(file: string, data: Buffer): void {
  const { dir, tmp } = prepare(file);
  const fd = fs.openSync(tmp, 'w');
  try {
    for (let offset = 0; offset < data.length;) offset += fs.writeSync(fd, data, offset);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
  syncDirectory(dir);
}

/** The temporary file a save writes before renaming it over `file`. */
export function snapshotTempFile(file: string): string {
  return `${file}.tmp`;
}

function prepare(file: string): { dir: string; tmp: string } {
  const dir = path.dirname(path.resolve(file));
  fs.mkdirSync(dir, { recursive: true });
  return { dir, tmp: snapshotTempFile(file) };
}

/** fsync of the directory entry; not possible on every platform (Windows), where it is skipped. */
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Directories cannot be opened or synced there; the rename is still atomic.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** The same off the event loop: a flush can wait on the disk for tens of milliseconds. */
async function syncDirectoryAsync(dir: string): Promise<void> {
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(dir, 'r');
    await handle.sync();
  } catch {
    // As above: not possible on every platform; the rename is still atomic.
  } finally {
    await handle?.close();
  }
}

export function readSnapshotFile(file: string): LocalnetSnapshot | null {
  if (!fs.existsSync(file)) return null;
  return decodeSnapshot(fs.readFileSync(file));
}
