/**
 * The block journal of a chain with a state file: every sealed round (the basechain blocks and
 * the masterchain block that registers them, with their states) is appended to
 * `<state-file>.journal` and flushed to disk before any client can learn of it, so a crash
 * loses nothing a client was answered about. A restart loads the state file (the last save) and
 * replays the journal on top of it; each save starts a new journal whose base is that save.
 *
 * A record holds only the cells that are new since the base: a cell already in the base
 * snapshot or in an earlier record of the same file is written as its 32-byte hash. Which cells
 * those are is known by object identity (sealed states share their unchanged cells with the
 * previous ones), so writing a round costs what changed in it, not the size of the state.
 *
 * With `--block-interval` above 0, an external message a client sent waits for the next timed
 * block; the lite server's answer (accepted) comes before that block. So the accepted message is
 * journaled too, before that answer: a restart executes the messages accepted after the last
 * journaled round again, and they land in the first block after it (the client's message hash
 * finds its transaction; the transaction itself is new, at a new time and lt).
 *
 * File: `LNJ1`, u32le header length, JSON header (the base: masterchain seqno and root hash of
 * the save it extends); then records, each u32le payload length, u32le CRC32C of the payload,
 * payload (a kind byte: a round or an accepted message; then its contents). A round record (kind
 * 2) holds the states' new cells, then each block's BoC and meta (blockBytes.ts) as bytes: a block
 * is not cells once it is old, and its BoC was made at its seal. Kind 0, the blocks as cells too,
 * is still read (journals written before). A torn last record (a crash in the middle of an append) fails its length or CRC and
 * is ignored: it was never flushed, so no client heard of its blocks.
 */
import { BitString, Cell } from '@ton/core';
import fs from 'fs';
import path from 'path';
import { crc32cValue, finishInSlices, finishNow, paddedCellData, serializeBoc, type SteppedWork } from '../../cells';
import { decodeBlockMeta, encodeBlockMeta } from './blockBytes';
import { ChainSnapshot, InFlightMessage, SavedBlock, savedBlockId } from './chainSnapshot';
import { syncDirectoryAsync, writeFileAtomicSync } from './snapshot';

const MAGIC = Buffer.from('LNJ1');
const JOURNAL_VERSION = 1;

/** The block a journal extends: the head masterchain block of the save it was started with. */
export interface JournalBase {
  seqno: number;
  rootHash: Buffer;
}

/** One sealed round as journaled. */
export interface JournalRound {
  masterchain: SavedBlock;
  /** One block per basechain shard, shards left to right. */
  basechain: { shard: bigint; block: SavedBlock }[];
  /** The emulator's global libraries after the round. */
  libs: Cell | null;
  lastUtime: number;
  /** Messages still on their way to another shard after the round. */
  inFlight: InFlightMessage[];
}

interface RecordHeader {
  seqno: number;
  lastUtime: number;
  mcFileHash: string;
  shards: { shard: string; fileHash: string }[];
  hasLibs: boolean;
  /** Due rounds of the in-flight messages, whose cells are the last roots. */
  inFlight: number[];
}

interface FileHeader {
  version: number;
  baseSeqno: number;
  baseRootHash: string;
}

/** The first byte of a record's payload. */
const RECORD_ROUND_CELLS = 0;
const RECORD_MESSAGE = 1;
const RECORD_ROUND = 2;

/** A reference in a record: an earlier cell of the same record, or a known cell by hash. */
const REF_INDEX = 0;
const REF_HASH = 1;

/** The `<state-file>.journal` file, and the next one a save starts before it replaces the first. */
export function journalFiles(stateFile: string): { current: string; next: string } {
  return { current: `${stateFile}.journal`, next: `${stateFile}.journal.next` };
}

function cellKey(hash: Buffer): string {
  return hash.toString('latin1');
}

/** The round's roots in record order: the mc state, each shard's state, libs, the messages in flight. */
function roundRoots(round: JournalRound): Cell[] {
  const roots = [round.masterchain.state];
  for (const { block } of round.basechain) roots.push(block.state);
  if (round.libs) roots.push(round.libs);
  for (const m of round.inFlight) roots.push(m.message);
  return roots;
}

