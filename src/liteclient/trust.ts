import { FULL_SHARD_SIGNED, MASTERCHAIN } from '../constants';
import fs from 'node:fs';
import path from 'node:path';
import type { BlockIdExt } from '../tl';
import { LiteServerConfigError } from '../errors';

/**
 * What the pool believes without proof (tonlib's `validator` settings): the global config's
 * `validator.zero_state` and `init_block`, or `--trusted-block`. Every masterchain block the
 * server uses is proven from there (src/liteclient/headVerifier.ts). The newest key block it
 * has proven is kept in `--config-cache-dir`, so a restart starts its walk there.
 */
export interface TrustAnchor {
  /** The chain's masterchain zerostate (names the chain: the key-block cache file is per chain). */
  readonly zeroState: BlockIdExt;
  /** Where the proof walk starts: `--trusted-block`, else `init_block`, else the zerostate. */
  readonly start: BlockIdExt;
}


interface RawBlockId {
  workchain?: unknown;
  shard?: unknown;
  seqno?: unknown;
  root_hash?: unknown;
  file_hash?: unknown;
}

function hash32(text: string, what: string): Buffer {
  const bytes = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (bytes.length !== 32) throw new LiteServerConfigError(`${what} must be 32 bytes in hex or base64`);
  return bytes;
}

function masterchainId(seqno: number, rootHash: Buffer, fileHash: Buffer): BlockIdExt {
  return { kind: 'tonNode.blockIdExt', workchain: MASTERCHAIN, shard: FULL_SHARD_SIGNED, seqno, rootHash, fileHash };
}

function parseConfigBlockId(raw: RawBlockId | undefined, what: string): BlockIdExt | null {
  if (raw === undefined || raw === null) return null;
  if (raw.workchain !== -1) throw new LiteServerConfigError(`${what}: only masterchain blocks (workchain -1) can be trusted`);
  if (typeof raw.seqno !== 'number' || !Number.isInteger(raw.seqno) || raw.seqno < 0 || raw.seqno > 0xffffffff) {
    throw new LiteServerConfigError(`${what}: "seqno" must be a block number`);
  }
  if (typeof raw.root_hash !== 'string' || typeof raw.file_hash !== 'string') {
    throw new LiteServerConfigError(`${what}: "root_hash" and "file_hash" must be base64 strings`);
  }
  return masterchainId(raw.seqno, hash32(raw.root_hash, `${what}.root_hash`), hash32(raw.file_hash, `${what}.file_hash`));
}

/**
 * The anchor of a global config JSON (`validator.zero_state`, `validator.init_block`) and the
 * `--trusted-block` flag. Null when the config names no zero state: nothing to prove against.
 */
export function trustAnchorOf(json: unknown, origin: string, trustedBlock: string | undefined): TrustAnchor | null {
  const validator = (json as { validator?: { zero_state?: RawBlockId; init_block?: RawBlockId } } | null)?.validator;
  const zeroState = parseConfigBlockId(validator?.zero_state, `${origin}: validator.zero_state`);
  if (!zeroState) return null;
  if (zeroState.seqno !== 0) throw new LiteServerConfigError(`${origin}: validator.zero_state must have seqno 0`);
  const initBlock = parseConfigBlockId(validator?.init_block, `${origin}: validator.init_block`);
  const trusted = trustedBlock === undefined ? null : parseTrustedBlock(trustedBlock);
  return { zeroState, start: trusted ?? initBlock ?? zeroState };
}

/** `--trusted-block wc:shard:seqno:root_hash:file_hash` (shard in hex, or negative decimal; hashes hex or base64). */
export function parseTrustedBlock(text: string): BlockIdExt {
  const parts = text.split(':');
  const fail = (why: string): never => {
    throw new LiteServerConfigError(`--trusted-block ${why}; expected wc:shard:seqno:root_hash:file_hash, got '${text}'`);
  };
  if (parts.length !== 5) fail('needs five fields');
  const [wc, shard, seqno, root, file] = parts as [string, string, string, string, string];
  if (wc !== '-1') fail('must be a masterchain block (workchain -1)');
  // Hex as tonlib writes it (8000000000000000), or the signed decimal of lite-server TL.
  const shardValue = /^-\d+$/.test(shard) ? BigInt.asUintN(64, BigInt(shard)) : /^[0-9a-fA-F]{1,16}$/.test(shard) ? BigInt(`0x${shard}`) : fail('has a bad shard');
  if (shardValue !== 0x8000000000000000n) fail('must be in the masterchain shard 8000000000000000');
  if (!/^\d+$/.test(seqno) || Number(seqno) > 0xffffffff) fail('has a bad seqno');
  return masterchainId(Number(seqno), hash32(root, '--trusted-block root_hash'), hash32(file, '--trusted-block file_hash'));
}

interface SavedKeyBlock {
  zeroState: string;
  seqno: number;
  rootHash: string;
  fileHash: string;
}

/** The proven key block cache: one small file per chain (named by its zerostate) in the cache dir. */
export class KeyBlockStore {
  private readonly file: string;

  constructor(
    cacheDir: string,
    private readonly zeroState: BlockIdExt,
    /** Read the saved key block, never write it (a second pool of the process, e.g. the index thread's). */
    private readonly readOnly = false,
  ) {
    this.file = path.join(cacheDir, `key-block-${zeroState.rootHash.toString('hex').slice(0, 16)}.json`);
  }

  /** The saved key block of this chain, if any (a damaged or foreign file is ignored). */
  load(): BlockIdExt | null {
    try {
      const saved = JSON.parse(fs.readFileSync(this.file, 'utf8')) as SavedKeyBlock;
      if (saved.zeroState !== this.zeroState.rootHash.toString('hex')) return null;
      const rootHash = Buffer.from(saved.rootHash, 'hex');
      const fileHash = Buffer.from(saved.fileHash, 'hex');
      if (!Number.isInteger(saved.seqno) || saved.seqno < 0 || rootHash.length !== 32 || fileHash.length !== 32) return null;
      return masterchainId(saved.seqno, rootHash, fileHash);
    } catch {
      return null;
    }
  }

  /** Saves atomically; a cache that cannot be written costs only a longer walk at the next start. */
  save(block: BlockIdExt): boolean {
    if (this.readOnly) return true;
    const saved: SavedKeyBlock = {
      zeroState: this.zeroState.rootHash.toString('hex'),
      seqno: block.seqno,
      rootHash: block.rootHash.toString('hex'),
      fileHash: block.fileHash.toString('hex'),
    };
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      const temp = `${this.file}.${process.pid}.tmp`;
      fs.writeFileSync(temp, JSON.stringify(saved));
      fs.renameSync(temp, this.file);
      return true;
    } catch {
      return false;
    }
  }
}
