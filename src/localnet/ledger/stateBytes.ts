/**
 * Old states derived from their blocks' bytes instead of held as cells.
 *
 * Every sealed block keeps the state it produced. States share each unchanged cell with the next
 * one, but what a state holds of its own (the paths from its root to the accounts its block
 * changed: the accounts dictionary's upper levels change in every block) stays in memory as long
 * as the block is kept. On a chain that keeps every block and has ~100 000 accounts (the index
 * bench's 120 843-transaction chain) those paths were most of the chain thread's ~2 GB heap as
 * @ton/core cells, and every full collection of that thread walked them while the chain sealed
 * nothing (docs/benchmarks.md, "The index").
 *
 * A block's BoC (kept as bytes once old, blockBytes.ts) already carries its `state_update`, the
 * Merkle update from the state before it to its own: so an old block's state is the previous
 * block's state with that update applied (applyMerkleUpdate), and needs no bytes of its own. A
 * block turning cold keeps its state as cells only every STATE_CHECKPOINT seqnos (and when it has
 * no previous block to derive it from: the first of its chain, or the first after a retention
 * gap); the others keep a reference to their previous block and rebuild their state when a query
 * reads it, from the nearest state held or recently rebuilt, into a small bounded cache. A rebuilt
 * state is the same cells by hash (checked against the update's new hash at each step).
 *
 * The cost moves to the queries of old states (getAccountState, runSmcMethod, getShardInfo,
 * config, proofs naming an old block): at most STATE_CHECKPOINT - 1 updates applied, each a decode
 * of the block's BoC (cached, blockBytes.ts) and a walk of its update; a client walking blocks in
 * order (an index catching up) applies one update a block.
 */
import { Cell } from '@ton/core';
import { applyMerkleUpdate } from '../../cells';
import { BlockId } from './ids';

/** What of a StoredBlock (store.ts, which imports this module) this module reads and replaces. */
interface BlockWithState {
  id: BlockId;
  root: Cell;
  state: Cell;
}

/**
 * A cold block whose seqno is a multiple of this keeps its state as cells. The states held are
 * then ~1/16 of the blocks' own cells; a state read from an old block applies at most 15 updates.
 */
export const STATE_CHECKPOINT = 16;

/**
 * What a block restored from a state file without its state (version 5, snapshot.ts) carries in
 * `state` until the store links it to its previous block (`deriveState`).
 */
export const STATE_NOT_SAVED: Cell = new Cell();

/** Derived blocks: the block whose state theirs is derived from (their previous block). */
const previous = new WeakMap<BlockWithState, BlockWithState>();

/**
 * States rebuilt recently, the most recently used last. A rebuilt state shares all but its
 * update's new cells with the state it was built from, so each costs about its block's changes.
 * One cache per thread, as blockBytes.ts's.
 */
const CACHE_STATES = 8;
const rebuilt = new Map<BlockWithState, Cell>();
let applied = 0;

/** How many updates were applied to rebuild states (tests see that old states are derived). */
export function stateRebuilds(): number {
  return applied;
}

/**
 * Called when `block` turns cold, with its previous block of the same chain (undefined for the
 * first block of a chain or after a gap): unless it is a checkpoint, its state becomes a read that
 * rebuilds it from `prev`'s, and the cells it held are left to the garbage collector. Idempotent.
 */
export function coolState(block: BlockWithState, prev: BlockWithState | undefined): void {
  if (!prev || previous.has(block) || block.id.seqno % STATE_CHECKPOINT === 0) return;
  deriveState(block, prev);
}

/** Makes `block`'s state a read derived from `prev`'s (whatever its seqno). */
export function deriveState(block: BlockWithState, prev: BlockWithState): void {
  previous.set(block, prev);
  Object.defineProperty(block, 'state', { get: () => stateOf(block), enumerable: true, configurable: true });
}

/** The block's state if it is held as cells; null when it is derived from the previous block's. */
export function heldState(block: BlockWithState): Cell | null {
  return previous.has(block) ? null : block.state;
}

/** Whether the block's state is derived (tests). */
export function isDerived(block: BlockWithState): boolean {
  return previous.has(block);
}

/**
 * Holds `block`'s state as cells again (a chain restored to an in-memory snapshot whose head had
 * turned cold meanwhile: the next seal builds on it).
 */
export function holdState(block: BlockWithState): void {
  if (!previous.has(block)) return;
  const state = block.state;
  previous.delete(block);
  rebuilt.delete(block);
  Object.defineProperty(block, 'state', { value: state, writable: true, enumerable: true, configurable: true });
}

function stateOf(block: BlockWithState): Cell {
  const hit = rebuilt.get(block);
  if (hit) {
    rebuilt.delete(block);
    rebuilt.set(block, hit);
    return hit;
  }
  // Back to the nearest state held or rebuilt, then forward one update at a time.
  const path: BlockWithState[] = [];
  let base: BlockWithState = block;
  let state: Cell | undefined;
  for (;;) {
    const prev = previous.get(base);
    if (!prev) {
      state = base.state;
      break;
    }
    state = rebuilt.get(base);
    if (state) break;
    path.push(base);
    base = prev;
  }
  for (let i = path.length - 1; i >= 0; i--) {
    // Block layout: `block#11ef55aa global_id info:^ value_flow:^ state_update:^ extra:^`.
    state = applyMerkleUpdate(state, path[i].root.refs[2]);
    applied++;
  }
  // Only the state asked for is kept: the steps to it would push out the states other queries
  // come back to (an account's state asked of the two shards of one old round, by a client
  // retrying, rebuilt each time from the checkpoint: seconds of the chain's thread each).
  rebuilt.set(block, state);
  while (rebuilt.size > CACHE_STATES) rebuilt.delete(rebuilt.keys().next().value as BlockWithState);
  return state;
}
