/**
 * Snapshot files of a local chain: `LNET` magic, a JSON header, then one multi-root BoC holding
 * every block and state (shared cells are stored once, so the file grows with changes, not with
 * the number of blocks times the state size).
 */
import { Cell } from '@ton/core';
import fs from 'fs';
import path from 'path';
import { serializeBoc } from '../cells';
import { ChainSnapshot } from './chainSnapshot';

const MAGIC = Buffer.from('LNET');
/** 2: several basechain shards. */
const VERSION = 2;

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

export function encodeSnapshot(snap: LocalnetSnapshot): Buffer {
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
  return Buffer.concat([MAGIC, length, json, serializeBoc(roots)]);
}

export function decodeSnapshot(data: Buffer): LocalnetSnapshot {
  if (data.length < 8 || !data.subarray(0, 4).equals(MAGIC)) throw new Error('not a localnet snapshot file');
  const jsonLength = data.readUInt32LE(4);
  const header = JSON.parse(data.subarray(8, 8 + jsonLength).toString('utf8')) as Header;
  if (header.version !== VERSION) throw new Error(`unsupported localnet snapshot version ${header.version}`);
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

/** Writes atomically (temporary file, then rename), so a crash never leaves half a snapshot. */
export function writeSnapshotFile(file: string, snap: LocalnetSnapshot): void {
  const data = encodeSnapshot(snap);
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, data);
  fs.renameSync(tmp, file);
}

export function readSnapshotFile(file: string): LocalnetSnapshot | null {
  if (!fs.existsSync(file)) return null;
  return decodeSnapshot(fs.readFileSync(file));
}
