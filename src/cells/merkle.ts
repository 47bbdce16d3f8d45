import { beginCell, Cell, convertToMerkleProof } from '@ton/core';
import { leanBitString, leanCellOf, leanPrunedCell, PRUNED_DATA_BYTES, writePrunedData } from './leanCell';

/**
 * A pruned branch (exotic type 1) standing for a level-0 `cell` inside a depth-1 Merkle proof.
 * Built as the byte-level decoder builds one (leanCell.ts: the same hashes, depths, bits and
 * parses as @ton/core's), not through a Builder and @ton/core's exotic constructor, which parses
 * it back into BigInts and level masks: a block's state update holds one per untouched sibling of
 * every changed path, and at 50 transfers a second that constructor was ~5 % of the local chain's
 * thread (its `wonderCalculator`, --cpu-prof of the live bench).
 */
export function prunedBranch(cell: Cell): Cell {
  if (cell.level() !== 0) {
    throw new Error('only level-0 cells can be pruned at Merkle depth 1');
  }
  // One buffer: the branch's data, then the slot its own (level-1) hash is written to.
  const data = Buffer.allocUnsafe(PRUNED_DATA_BYTES + 32);
  writePrunedData(cell, data);
  return leanPrunedCell(data, 0, leanBitString(data, 0, PRUNED_DATA_BYTES * 8), 0, data, PRUNED_DATA_BYTES)!;
}

/** Which cells of a tree a proof reveals. */
export interface KeepSet {
  /** Cells whose own data is revealed; their children are revealed or pruned in turn. */
  readonly open: ReadonlySet<Cell>;
  /** Cells revealed together with their whole subtree. */
  readonly full?: ReadonlySet<Cell>;
}

/**
 * Copies `root` keeping the cells named in `keep` and replacing every other child by a pruned
 * branch. Cells of level > 0 (for instance the pruned children of a block's state update) are
 * already minimal and are copied verbatim. The copy's level-0 hash equals `root.hash()`.
 * `pruned`: pruned branches already made, by the cell they stand for (shared by the two trees of
 * a Merkle update, where every subtree both states share is pruned in both).
 */
export function pruneTree(root: Cell, keep: KeepSet, pruned: Map<Cell, Cell> = new Map()): Cell {
  const memo = new Map<Cell, Cell>();
  const visit = (cell: Cell): Cell => {
    if (keep.full?.has(cell)) return cell;
    if (!keep.open.has(cell)) {
      if (cell.level() > 0) return cell;
      let branch = pruned.get(cell);
      if (!branch) {
        branch = prunedBranch(cell);
        pruned.set(cell, branch);
      }
      return branch;
    }
    const cached = memo.get(cell);
    if (cached) return cached;
    const own = cell.refs;
    const refs = own.map(visit);
    const same = refs.every((r, i) => r === own[i]);
    const copy = same ? cell : cell.isExotic ? new Cell({ exotic: true, bits: cell.bits, refs }) : leanCellOf(cell.bits, refs);
    memo.set(cell, copy);
    return copy;
  };
  if (!keep.open.has(root) && !keep.full?.has(root)) {
    throw new Error('the root of a Merkle proof must be kept');
  }
  return visit(root);
}

/** `!merkle_proof#03 virtual_hash depth virtual_root:^X` over the pruned copy of `root`. */
export function merkleProof(root: Cell, keep: KeepSet): Cell {
  return convertToMerkleProof(pruneTree(root, keep));
}

/**
 * `!merkle_update#04` from `oldRoot` to `newRoot` whose two children are pruned branches. It
 * carries no diff; it binds a block to the hashes of the states before and after it, which is
 * all lite-server proofs use (the local chain's blocks carry `merkleUpdate`'s, with the diff).
 */
export function merkleUpdateStub(oldRoot: Cell, newRoot: Cell): Cell {
  return merkleUpdateCell(oldRoot, newRoot, prunedBranch(oldRoot), prunedBranch(newRoot));
}