/**
 * The record's payload: the header, the new cells (children before parents) and the roots.
 * `known(cell)`: whether the replayer will have this cell (then only its hash is written).
 * Returns the payload and the cells written whole (they are known from then on).
 */
export function encodeRound(round: JournalRound, known: (cell: Cell) => boolean): { payload: Buffer; written: Cell[] } {
  const header: RecordHeader = {
    seqno: savedBlockId(round.masterchain).seqno,
    lastUtime: round.lastUtime,
    mcFileHash: round.masterchain.fileHash.toString('hex'),
    shards: round.basechain.map(({ shard, block }) => ({ shard: shard.toString(16), fileHash: block.fileHash.toString('hex') })),
    hasLibs: round.libs !== null,
    inFlight: round.inFlight.map((m) => m.dueRound),
  };
  const index = new Map<Cell, number>();
  const written: Cell[] = [];
  const parts: Buffer[] = [];
  const refBytes = (cell: Cell): Buffer => {
    const i = index.get(cell);
    if (i !== undefined) {
      const b = Buffer.alloc(5);
      b[0] = REF_INDEX;
      b.writeUInt32LE(i, 1);
      return b;
    }
    return Buffer.concat([Buffer.from([REF_HASH]), cell.hash()]);
  };
  const roots = roundRoots(round);
  for (const root of roots) {
    const stack: Cell[] = [root];
    while (stack.length > 0) {
      const cell = stack[stack.length - 1];
      if (index.has(cell) || known(cell)) {
        stack.pop();
        continue;
      }
      let missing = false;
      const refs = cell.refs;
      for (let j = refs.length - 1; j >= 0; j--) {
        const ref = refs[j];
        if (!index.has(ref) && !known(ref)) {
          stack.push(ref);
          missing = true;
        }
      }
      if (missing) continue;
      stack.pop();
      const head = Buffer.alloc(4);
      head[0] = cell.isExotic ? 1 : 0;
      head.writeUInt16LE(cell.bits.length, 1);
      head[3] = cell.refs.length;
      parts.push(head, paddedCellData(cell.bits, false), ...cell.refs.map(refBytes));
      index.set(cell, written.length);
      written.push(cell);
    }
  }
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const jsonLength = Buffer.alloc(4);
  jsonLength.writeUInt32LE(json.length, 0);
  const cellCount = Buffer.alloc(4);
  cellCount.writeUInt32LE(written.length, 0);
  // Header, then the cells, then the roots, then the blocks' bytes.
  const rootRefs = [Buffer.from([roots.length]), ...roots.map(refBytes)];
  const blocks: Buffer[] = [];
  for (const block of [round.masterchain, ...round.basechain.map((b) => b.block)]) {
    if (!block.meta) throw new Error('a journaled block needs its meta');
    blocks.push(lengthPrefixed(block.boc), lengthPrefixed(encodeBlockMeta(block.meta)));
  }
  return { payload: Buffer.concat([Buffer.from([RECORD_ROUND]), jsonLength, json, cellCount, ...parts, ...rootRefs, ...blocks]), written };
}

function lengthPrefixed(data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32LE(data.length, 0);
  return Buffer.concat([length, data]);
}

