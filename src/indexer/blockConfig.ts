import { type Cell, CellType } from '@ton/core';
import { chainConfigAt, type ChainConfig } from '../chain';
import type { BlockRef, ChainSession } from '../proofs';
import { loadStateConfigRoot } from '../tlb';

/**
 * The config token detection runs get-methods with, read once per config rather than once per
 * masterchain block. A masterchain block's own `state_update` (verified with the block: its hashes
 * lead to the block's root hash) names the hash of the config dictionary in the state after it:
 * the dictionary's root cell in the update's new tree, a pruned branch when the block left the
 * config as it was. A config read (getConfigAll, proven against its block) whose dictionary has
 * that hash is that block's config too, so it is reused; a block whose config changed, or whose
 * update does not show it, has its own read.
 */

/** Configs kept by dictionary hash (a network changes its config rarely; a rollback may come back to an older one). */
const CONFIGS_KEPT = 4;

/** The hash of the config dictionary in the state after the masterchain block whose `state_update` this is; null when the update does not show it. */
export function configHashInUpdate(stateUpdate: Cell): Buffer | null {
  if (stateUpdate.type !== CellType.MerkleUpdate || stateUpdate.refs.length !== 2) return null;
  const next = stateUpdate.refs[1]!;
  if (next.isExotic) return null;
  try {
    // Level 0: the hash of the dictionary itself, also when its cell here is a pruned branch.
    return loadStateConfigRoot(next.beginParse()).hash(0);
  } catch {
    // McStateExtra pruned (not a masterchain state, or an update that did not change it).
    return null;
  }
}

/** Proven configs by their dictionary's hash. */
export class ConfigMemory {
  private readonly byHash = new Map<string, Promise<ChainConfig>>();
  /** Config reads made (getConfigAll), for tests and metrics. */
  reads = 0;

  /**
   * The config of masterchain block `block` (verified), whose state update is `stateUpdate`: the
   * one kept for the dictionary hash the update names, else read at `block` through `session`.
   */
  at(session: ChainSession, block: BlockRef, stateUpdate: Cell): Promise<ChainConfig> {
    const hash = configHashInUpdate(stateUpdate);
    if (!hash) return this.read(session, block);
    const key = hash.toString('hex');
    const known = this.byHash.get(key);
    if (known) {
      this.byHash.delete(key);
      this.byHash.set(key, known);
      return known;
    }
    const loading = this.read(session, block).then((config) => {
      // Both are proven against `block`; a mismatch would be a bug in reading one of them, and the
      // blocks waiting on this entry must not run on another block's config.
      if (!config.root.hash(0).equals(hash)) throw new Error(`the config read at masterchain block ${block.seqno} is not the one its state update names`);
      return config;
    });
    this.byHash.set(key, loading);
    loading.catch(() => {
      if (this.byHash.get(key) === loading) this.byHash.delete(key);
    });
    while (this.byHash.size > CONFIGS_KEPT) this.byHash.delete(this.byHash.keys().next().value!);
    return loading;
  }

  private read(session: ChainSession, block: BlockRef): Promise<ChainConfig> {
    this.reads++;
    return chainConfigAt(session, block);
  }
}
