/**
 * The retention window (`--keep-blocks`): after each round, masterchain blocks more than
 * `keepBlocks` behind the head are dropped with the shard blocks they registered, their states
 * and their transactions, and leave the masterchain state's `prev_blocks`. What a non-archival
 * TON node does once blocks pass its TTL: lite queries naming them answer 651 `block not found`.
 * Key-block rounds are never dropped (proof chains start from the zerostate and key blocks), and
 * the accounts themselves live in the current states, which are always kept.
 */
import { MasterchainHistory } from './history';
import { MASTERCHAIN } from './ids';
import { BlockStore } from './store';

/**
 * Default window: one round (a masterchain block and two shard blocks with their new state
 * cells) costs about 0.2 MB of memory as @ton/core cells (measured: ~85 new cells a round at
 * ~2.5 KB each with their closures and buffers), so 1 000 rounds keep the blocks under ~200 MB
 * however long the chain runs. Must match the `keep-blocks` default in src/config.
 */
export const DEFAULT_KEEP_BLOCKS = 1000;

/** Drops what fell out of the window after the masterchain reached its current height. 0 keeps everything. */
export function dropOutsideWindow(store: BlockStore, history: MasterchainHistory, keepBlocks: number): void {
  if (keepBlocks <= 0) return;
  const cutoff = store.height(MASTERCHAIN) - keepBlocks;
  if (cutoff < store.oldestKept(MASTERCHAIN)) return;
  history.forget(store.dropRoundsThrough(cutoff));
}