/** Decodes a record's payload; `resolve` finds a cell by hash (the base's and earlier records' cells). */
export function decodeRound(
  payload: Buffer,
  resolve: (hash: Buffer) => Cell | undefined,
): { round: JournalRound; seqno: number; cells: Cell[] } {
  const kind = payload[0];
  if (kind !== RECORD_ROUND && kind !== RECORD_ROUND_CELLS) throw new Error('not a round record');
  let pos = 1;
  const jsonLength = payload.readUInt32LE(pos);
  pos += 4;
  const header = JSON.parse(payload.subarray(pos, pos + jsonLength).toString('utf8')) as RecordHeader;
  pos += jsonLength;
  const cellCount = payload.readUInt32LE(pos);
  pos += 4;
  const cells: Cell[] = [];
  const readRef = (): Cell => {
    const tag = payload[pos++];
    if (tag === REF_INDEX) {
      const i = payload.readUInt32LE(pos);
      pos += 4;
      const cell = cells[i];
      if (!cell) throw new Error('journal record refers to a later cell');
      return cell;
    }
    if (tag !== REF_HASH) throw new Error('journal record has an unknown reference tag');
    const hash = payload.subarray(pos, pos + 32);
    pos += 32;
    const cell = resolve(hash);
    if (!cell) throw new Error(`journal record refers to an unknown cell ${hash.toString('hex')}`);
    return cell;
  };
  for (let i = 0; i < cellCount; i++) {
    const exotic = payload[pos] === 1;
    const bitLength = payload.readUInt16LE(pos + 1);
    const refCount = payload[pos + 3];
    pos += 4;
    const byteLength = Math.ceil(bitLength / 8);
    const data = Buffer.from(payload.subarray(pos, pos + byteLength));
    pos += byteLength;
    const refs: Cell[] = [];
    for (let r = 0; r < refCount; r++) refs.push(readRef());
    cells.push(new Cell({ exotic, bits: new BitString(data, 0, bitLength), refs }));
  }
  const rootCount = payload[pos++];
  const roots: Cell[] = [];
  for (let i = 0; i < rootCount; i++) roots.push(readRef());
  let r = 0;
  const root = (): Cell => {
    const cell = roots[r++];
    if (!cell) throw new Error('journal record has a wrong number of roots');
    return cell;
  };
  const bytes = (): Buffer => {
    const length = payload.readUInt32LE(pos);
    const data = Buffer.from(payload.subarray(pos + 4, pos + 4 + length));
    pos += 4 + length;
    return data;
  };
  // Kind 0: block root, then state; kind 2: the state only, the block's bytes after the roots.
  const saved = (fileHash: string): SavedBlock => {
    if (kind === RECORD_ROUND) return { boc: Buffer.alloc(0), state: root(), fileHash: Buffer.from(fileHash, 'hex') };
    const blockRoot = root();
    return { root: blockRoot, boc: serializeBoc([blockRoot]), state: root(), fileHash: Buffer.from(fileHash, 'hex') };
  };
  const masterchain = saved(header.mcFileHash);
  const basechain = header.shards.map((s) => ({ shard: BigInt('0x' + s.shard), block: saved(s.fileHash) }));
  const libs = header.hasLibs ? root() : null;
  const inFlight = header.inFlight.map((dueRound) => ({ message: root(), dueRound }));
  if (r !== roots.length) throw new Error('journal record has a wrong number of roots');
  if (kind === RECORD_ROUND) {
    for (const block of [masterchain, ...basechain.map((b) => b.block)]) {
      block.boc = bytes();
      block.meta = decodeBlockMeta(bytes());
      if (!block.meta.id.fileHash.equals(block.fileHash)) throw new Error('journal record has a block of another file hash');
    }
  }
  if (pos !== payload.length) throw new Error('journal record has trailing bytes');
  if (savedBlockId(masterchain).seqno !== header.seqno) throw new Error('journal record seqno does not match its block');
  return { round: { masterchain, basechain, libs, lastUtime: header.lastUtime, inFlight }, seqno: header.seqno, cells };
}

function fileHeader(base: JournalBase): Buffer {
  const header: FileHeader = { version: JOURNAL_VERSION, baseSeqno: base.seqno, baseRootHash: base.rootHash.toString('hex') };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(json.length, 0);
  return Buffer.concat([MAGIC, length, json]);
}

/** A journal file read back: its base and its whole records' payloads (a torn tail dropped). */
export interface JournalContents {
  base: JournalBase;
  payloads: Buffer[];
  /** Bytes at the end that were not a whole record (a crash in the middle of an append). */
  tornBytes: number;
}

export function readJournalFile(file: string): JournalContents | null {
  if (!fs.existsSync(file)) return null;
  const data = fs.readFileSync(file);
  if (data.length < 8 || !data.subarray(0, 4).equals(MAGIC)) throw new Error(`${file} is not a localnet journal`);
  const jsonLength = data.readUInt32LE(4);
  const header = JSON.parse(data.subarray(8, 8 + jsonLength).toString('utf8')) as FileHeader;
  if (header.version !== JOURNAL_VERSION) throw new Error(`unsupported localnet journal version ${header.version}`);
  const payloads: Buffer[] = [];
  let pos = 8 + jsonLength;
  while (pos + 8 <= data.length) {
    const length = data.readUInt32LE(pos);
    const crc = data.readUInt32LE(pos + 4);
    const end = pos + 8 + length;
    if (end > data.length) break;
    const payload = data.subarray(pos + 8, end);
    if (crc32cValue(payload) !== crc) break;
    payloads.push(payload);
    pos = end;
  }
  return { base: { seqno: header.baseSeqno, rootHash: Buffer.from(header.baseRootHash, 'hex') }, payloads, tornBytes: data.length - pos };
}

