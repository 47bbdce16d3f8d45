import type { Cell } from '@ton/core';
import { LRUCache } from 'lru-cache';
import type { McBlock } from './chainSession';

/**
 * The masterchain part of a basechain account read is per block, not per account: getAccountState's
 * `shard_proof` proves, from a masterchain block's root hash, the path to one shard's ShardDescr,
 * and the lite server sends the same bytes for every account of that shard at that block. Checking
 * it means decoding and hashing ~20 cells (a few hundred µs), so the state it proves is kept here
 * for the newest masterchain blocks, under the exact proof bytes it was proven from: a later
 * answer at the same block with the same bytes has the same proven content, and its read only
 * walks the shard tree to its own shard (checkShardProof). Different bytes, a block not kept, or
 * a proof that failed (never kept) are proven in full. Nothing is taken on trust: the key is the
 * verified block and every byte of the proof.
 */

/** Masterchain blocks kept (a new block every few seconds; reads are at the newest). */
const BLOCKS = 4;
/** Distinct proofs kept per block: one per shard (mainnet has 16-64 basechain shards at most). */
const PROOFS_PER_BLOCK = 64;

interface Entry {
  readonly bytes: Buffer;
  readonly state: Cell;
}

/** The proven masterchain state cells by masterchain root hash (hex), the least recently read block dropped first. */
const byBlock = new LRUCache<string, Entry[]>({ max: BLOCKS });

function keyOf(mc: McBlock): string {
  return mc.rootHash.toString('hex');
}

/** The state `prove` proved before from these very bytes at `mc`, else proves it now (and keeps it). */
export function provenMasterchainState(mc: McBlock, shardProof: Buffer, prove: () => Cell): Cell {
  const key = keyOf(mc);
  const entries = byBlock.get(key);
  const known = entries?.find((entry) => entry.bytes.equals(shardProof));
  if (known) return known.state;
  const state = prove();
  remember(key, entries, { bytes: Buffer.from(shardProof), state });
  return state;
}

function remember(key: string, entries: Entry[] | undefined, entry: Entry): void {
  if (!entries) byBlock.set(key, [entry]);
  else if (entries.length < PROOFS_PER_BLOCK) entries.push(entry);
}

/** Forgets every proof (tests). */
export function clearShardProofCache(): void {
  byBlock.clear();
}
