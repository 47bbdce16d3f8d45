import { FULL_SHARD_SIGNED, MASTERCHAIN } from '../constants';
import type { BlockHeaderInput, BlockIdExtInput, BlockLinkBackInput, ShardBlockProofInput } from '../converters';
import { loadBlockHeaderPart, shardIdentToShardId, loadShardHashesTopBlocks } from '../tlb';
import { ApiError } from '../errors';
import type { OutMsgQueueSizes, SignatureSet } from '../tl';
import {
  bocRoot,
  invalidLiteAnswer,
  masterchainProofLinks,
  optionalBocRoot,
  parseLiteAnswer,
  provenBlockRoot,
  sameBlock,
  tlBlockId,
  checkAllShardsProof,
  checkHeaderProof,
  proofFailure,
  type BlockRef,
  type ChainSession,
  type McBlock,
} from '../proofs';
import { masterchainBlock } from './blockRefs';

/** Reads about blocks themselves: headers, shard lists, signatures, proofs, queue sizes. */

/** getBlockHeader mode: with the header proof. */
const HEADER_WITH_PROOF = 1;

/** The header fields of `block`, taken from its proven header. */
export async function blockHeader(session: ChainSession, block: BlockRef): Promise<BlockHeaderInput> {
  const header = await session.liteQuery({ kind: 'liteServer.getBlockHeader', id: tlBlockId(block), mode: HEADER_WITH_PROOF }, (answer) => {
    if (!sameBlock(answer.id, block)) proofFailure('block header: the answer is about another block');
    checkHeaderProof(block, answer.headerProof, 'block header proof');
  });
  if (!sameBlock(header.id, block)) throw invalidLiteAnswer('blockHeader', 'answer is about another block');
  const root = provenBlockRoot(header.headerProof, block, 'blockHeader header proof');
  const part = parseLiteAnswer('blockHeader header proof', () => loadBlockHeaderPart(root));
  const { info } = part;
  if (
    info.seqno !== block.seqno ||
    info.shard.workchainId !== block.workchain ||
    shardIdentToShardId(info.shard) !== BigInt.asUintN(64, BigInt(block.shard))
  ) {
    throw invalidLiteAnswer('blockHeader header proof', 'BlockInfo describes another block');
  }
  return { id: block, ...part };
}

/** The top shard blocks listed by masterchain block `block`. */
export async function shardsAt(session: ChainSession, block: McBlock): Promise<BlockIdExtInput[]> {
  const answer = await session.liteQuery({ kind: 'liteServer.getAllShardsInfo', id: tlBlockId(block) }, (sent) => {
    if (!sameBlock(sent.id, block)) proofFailure('shards: the answer is about another block');
    checkAllShardsProof(block, sent.proof, sent.data);
  });
  if (!sameBlock(answer.id, block)) throw invalidLiteAnswer('allShardsInfo', 'answer is about another block');
  const data = bocRoot(answer.data, 'allShardsInfo data');
  return parseLiteAnswer('allShardsInfo data', () => loadShardHashesTopBlocks(data.beginParse()));
}

export interface BlockSignatures {
  block: McBlock;
  set: SignatureSet;
}

/**
 * The validators' signatures of masterchain block `seqno`. As tonlib: the proof from the previous
 * block to this one ends in a forward link carrying them; block 1's predecessor is the zerostate.
 */
export async function masterchainSignatures(session: ChainSession, seqno: number): Promise<BlockSignatures> {
  const zeroState = seqno === 1 ? (await session.head()).init : undefined;
  const previous: BlockRef = zeroState
    ? { workchain: zeroState.workchain, rootHash: zeroState.rootHash, fileHash: zeroState.fileHash, shard: FULL_SHARD_SIGNED, seqno: 0 }
    : await masterchainBlock(session, seqno - 1);
  const block = await masterchainBlock(session, seqno);
  const links = await masterchainProofLinks(session, previous, block);
  const last = links[links.length - 1];
  if (!last || last.kind !== 'liteServer.blockLinkForward' || !sameBlock(last.to, block)) {
    throw invalidLiteAnswer('partialBlockProof', 'the proof does not end in a signed link to the block');
  }
  if (last.signatures.signatures.length === 0) throw invalidLiteAnswer('partialBlockProof', 'the link to the block carries no signatures');
  return { block, set: last.signatures };
}

/** The proof linking shard block `block` to masterchain block `from` (tonlib's getShardBlockProof). */
export async function shardBlockProof(session: ChainSession, block: BlockRef, from: McBlock): Promise<ShardBlockProofInput> {
  const shardProof = await session.liteQuery({ kind: 'liteServer.getShardBlockProof', id: tlBlockId(block) });
  const mcId = shardProof.masterchainId;
  if (mcId.workchain !== MASTERCHAIN) throw invalidLiteAnswer('shardBlockProof', 'masterchain_id is not a masterchain block');
  // tonlib refuses chains of more than 8 shard links.
  if (shardProof.links.length > 8) throw invalidLiteAnswer('shardBlockProof', 'chain is too long');
  // tonlib's text: the shard block was registered after the block the proof should start from.
  if (mcId.seqno > from.seqno) throw new ApiError(500, 'from mc block is too old');
  const mcProof: BlockLinkBackInput[] = [];
  if (!sameBlock(mcId, from)) {
    const links = await masterchainProofLinks(session, from, mcId);
    if (links.length > 1)
      throw invalidLiteAnswer('partialBlockProof', 'not a one-link proof from the start block to the masterchain block');
    for (const step of links) {
      if (step.kind !== 'liteServer.blockLinkBack') throw invalidLiteAnswer('partialBlockProof', 'expected a backward link');
      mcProof.push({
        toKeyBlock: step.toKeyBlock,
        from: step.from,
        to: step.to,
        destProof: optionalBocRoot(step.destProof, 'blockLinkBack dest_proof'),
        proof: optionalBocRoot(step.proof, 'blockLinkBack proof'),
        stateProof: optionalBocRoot(step.stateProof, 'blockLinkBack state_proof'),
      });
    }
  }
  return { from, mcId, links: shardProof.links, mcProof };
}

/**
 * Out-message queue sizes of every shard (tonlib's blocks.getOutMsgQueueSizes, mode 0). The lite
 * function has no block parameter: the server answers at its own newest state.
 */
export function outMsgQueueSizes(session: ChainSession): Promise<OutMsgQueueSizes> {
  return session.liteQuery({ kind: 'liteServer.getOutMsgQueueSizes', mode: 0, wc: null, shard: null });
}