/** Every cell of a snapshot, as its roots reach them (each once). */
export function snapshotRoots(snap: ChainSnapshot): Cell[] {
  const roots: Cell[] = [snap.config, snap.zeroStates.masterchain, snap.zeroStates.basechain];
  if (snap.libs) roots.push(snap.libs);
  // Block roots only when a file older than the blocks' bytes held them as cells.
  for (const b of [...snap.masterchain, ...snap.basechain.flatMap((chain) => chain.blocks)]) {
    if (b.root) roots.push(b.root);
    roots.push(b.state);
  }
  return roots;
}

/** Walks every cell reachable from `roots` once (by identity), calling `visit`; yields now and then. */
function* walkCells(roots: readonly Cell[], seen: WeakSet<Cell>, visit: (cell: Cell) => void): SteppedWork<void> {
  let steps = 0;
  const stack: Cell[] = [...roots];
  while (stack.length > 0) {
    const cell = stack.pop()!;
    if (seen.has(cell)) continue;
    seen.add(cell);
    visit(cell);
    for (const ref of cell.refs) if (!seen.has(ref)) stack.push(ref);
    if (++steps % 4096 === 0) yield;
  }
}

/** What replaying the journals did: rounds applied, journals skipped (their base is not the head), torn bytes. */
export interface ReplayReport {
  rounds: number;
  skipped: string[];
  tornBytes: number;
  /** External messages accepted after the last round (BoCs, in order): to execute again. */
  pendingMessages: Buffer[];
}

/**
 * Appends the journals' rounds to `snap` (a decoded state file), in place: `.journal` when its
 * base is the snapshot's head, then `.journal.next` when its base is the head reached so far (a
 * save was under way: its new journal had begun while its state file was not yet written). A
 * journal whose base is another block belongs to an older save and is skipped.
 */
export function replayJournals(stateFile: string, snap: ChainSnapshot): ReplayReport {
  const report: ReplayReport = { rounds: 0, skipped: [], tornBytes: 0, pendingMessages: [] };
  const files = journalFiles(stateFile);
  const journals = [files.current, files.next]
    .map((file) => ({ file, contents: readJournalFile(file) }))
    .filter((j): j is { file: string; contents: JournalContents } => j.contents !== null);
  if (journals.every((j) => j.contents.payloads.length === 0)) return report;
  // Cells by hash, for the records' references: the snapshot's, then each record's new ones.
  const byHash = new Map<string, Cell>();
  finishNow(walkCells(snapshotRoots(snap), new WeakSet(), (cell) => byHash.set(cellKey(cell.hash()), cell)));
  const resolve = (hash: Buffer) => byHash.get(cellKey(hash));
  for (const { file, contents } of journals) {
    const head = snap.masterchain[snap.masterchain.length - 1];
    const headId = head ? savedBlockId(head) : null;
    if (!headId || contents.base.seqno !== headId.seqno || !contents.base.rootHash.equals(headId.rootHash)) {
      report.skipped.push(file);
      continue;
    }
    report.tornBytes += contents.tornBytes;
    let expected = headId.seqno + 1;
    for (const payload of contents.payloads) {
      if (payload[0] === RECORD_MESSAGE) {
        report.pendingMessages.push(Buffer.from(payload.subarray(1)));
        continue;
      }
      // Every message accepted before a round was executed into it (or before it).
      report.pendingMessages = [];
      const { round, seqno, cells } = decodeRound(payload, resolve);
      if (seqno !== expected) throw new Error(`${file}: round ${seqno} where ${expected} was expected`);
      if (round.basechain.length !== snap.basechain.length) throw new Error(`${file}: round ${seqno} has another shard layout`);
      for (const cell of cells) byHash.set(cellKey(cell.hash()), cell);
      snap.masterchain.push(round.masterchain);
      round.basechain.forEach(({ shard, block }, i) => {
        if (snap.basechain[i].shard !== shard) throw new Error(`${file}: round ${seqno} has another shard layout`);
        snap.basechain[i].blocks.push(block);
      });
      snap.libs = round.libs;
      snap.lastUtime = round.lastUtime;
      snap.inFlight = round.inFlight;
      report.rounds++;
      expected++;
    }
  }
  return report;
}

