import { Cell } from '@ton/core';
import { BlockIdExtInput, toBlockIdExt, TonBlockIdExtJson } from './blockId';
import { serializeBocRoots } from '../cells';

/** getShardBlockProof: `blocks.shardBlockProof` (keys in tonlib's order). */

export interface ShardBlockLinkJson {
  '@type': 'blocks.shardBlockLink';
  id: TonBlockIdExtJson;
  proof: string;
}

export interface BlockLinkBackJson {
  '@type': 'blocks.blockLinkBack';
  to_key_block: boolean;
  from: TonBlockIdExtJson;
  to: TonBlockIdExtJson;
  dest_proof: string;
  proof: string;
  state_proof: string;
}

export interface ShardBlockProofJson {
  '@type': 'blocks.shardBlockProof';
  from: TonBlockIdExtJson;
  mc_id: TonBlockIdExtJson;
  links: ShardBlockLinkJson[];
  mc_proof: BlockLinkBackJson[];
}

/** One link from liteServer.shardBlockProof: tonlib passes its proof bytes through unchanged. */
export interface ShardBlockLinkInput {
  id: BlockIdExtInput;
  proof: Buffer;
}

/**
 * A backward link of liteServer.partialBlockProof. tonlib parses its three proofs and serialises them
 * again without CRC32C, so they are cells here (null for an absent one, printed as "").
 */
export interface BlockLinkBackInput {
  toKeyBlock: boolean;
  from: BlockIdExtInput;
  to: BlockIdExtInput;
  destProof: Cell | null;
  proof: Cell | null;
  stateProof: Cell | null;
}

export interface ShardBlockProofInput {
  /** The masterchain block the proof starts from (from_seqno, or the latest block). */
  from: BlockIdExtInput;
  /** The masterchain block that registered the shard block (the block itself for a masterchain block). */
  mcId: BlockIdExtInput;
  links: ShardBlockLinkInput[];
  mcProof: BlockLinkBackInput[];
}

function proofBase64(cell: Cell | null): string {
  return cell ? serializeBocRoots([cell], { crc32c: false }).toString('base64') : '';
}

export function toShardBlockLink(link: ShardBlockLinkInput): ShardBlockLinkJson {
  return { '@type': 'blocks.shardBlockLink', id: toBlockIdExt(link.id), proof: link.proof.toString('base64') };
}

export function toBlockLinkBack(link: BlockLinkBackInput): BlockLinkBackJson {
  return {
    '@type': 'blocks.blockLinkBack',
    to_key_block: link.toKeyBlock,
    from: toBlockIdExt(link.from),
    to: toBlockIdExt(link.to),
    dest_proof: proofBase64(link.destProof),
    proof: proofBase64(link.proof),
    state_proof: proofBase64(link.stateProof),
  };
}

export function toShardBlockProof(input: ShardBlockProofInput): ShardBlockProofJson {
  return {
    '@type': 'blocks.shardBlockProof',
    from: toBlockIdExt(input.from),
    mc_id: toBlockIdExt(input.mcId),
    links: input.links.map(toShardBlockLink),
    mc_proof: input.mcProof.map(toBlockLinkBack),
  };
}
