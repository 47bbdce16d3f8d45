import { Cell, CellType } from '@ton/core';
import {
  loadBlockHeaderPart,
  shardIdentToShardId,
  type BlockHeaderPart,
  loadShardDescrHead,
  type ShardDescrHead,
  loadMcBlockExtraHead,
  loadMcStateExtraCells,
  loadShardStateHeader,
  loadTransactionHead,
  type ShardStateHeader,
} from '../tlb';
import { LiteServerProofError } from '../errors';
import { dictLookupPath } from '../cells';
import { bocRoots, sameBlock } from './answers';
import type { BlockRef, McBlock } from './chainSession';
import { provenMasterchainState } from './shardProofCache';

/**
 * The proof primitives every answer check is built from, as tonlib's block/check-proof.cpp does
 * them: a Merkle proof's content must hash to a hash we already trust (a verified block's root
 * hash, the state hash a proven block names), and only paths the proof keeps are read. Every
 * failure is a LiteServerProofError: the server sent something that does not hold.
 */

/** Runs a check; whatever it throws (a parser's complaint included) becomes a proof error naming `what`. */
export function proving<T>(what: string, check: () => T): T {
  try {
    return check();
  } catch (err) {
    if (err instanceof LiteServerProofError) throw err;
    throw new LiteServerProofError(`${what}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

export function proofFailure(what: string): never {
  throw new LiteServerProofError(what);
}

/** The contents of the Merkle proofs of a multi-root BoC (`count` of them). */
export function merkleProofContents(bytes: Buffer, count: number, what: string): Cell[] {
  const roots = proving(what, () => bocRoots(bytes, what));
  if (roots.length !== count) proofFailure(`${what}: expected ${count} Merkle proofs, got ${roots.length}`);
  return roots.map((root) => {
    if (root.type !== CellType.MerkleProof) proofFailure(`${what}: not a Merkle proof`);
    return root.refs[0];
  });
}

/** The block `block` itself out of a proof: the content must hash to the block's root hash. */
export function provenBlock(content: Cell, block: BlockRef, what: string): Cell {
  if (!content.hash(0).equals(block.rootHash)) proofFailure(`${what}: the proof is not of block ${block.seqno} (root hash differs)`);
  return content;
}

/** MERKLE_UPDATE cell data: tag, old_hash, new_hash. */
const MERKLE_UPDATE_NEW_HASH_OFFSET = 8 + 256;

/** The hash of the state after a proven block: its `state_update`'s new hash. */
export function blockStateHash(blockRoot: Cell, what: string): Buffer {
  const stateUpdate = blockRoot.refs[2];
  if (!stateUpdate || stateUpdate.type !== CellType.MerkleUpdate) proofFailure(`${what}: the block proof lacks the state update`);
  return stateUpdate.bits.subbuffer(MERKLE_UPDATE_NEW_HASH_OFFSET, 256)!;
}

/**
 * A block's state from a block proof and a state proof (tonlib's check_state_proof): the block
 * proof is rooted in the block's hash, the state proof in the state hash the block names.
 */
export function provenState(
  blockContent: Cell,
  stateContent: Cell,
  block: BlockRef,
  what: string,
): { state: Cell; header: ShardStateHeader } {
  const root = provenBlock(blockContent, block, what);
  if (!stateContent.hash(0).equals(blockStateHash(root, what))) proofFailure(`${what}: the state proof is not of the block's state`);
  const header = proving(what, () => loadShardStateHeader(stateContent.beginParse(true)));
  return { state: stateContent, header };
}

/** A dictionary value out of a proof; null when the proof shows the key is absent. */
export function provenDictValue(root: Cell | null, keyBits: number, key: bigint, what: string) {
  return proving(what, () => {
    if (root?.isExotic) throw new Error('the dictionary is pruned');
    return dictLookupPath(root, keyBits, key).value;
  });
}

const MAX_SHARD_DEPTH = 60;
/** Unsigned 64-bit. */
const U64 = (value: bigint): bigint => BigInt.asUintN(64, value);

/**
 * The ShardDescr a masterchain state holds for the shard containing `accountPrefix` of
 * `workchain`, walking McStateExtra -> shard_hashes -> BinTree; null when the state proves the
 * workchain has no shards. Returns the leaf's shard id too.
 */
export function shardDescrInState(
  mcState: Cell,
  workchain: number,
  accountPrefix: bigint,
  what: string,
): { shard: bigint; descr: ShardDescrHead } | null {
  return proving(what, () => {
    // A pruned McStateExtra fails to parse here (an exotic cell), which is a proof failure too.
    const extra = loadMcStateExtraCells(mcState.beginParse(true));
    if (!extra) throw new Error('the masterchain state has no McStateExtra');
    const value = provenDictValue(extra.shardHashes, 32, BigInt.asUintN(32, BigInt(workchain)), what);
    if (!value) return null;
    return shardLeaf(value.loadRef(), accountPrefix);
  });
}

/** The leaf of a shard tree (`BinTree ShardDescr`) holding `accountPrefix`, and its shard id. */
export function shardLeaf(tree: Cell, accountPrefix: bigint): { shard: bigint; descr: ShardDescrHead } {
  let cell = tree;
  for (let depth = 0; ; depth++) {
    if (depth > MAX_SHARD_DEPTH) throw new Error('shard tree is too deep');
    if (cell.isExotic) throw new Error('the shard tree is pruned');
    const node = cell.beginParse();
    if (!node.loadBit()) {
      const mask = (1n << BigInt(63 - depth)) - 1n;
      const shard = U64((accountPrefix & ~mask & ~(1n << BigInt(63 - depth))) | (1n << BigInt(63 - depth)));
      return { shard, descr: loadShardDescrHead(node) };
    }
    const left = node.loadRef();
    const right = node.loadRef();
    cell = (accountPrefix >> BigInt(63 - depth)) & 1n ? right : left;
  }
}

/**
 * tonlib's check_shard_proof: `shardProof` (masterchain block proof + masterchain state proof)
 * shows that verified block `mc` lists `shardBlock` as the top block of the shard holding
 * `accountPrefix`. Returns false when it proves the workchain has no shard at all.
 */
export function checkShardProof(mc: McBlock, shardBlock: BlockRef, workchain: number, accountPrefix: bigint, shardProof: Buffer): boolean {
  const what = 'shard proof';
  // The same bytes for every account of the shard at `mc`: proven once (src/chain/shardProofCache.ts).
  const state = provenMasterchainState(mc, shardProof, () => {
    const [blockContent, stateContent] = merkleProofContents(shardProof, 2, what);
    return provenState(blockContent, stateContent, mc, what).state;
  });
  const found = shardDescrInState(state, workchain, U64(accountPrefix), what);
  if (!found) return false;
  const { shard, descr } = found;
  const listed: BlockRef = {
    workchain,
    shard: BigInt.asIntN(64, shard).toString(),
    seqno: descr.seqno,
    rootHash: descr.rootHash,
    fileHash: descr.fileHash,
  };
  if (!sameBlock(listed, shardBlock))
    proofFailure(`${what}: the masterchain block does not list shard block ${shardBlock.workchain}:${shardBlock.seqno}`);
  return true;
}

/**
 * tonlib's TransactionList check: the transactions of one getTransactions page are the account's
 * history from `from` back, each one's hash being the hash asked for (first) or the previous
 * one's `prev_trans_hash`, with the lts that link names. A transaction's hash covers all of it,
 * so nothing in a linked transaction can be changed.
 */
export function checkTransactionChain(
  account: Buffer,
  from: { lt: bigint; hash: Buffer },
  count: number,
  idCount: number,
  boc: Buffer,
): void {
  const what = 'transaction list';
  const roots = proving(what, () => bocRoots(boc, what));
  if (roots.length > count) proofFailure(`${what}: more transactions than asked for`);
  if (idCount !== roots.length) proofFailure(`${what}: ${idCount} block ids for ${roots.length} transactions`);
  let expected: { lt: bigint; hash: Buffer } | null = from;
  for (const [index, root] of roots.entries()) {
    if (!expected) proofFailure(`${what}: a transaction before the account's first one`);
    if (!root.hash().equals(expected.hash))
      proofFailure(
        `${what}: transaction ${index} is not the one ${index === 0 ? 'asked for' : 'the previous one links to'} (hash differs)`,
      );
    const head = proving(what, () => loadTransactionHead(root.beginParse()));
    if (head.lt !== expected.lt) proofFailure(`${what}: transaction ${index} has lt ${head.lt}, the link names ${expected.lt}`);
    if (!head.accountAddr.equals(account)) proofFailure(`${what}: transaction ${index} is of another account`);
    if (head.prevTransLt >= head.lt) proofFailure(`${what}: transaction ${index} links to a later one`);
    expected = head.prevTransLt === 0n ? null : { lt: head.prevTransLt, hash: head.prevTransHash };
  }
}

/**
 * A header proof (liteServer.blockHeader): rooted in block `id`'s root hash, and its BlockInfo
 * names that very block (workchain, shard, seqno). Returns the proven header.
 */
export function checkHeaderProof(id: BlockRef, headerProof: Buffer, what: string): BlockHeaderPart {
  const [content] = merkleProofContents(headerProof, 1, what);
  const part = proving(what, () => loadBlockHeaderPart(provenBlock(content, id, what)));
  const { info } = part;
  if (info.seqno !== id.seqno || info.shard.workchainId !== id.workchain || shardIdentToShardId(info.shard) !== U64(BigInt(id.shard)))
    proofFailure(`${what}: the proven BlockInfo describes another block`);
  return part;
}

/**
 * The `shard_hashes` of a proven masterchain block's root (Block -> extra -> McBlockExtra), which
 * its proof must keep.
 */
export function provenShardHashes(root: Cell): Cell | null {
  const extra = root.refs[3];
  const mcExtra = extra && !extra.isExotic ? extra.refs[3] : undefined;
  if (!mcExtra || mcExtra.isExotic) throw new Error('the proof prunes McBlockExtra');
  return loadMcBlockExtraHead(mcExtra.beginParse()).shardHashes.root;
}

/**
 * A getAllShardsInfo answer: `data` (a cell holding ShardHashes as a HashmapE) is the
 * shard_hashes of masterchain block `mc`'s McBlockExtra, as its Merkle proof shows.
 */
export function checkAllShardsProof(mc: McBlock, proof: Buffer, data: Buffer): void {
  const what = 'shards proof';
  const [content] = merkleProofContents(proof, 1, what);
  const root = provenBlock(content, mc, what);
  proving(what, () => {
    const proven = provenShardHashes(root);
    const sent = bocRoots(data, what);
    if (sent.length !== 1) throw new Error('data is not one cell');
    const sentRoot = sent[0].beginParse().loadMaybeRef();
    if ((proven === null) !== (sentRoot === null) || (proven && sentRoot && !proven.hash(0).equals(sentRoot.hash())))
      throw new Error('the shard list is not the one the block holds');
  });
}