/** `!merkle_update#04 old_hash new_hash old_depth new_depth old:^X new:^X` over the two states' (pruned) copies. */
export function merkleUpdateCell(oldRoot: Cell, newRoot: Cell, oldPart: Cell, newPart: Cell): Cell {
  return beginCell()
    .storeUint(4, 8)
    .storeBuffer(oldRoot.hash(0))
    .storeBuffer(newRoot.hash(0))
    .storeUint(oldRoot.depth(0), 16)
    .storeUint(newRoot.depth(0), 16)
    .storeRef(oldPart)
    .storeRef(newPart)
    .endCell({ exotic: true });
}

/**
 * A real `!merkle_update#04` from `oldRoot` to `newRoot` (TON's MerkleUpdate::generate): the old
 * tree reveals the cells the block removed, the new tree the cells it added, and every subtree
 * both states share is a pruned branch in both. A reader of the block gets, from the block alone,
 * every account the block changed (its ShardAccount in the new tree), proven by the block's hash.
 *
 * The shared subtrees are found by depth: equal cells have equal depths, and every cell of depth
 * d in either tree hangs under cells deeper than d, so after the deeper levels are settled, a
 * depth-d cell is shared exactly when its hash is among the other tree's open depth-d cells.
 * Only the changed cells and their children are visited (the states share unchanged cells).
 * Both roots are always revealed (an update of a state to itself is two bare roots).
 */
export function merkleUpdate(oldRoot: Cell, newRoot: Cell): Cell {
  if (oldRoot.level() !== 0 || newRoot.level() !== 0) throw new Error('a Merkle update is made of level-0 states');
  const oldOpen = new Set<Cell>([oldRoot]);
  const newOpen = new Set<Cell>([newRoot]);
  // Cells still to settle by depth, per tree, keyed by hash (a shared child is settled once).
  const pending = new Map<number, { old: Map<string, Cell>; new: Map<string, Cell> }>();
  const at = (depth: number) => {
    let level = pending.get(depth);
    if (!level) pending.set(depth, (level = { old: new Map(), new: new Map() }));
    return level;
  };
  const push = (cell: Cell, side: 'old' | 'new') => at(cell.depth(0))[side].set(cell.hash(0).toString('latin1'), cell);
  for (const child of oldRoot.refs) push(child, 'old');
  for (const child of newRoot.refs) push(child, 'new');
  let depth = Math.max(oldRoot.depth(0), newRoot.depth(0));
  for (; depth >= 0; depth--) {
    const level = pending.get(depth);
    if (!level) continue;
    pending.delete(depth);
    for (const [hash, cell] of level.old) {
      if (level.new.has(hash)) continue;
      oldOpen.add(cell);
      for (const child of cell.refs) push(child, 'old');
    }
    for (const [hash, cell] of level.new) {
      if (level.old.has(hash)) continue;
      newOpen.add(cell);
      for (const child of cell.refs) push(child, 'new');
    }
  }
  // A subtree both states share is pruned in both trees: one pruned cell for the two (each is
  // built and hashed by @ton/core; at 50 transfers a second these were a seal's largest garbage).
  const pruned = new Map<Cell, Cell>();
  return merkleUpdateCell(oldRoot, newRoot, pruneTree(oldRoot, { open: oldOpen }, pruned), pruneTree(newRoot, { open: newOpen }, pruned));
}

/** The content of a Merkle proof cell (its single reference) after checking the exotic type. */
export function merkleProofContent(proof: Cell): Cell {
  if (!proof.isExotic || proof.bits.length < 8 || proof.beginParse(true).preloadUint(8) !== 3) {
    throw new Error('not a Merkle proof cell');
  }
  return proof.refs[0];
}

/** Adds every cell of the subtree under `cell` that is not exotic to `into`. */
export function collectSubtree(cell: Cell, into: Set<Cell>): void {
  const stack = [cell];
  while (stack.length > 0) {
    const c = stack.pop() as Cell;
    if (into.has(c)) continue;
    into.add(c);
    for (const r of c.refs) stack.push(r);
  }
}