/**
 * The journal being written. `append` resolves once the record is on disk (fsync): the chain
 * makes a block visible only after that. Cells of the base snapshot count as known once the
 * (sliced) walk over them has reached them; until then they are written whole, which is only
 * larger, never wrong: everything known is something a replay of this file can resolve.
 */
export class BlockJournal {
  private known = new WeakSet<Cell>();
  private handle: fs.promises.FileHandle | null = null;
  /** Bumped by every rebase, so a walk of an older base stops marking. */
  private generation = 0;
  private writing: Promise<void> = Promise.resolve();
  /** Bytes appended since the base (the records, not the header). */
  bytesSinceBase = 0;
  roundsSinceBase = 0;

  private constructor(private file: string) {}

  /** Starts a journal at `file` (replacing any) whose base is `base`, the head of the snapshot `baseRoots` come from. */
  static async create(file: string, base: JournalBase, baseRoots: readonly Cell[], opts: { markInSlices: boolean }): Promise<BlockJournal> {
    const journal = new BlockJournal(file);
    await journal.rebase(file, base, baseRoots, opts);
    return journal;
  }

  get path(): string {
    return this.file;
  }

  /**
   * Goes on in a new file whose base is `base` (a new save): the previous file is closed as it
   * is, known cells start over from the new base's cells (walked in slices when `markInSlices`).
   */
  async rebase(file: string, base: JournalBase, baseRoots: readonly Cell[], opts: { markInSlices: boolean }): Promise<void> {
    await this.writing.catch(() => undefined);
    const previous = this.handle;
    this.handle = null;
    await previous?.close();
    writeFileAtomicSync(file, fileHeader(base));
    this.handle = await fs.promises.open(file, 'a');
    this.file = file;
    this.known = new WeakSet<Cell>();
    this.bytesSinceBase = 0;
    this.roundsSinceBase = 0;
    const generation = ++this.generation;
    const known = this.known;
    const marking = walkCells(baseRoots, new WeakSet(), (cell) => {
      if (this.generation === generation) known.add(cell);
    });
    if (opts.markInSlices) void finishInSlices(marking, 5);
    else finishNow(marking);
  }

  /** Renames the file (a save moving `.journal.next` over `.journal`); the open handle follows it. */
  async moveTo(file: string): Promise<void> {
    await this.writing.catch(() => undefined);
    await fs.promises.rename(this.file, file);
    this.file = file;
    await syncDirectoryAsync(path.dirname(path.resolve(file)));
  }

  /** Appends a round and flushes it to disk. Records are written in the order of the calls. */
  append(round: JournalRound): Promise<void> {
    return this.write(() => encodeRound(round, (cell) => this.known.has(cell)));
  }

  /** Appends an accepted external message (its BoC) and flushes it to disk. */
  appendMessage(boc: Buffer): Promise<void> {
    return this.write(() => ({ payload: Buffer.concat([Buffer.from([RECORD_MESSAGE]), boc]), written: [] }));
  }

  private write(encode: () => { payload: Buffer; written: Cell[] }): Promise<void> {
    const run = this.writing.then(async () => {
      const handle = this.handle;
      if (!handle) throw new Error('the localnet journal is closed');
      const { payload, written } = encode();
      const head = Buffer.alloc(8);
      head.writeUInt32LE(payload.length, 0);
      head.writeUInt32LE(crc32cValue(payload), 4);
      const record = Buffer.concat([head, payload]);
      await handle.write(record);
      await handle.sync();
      for (const cell of written) this.known.add(cell);
      this.bytesSinceBase += record.length;
      this.roundsSinceBase++;
    });
    this.writing = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    await this.writing.catch(() => undefined);
    const handle = this.handle;
    this.handle = null;
    this.generation++;
    await handle?.close();
  }
}

/** Removes the journal files of `stateFile` (after a save that holds everything they held). */
export async function removeJournals(stateFile: string): Promise<void> {
  const files = journalFiles(stateFile);
  for (const file of [files.current, files.next]) await fs.promises.rm(file, { force: true });
}
