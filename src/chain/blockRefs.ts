import { FULL_SHARD_SIGNED, MASTERCHAIN } from '../constants';
import { LiteServerProofError } from '../errors';
import type { BlockIdExt } from '../tl';
import {
  invalidLiteAnswer,
  sameBlock,
  tlBlockId,
  checkHeaderProof,
  proofFailure,
  type BlockRef,
  type ChainSession,
  type McBlock,
  checkShardBlockLinks,
} from '../proofs';

/** Which block a read is made at: what toncenter resolves before most state queries. */

/** lookupBlock mode bits: by seqno, by lt, by unix time. */
const BY_SEQNO = 1;
const BY_LT = 2;
const BY_UTIME = 4;

export interface ShardRef {
  workchain: number;
  /** Signed decimal int64. */
  shard: string;
}

function lookupId(ref: ShardRef, seqno: number) {
  return { kind: 'tonNode.blockId', workchain: ref.workchain, shard: ref.shard, seqno } as const;
}

function lookup(
  session: ChainSession,
  ref: ShardRef,
  mode: number,
  seqno: number,
  lt: bigint | null,
  utime: number | null,
): Promise<BlockIdExt> {
  return provenBlockId(session, () => lookupOnce(session, ref, mode, seqno, lt, utime));
}

async function lookupOnce(
  session: ChainSession,
  ref: ShardRef,
  mode: number,
  seqno: number,
  lt: bigint | null,
  utime: number | null,
): Promise<BlockIdExt> {
  const header = await session.liteQuery(
    {
      kind: 'liteServer.lookupBlock',
      mode,
      id: lookupId(ref, seqno),
      lt: lt === null ? null : lt.toString(),
      utime,
    },
    (answer) => checkLookup(ref, mode, seqno, lt, answer.id, answer.headerProof),
  );
  if (header.id.workchain !== ref.workchain) throw invalidLiteAnswer('lookupBlock', 'answer is about another workchain');
  return header.id;
}

/** One shard id inside the other (a lookup by an account's prefix finds the shard holding it). */
function overlaps(a: string, b: string): boolean {
  const x = BigInt.asUintN(64, BigInt(a));
  const y = BigInt.asUintN(64, BigInt(b));
  const lowX = x & -x;
  const lowY = y & -y;
  const wider = lowX > lowY ? lowX : lowY;
  const mask = ~(wider * 2n - 1n);
  return (x & mask) === (y & mask);
}

/**
 * A lookupBlock answer: its header proof is rooted in the block id it names, and the proven
 * BlockInfo is what was asked for (that workchain and shard; that seqno, or a block that ends
 * at or after the lt). The ids of masterchain blocks are tied to the verified head elsewhere.
 */
function checkLookup(ref: ShardRef, mode: number, seqno: number, lt: bigint | null, id: BlockIdExt, headerProof: Buffer): void {
  const what = 'lookupBlock';
  if (id.workchain !== ref.workchain || !overlaps(id.shard, ref.shard)) proofFailure(`${what}: the block is of another shard`);
  const { info } = checkHeaderProof(id, headerProof, `${what} header proof`);
  if (mode === BY_SEQNO && info.seqno !== seqno) proofFailure(`${what}: the proven block has another seqno`);
  if (mode === BY_LT && lt !== null && info.endLt < lt) proofFailure(`${what}: the proven block ends before the lt`);
}

/** The block of shard `ref` with this seqno. */
export function blockBySeqno(session: ChainSession, ref: ShardRef, seqno: number): Promise<BlockIdExt> {
  return lookup(session, ref, BY_SEQNO, seqno, null, null);
}

/** The block of shard `ref` holding logical time `lt`. */
export function blockByLt(session: ChainSession, ref: ShardRef, lt: bigint): Promise<BlockIdExt> {
  return lookup(session, ref, BY_LT, 0, lt, null);
}

/** The block of shard `ref` generated at (or first after) `utime`. */
export function blockByUtime(session: ChainSession, ref: ShardRef, utime: number): Promise<BlockIdExt> {
  return lookup(session, ref, BY_UTIME, 0, null, utime);
}

/** The masterchain block with this seqno, proven (McBlock: see session.ts). */
export async function masterchainBlock(session: ChainSession, seqno: number): Promise<McBlock> {
  const known = session.knownMasterchainBlock?.(seqno);
  if (known) return known;
  const named = await blockBySeqno(session, { workchain: MASTERCHAIN, shard: FULL_SHARD_SIGNED }, seqno);
  const block = session.proveMasterchainBlock ? await session.proveMasterchainBlock(named) : named;
  session.noteMasterchainBlock?.(block);
  return block;
}

/** The block a state read is made at: the given masterchain seqno, or the request's head. */
export async function masterchainBlockAt(session: ChainSession, seqno: number | undefined): Promise<McBlock> {
  if (seqno !== undefined) return masterchainBlock(session, seqno);
  return (await session.head()).last;
}

export interface BlockSelector {
  workchain: number;
  shard: bigint;
  seqno: number;
  root_hash?: Buffer | undefined;
  file_hash?: Buffer | undefined;
}

/** toncenter uses the given hashes only when both are there; otherwise it looks the block up. */
export async function resolveBlock(session: ChainSession, block: BlockSelector): Promise<BlockIdExt> {
  const shard = BigInt.asIntN(64, block.shard).toString();
  if (block.root_hash && block.file_hash) {
    const given: BlockIdExt = {
      kind: 'tonNode.blockIdExt',
      workchain: block.workchain,
      shard,
      seqno: block.seqno,
      rootHash: block.root_hash,
      fileHash: block.file_hash,
    };
    // The caller's hashes are not a proof: a shard block must be registered in the verified chain.
    return provenBlockId(session, async () => given);
  }
  return blockBySeqno(session, { workchain: block.workchain, shard }, block.seqno);
}

/** Proves that shard block `block` is registered by a verified masterchain block; masterchain blocks pass as they are. */
export async function proveShardBlock(session: ChainSession, block: BlockRef): Promise<void> {
  if (block.workchain === MASTERCHAIN || session.checksAnswers === false) return;
  // Checked here rather than as the query's check: when the lie is the block id an earlier
  // answer gave, asking another server for this proof cannot help; the caller reads again.
  const answer = await session.liteQuery({ kind: 'liteServer.getShardBlockProof', id: tlBlockId(block) });
  checkShardBlockLinks(block, answer);
  const verified = await masterchainBlock(session, answer.masterchainId.seqno);
  if (!sameBlock(verified, answer.masterchainId))
    proofFailure('shard block proof: linked to a masterchain block that is not the verified one');
}

/**
 * A shard block id from `fetchId` (a lookup, or the caller's hashes), proven registered. When the
 * proof fails (a lie across answers: the id and its links), the server is taken out and the id
 * fetched and proven once more on another server. `fetchId`'s own proof errors pass as they are.
 */
export async function provenBlockId(session: ChainSession, fetchId: () => Promise<BlockIdExt>): Promise<BlockIdExt> {
  for (let attempt = 0; ; attempt++) {
    const id = await fetchId();
    try {
      await proveShardBlock(session, id);
      return id;
    } catch (err) {
      if (attempt > 0 || !(err instanceof LiteServerProofError) || !session.distrust?.(err)) throw err;
    }
  }
}
