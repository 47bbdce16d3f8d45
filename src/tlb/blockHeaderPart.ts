import { Cell, CellType, type ShardIdent } from '@ton/core';
import { loadBlockInfo, type BlockInfo } from './blockInfo';

/**
 * The header part of a block that getBlockHeader reports: `global_id` and `BlockInfo`, read with
 * the shared TL-B loaders of src/tlb (the same ones the local chain builds blocks with).
 */

const BLOCK_TAG = 0x11ef55aa;

/** The 64-bit shard id (prefix plus its terminating 1 bit), unsigned. */
export function shardIdentToShardId(shard: ShardIdent): bigint {
  return BigInt.asUintN(64, shard.shardPrefix | (1n << BigInt(63 - shard.shardPrefixBits)));
}

export interface BlockHeaderPart {
  globalId: number;
  info: BlockInfo;
}

/**
 * `global_id` and `BlockInfo` of a block root. Accepts the block root itself or a Merkle proof of it
 * (liteServer.blockHeader's header_proof), whose pruned branches are never touched here.
 */
export function loadBlockHeaderPart(root: Cell): BlockHeaderPart {
  const block = root.type === CellType.MerkleProof ? root.refs[0]! : root;
  const slice = block.beginParse();
  if (slice.loadUint(32) !== BLOCK_TAG) throw new Error('invalid Block tag');
  const globalId = slice.loadInt(32);
  const info = loadBlockInfo(slice.loadRef().beginParse());
  return { globalId, info };
}
