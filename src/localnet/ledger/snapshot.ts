/**
 * Snapshot files of a local chain: `LNET` magic, a JSON header, one multi-root BoC holding every
 * state (shared cells are stored once, so the file grows with changes, not with the number of
 * blocks times the state size), then each block's BoC and meta as bytes (version 4: blocks are
 * kept as bytes once old, blockBytes.ts, so a save writes them as they are and a load indexes them
 * without decoding a cell; versions 2 and 3 held the blocks in the BoC as cells and are still read).
 */
import { Cell } from '@ton/core';
import fs from 'fs';
import path from 'path';
import { BocNodeCache, decodeBocFast, serializeBoc } from '../../cells';
import { decodeBlockMeta, encodeBlockMeta } from './blockBytes';
import { ChainSnapshot, restoredBlock, SavedBlock } from './chainSnapshot';

const MAGIC = Buffer.from('LNET');
/**
 * 2: several basechain shards; 3: the chains may have a gap (a retention window after the
 * key-block rounds); 4: blocks as BoC bytes after the states' BoC.
 */
const VERSION = 4;
const READABLE_VERSIONS = [2, 3, 4];

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
  /** Due rounds of the messages in flight between shards; their cells are the BoC's last roots. Absent: none. */
  inFlight?: number[];
  /** Version 4: bytes of the states' BoC; the blocks' bytes follow it. */
  cellsLength?: number;
}

/** `cache`: nodes kept from the previous saves of the same chain, so a save encodes what is new. */
export function encodeSnapshot(snap: LocalnetSnapshot, cache?: BocNodeCache): Buffer {
  const { roots, blocks, header } = snapshotParts(snap);
  return Buffer.concat([...headOf(header, cache ? cache.serialize(roots) : serializeBoc(roots)), ...blocks]);
}

/**
 * The same bytes, encoded in slices of about `sliceMs` with the event loop free between them (a
 * periodic save of a chain of thousands of accounts would otherwise stall the API for a second).
 */
export async function encodeSnapshotInSlices(snap: LocalnetSnapshot, sliceMs: number, cache = new BocNodeCache()): Promise<Buffer> {
  const { roots, blocks, header } = snapshotParts(snap);
  return Buffer.concat([...headOf(header, await cache.serializeInSlices(roots, sliceMs)), ...blocks]);
}

/** The magic, the header's length, the header (with the cells' length) and the cells' BoC. */
function headOf(header: Header, cells: Buffer): Buffer[] {
  header.cellsLength = cells.length;
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(json.length, 0);
  return [MAGIC, length, json, cells];
}

function lengthPrefixed(data: Buffer): Buffer[] {
  const length = Buffer.alloc(4);
  length.writeUInt32LE(data.length, 0);
  return [length, data];
}

/** The file's header, the roots of its BoC in file order, and the blocks' bytes (BoC and meta of each, in header order). */
function snapshotParts(snap: LocalnetSnapshot): { header: Header; roots: Cell[]; blocks: Buffer[] } {
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
  const blocks: Buffer[] = [];
  for (const b of [...c.masterchain, ...c.basechain.flatMap((chain) => chain.blocks)]) {
    roots.push(b.state);
    blocks.push(...lengthPrefixed(b.boc), ...lengthPrefixed(encodeBlockMeta(b.meta ?? restoredBlock(b, null))));
  }
  if (c.inFlight && c.inFlight.length > 0) {
    header.inFlight = c.inFlight.map((m) => m.dueRound);
    roots.push(...c.inFlight.map((m) => m.message));
  }
  return { header, roots, blocks };
}

export function decodeSnapshot(data: Buffer): LocalnetSnapshot {
  if (data.length < 8 || !data.subarray(0, 4).equals(MAGIC)) throw new Error('not a localnet snapshot file');
  const jsonLength = data.readUInt32LE(4);
  const header = JSON.parse(data.subarray(8, 8 + jsonLength).toString('utf8')) as Header;
  if (!READABLE_VERSIONS.includes(header.version)) throw new Error(`unsupported localnet snapshot version ${header.version}`);
  const cellsAt = 8 + jsonLength;
  const bytesAt = header.version >= 4 ? cellsAt + (header.cellsLength ?? 0) : data.length;
  const roots = decodeBocFast(data.subarray(cellsAt, bytesAt));
  let pos = bytesAt;
  const bytes = (): Buffer => {
    const length = data.readUInt32LE(pos);
    if (pos + 4 + length > data.length) throw new Error('a localnet snapshot cut short');
    const out = Buffer.from(data.subarray(pos + 4, pos + 4 + length));
    pos += 4 + length;
    return out;
  };
  const root = (): Cell => {
    const cell = roots[i++];
    if (!cell) throw new Error('a localnet snapshot with fewer roots than its header says');
    return cell;
  };
  let i = 0;
  const config = root();
  const masterchainZero = root();
  const basechainZero = root();
  const libs = header.hasLibs ? root() : null;
  const blocks = (fileHashes: string[]): SavedBlock[] =>
    fileHashes.map((fileHash) => {
      if (header.version >= 4) return { boc: Buffer.alloc(0), state: root(), fileHash: Buffer.from(fileHash, 'hex') };
      // Versions 2 and 3: the block as cells, then its state.
      const blockRoot = root();
      return { root: blockRoot, boc: serializeBoc([blockRoot]), state: root(), fileHash: Buffer.from(fileHash, 'hex') };
    });
  const masterchain = blocks(header.masterchainFileHashes);
  const basechain = header.basechain.map((chain) => ({ shard: BigInt('0x' + chain.shard), blocks: blocks(chain.fileHashes) }));
  const inFlight = (header.inFlight ?? []).map((dueRound) => ({ message: root(), dueRound }));
  if (header.version >= 4) {
    for (const block of [...masterchain, ...basechain.flatMap((chain) => chain.blocks)]) {
      block.boc = bytes();
      block.meta = decodeBlockMeta(bytes());
      if (!block.meta.id.fileHash.equals(block.fileHash)) throw new Error('a localnet snapshot block of another file hash');
    }
    if (pos !== data.length) throw new Error('a localnet snapshot with trailing bytes');
  }
  return {
    chain: {
      validatorSeed: Buffer.from(header.validatorSeed, 'hex'),
      config,
      zeroStates: { masterchain: masterchainZero, basechain: basechainZero },
      masterchain,
      basechain,
      libs,
      lastUtime: header.lastUtime,
      inFlight,
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
export async function syncDirectoryAsync(dir: string): Promise<void> {
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
