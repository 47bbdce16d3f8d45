import type { LiteClient } from 'ton-lite-client';
import type { BlockID } from 'ton-lite-client/dist/types';

/** Block-id resolution shared by handlers: what toncenter does before most state queries. */

export const MASTERCHAIN = -1;
/** The full shard, `0x8000000000000000`, as the signed decimal lite clients use. */
export const FULL_SHARD = '-9223372036854775808';

/** The masterchain block with this seqno (lite server: lookupBlock). */
export async function masterchainBlock(client: LiteClient, seqno: number): Promise<BlockID> {
  const header = await client.lookupBlockByID({ workchain: MASTERCHAIN, shard: FULL_SHARD, seqno });
  return header.id;
}

/** The block a state query runs at: the given masterchain seqno, or the current head. */
export async function masterchainBlockAt(client: LiteClient, seqno: number | undefined): Promise<BlockID> {
  if (seqno !== undefined) return masterchainBlock(client, seqno);
  return (await client.getMasterchainInfo()).last;
}

export interface BlockSelector {
  workchain: number;
  shard: bigint;
  seqno: number;
  root_hash?: Buffer | undefined;
  file_hash?: Buffer | undefined;
}

/** toncenter uses the given hashes only when both are there; otherwise it looks the block up. */
export async function resolveBlock(client: LiteClient, block: BlockSelector): Promise<BlockID> {
  const shard = BigInt.asIntN(64, block.shard).toString();
  if (block.root_hash && block.file_hash) {
    return { workchain: block.workchain, shard, seqno: block.seqno, rootHash: block.root_hash, fileHash: block.file_hash };
  }
  const header = await client.lookupBlockByID({ workchain: block.workchain, shard, seqno: block.seqno });
  return header.id;
}
