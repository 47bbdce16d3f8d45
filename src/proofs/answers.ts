import { Cell, CellType } from '@ton/core';
import { ApiError } from '../errors';
import { CellInterner, decodeBocFast } from '../cells';
import { scanBoc } from '../params';
import type { BlockIdExt, BlockLink } from '../tl';
import type { BlockRef, ChainSession } from './chainSession';

/** The checks every read makes on what a lite server sends back. */

export function tlBlockId(id: BlockRef): BlockIdExt {
  return {
    kind: 'tonNode.blockIdExt',
    workchain: id.workchain,
    shard: id.shard,
    seqno: id.seqno,
    rootHash: id.rootHash,
    fileHash: id.fileHash,
  };
}

/** The same block (the shard compared as a signed 64-bit number, whatever its text form). */
export function sameBlock(a: BlockRef, b: BlockRef): boolean {
  return (
    a.workchain === b.workchain &&
    BigInt.asIntN(64, BigInt(a.shard)) === BigInt.asIntN(64, BigInt(b.shard)) &&
    a.seqno === b.seqno &&
    a.rootHash.equals(b.rootHash) &&
    a.fileHash.equals(b.fileHash)
  );
}

/**
 * An answer the lite server sent but we cannot use (bad BoC, broken proof, wrong block). toncenter
 * reports tonlib's complaint about such answers as a 500 with its text; so do we, with ours.
 */
export function invalidLiteAnswer(what: string, detail?: string): ApiError {
  return new ApiError('failed', `invalid lite-server answer: ${what}${detail ? `: ${detail}` : ''}`);
}

/** Runs a parser over lite-server data; any failure becomes an invalidLiteAnswer naming `what`. */
export function parseLiteAnswer<T>(what: string, parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw invalidLiteAnswer(what, err instanceof Error ? err.message : String(err));
  }
}

/** The single root of a BoC the lite server sent. */
export function bocRoot(bytes: Buffer, what: string): Cell {
  const roots = bocRoots(bytes, what);
  if (roots.length !== 1) throw invalidLiteAnswer(what, `expected one root, got ${roots.length}`);
  return roots[0];
}

/**
 * Parsed BoCs by the answer buffer they came from: an answer's proof check and the read that
 * uses it then decode (and hash) its cells once. Cells are immutable, so sharing them is safe.
 */
const parsedBocs = new WeakMap<Buffer, Cell[]>();

/**
 * Answers repeat cells across requests: every account read of a shard at one block carries the
 * same shard-block proof and the same top of the state proof, and a client polling an account
 * gets its cells again. Building a cell is what costs (@ton/core hashes it at every level); the
 * interner gives a cell whose descriptor, data and children equal an earlier one's that earlier
 * Cell, so each distinct cell is built once (a repeated account proof decodes ~5x faster). The
 * hashes are those of the bytes received: a changed byte is a different cell with its own hash,
 * so proofs are checked exactly as before. A BoC of more cells than INTERNED_BOC_MAX_CELLS (a
 * large contract's state) goes to @ton/core and is not remembered, so one big answer never
 * flushes the small hot ones; the interner forgets everything at INTERNED_CELLS (~7 MB of cells).
 * Those big ones (an account read's state proof is thousands of cells) go to decodeBocFast, the
 * byte-level reader the block fetch uses: @ton/core's own decoder reads every field through a
 * BitReader and was most of an account read's main-thread time while indexing. Both build the
 * cells with @ton/core's Cell (its own hashes and exotic checks), so the proofs check the same.
 */
const INTERNED_BOC_MAX_CELLS = 512;
const INTERNED_CELLS = 4096;
const interner = new CellInterner(INTERNED_CELLS);

function decodeBoc(bytes: Buffer): Cell[] {
  // The interner trusts the layout: only BoCs whose structure the scan accepts go there;
  // @ton/core's decoder says what is wrong with the others.
  const shape = scanBoc(bytes, INTERNED_BOC_MAX_CELLS);
  if (!shape) return Cell.fromBoc(bytes);
  if (shape.cells > INTERNED_BOC_MAX_CELLS) return decodeBocFast(bytes);
  return interner.parse(bytes);
}

/** Every root of a multi-root BoC the lite server sent (none for empty bytes). */
export function bocRoots(bytes: Buffer, what: string): Cell[] {
  if (bytes.length === 0) return [];
  const known = parsedBocs.get(bytes);
  if (known) return known;
  const roots = parseLiteAnswer(what, () => decodeBoc(bytes));
  parsedBocs.set(bytes, roots);
  return roots;
}

/** A proof BoC that may be absent (empty bytes). */
export function optionalBocRoot(bytes: Buffer, what: string): Cell | null {
  return bytes.length === 0 ? null : bocRoot(bytes, what);
}

/**
 * The cell a Merkle proof BoC proves (its only reference). Its level-0 hash is the hash of the
 * original cell, pruned branches and all.
 */
export function merkleProofContent(bytes: Buffer, what: string): Cell {
  const root = bocRoot(bytes, what);
  if (root.type !== CellType.MerkleProof) throw invalidLiteAnswer(what, 'not a Merkle proof');
  return root.refs[0];
}

/** A proven block's root: the proof's content must hash to the block's root hash. */
export function provenBlockRoot(bytes: Buffer, block: BlockRef, what: string): Cell {
  const root = merkleProofContent(bytes, what);
  if (!root.hash(0).equals(block.rootHash)) throw invalidLiteAnswer(what, 'proof does not match the block root hash');
  return root;
}

/** getBlockProof mode as tonlib sends it: target block given (bit 0), base block trusted (bit 12). */
const BLOCK_PROOF_MODE = 0x1001;

/** The links of a complete masterchain proof from `from` to `to` (liteServer.getBlockProof). */
export async function masterchainProofLinks(session: ChainSession, from: BlockRef, to: BlockRef): Promise<BlockLink[]> {
  const proof = await session.liteQuery({
    kind: 'liteServer.getBlockProof',
    mode: BLOCK_PROOF_MODE,
    knownBlock: tlBlockId(from),
    targetBlock: tlBlockId(to),
  });
  if (!proof.complete || !sameBlock(proof.from, from) || !sameBlock(proof.to, to)) {
    throw invalidLiteAnswer('partialBlockProof', 'the proof does not lead from the known block to the target block');
  }
  return proof.steps;
}
