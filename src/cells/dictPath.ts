import { Cell, Slice } from '@ton/core';
import { keyBit, keyBits, loadLabel } from './labels';

/** The cells a dictionary lookup touches, and the leaf value if the key is present. */
export interface DictPath {
  /** Edge cells from the root down to the leaf (or to the edge where the key diverges). */
  readonly cells: Cell[];
  /** The leaf's slice positioned after its label (aug extra, then value), or null if absent. */
  readonly value: Slice | null;
}

/** Looks `key` up in a `Hashmap n X` / `HashmapAug n X Y` whose root edge cell is `root`. */
export function dictLookupPath(root: Cell | null, keyLength: number, key: bigint): DictPath {
  if (!root) return { cells: [], value: null };
  const cells: Cell[] = [root];
  return walk(root.beginParse(), keyLength, key, cells);
}

/**
 * Same lookup for a dictionary stored inline (its root edge inside `slice`, e.g. the
 * transactions of an AccountBlock). The enclosing cell is not added to the path.
 */
export function dictLookupPathInline(slice: Slice, keyLength: number, key: bigint): DictPath {
  return walk(slice, keyLength, key, []);
}

function walk(slice: Slice, keyLength: number, key: bigint, cells: Cell[]): DictPath {
  let remaining = keyLength;
  let consumed = 0;
  for (;;) {
    const label = loadLabel(slice, remaining);
    if (label.value !== keyBits(key, keyLength, consumed, consumed + label.length)) {
      return { cells, value: null };
    }
    consumed += label.length;
    remaining -= label.length;
    if (remaining === 0) return { cells, value: slice };
    const left = slice.loadRef();
    const right = slice.loadRef();
    const next = keyBit(key, keyLength, consumed) ? right : left;
    if (next.isExotic) throw new Error('dictionary path leads into a pruned branch');
    consumed += 1;
    remaining -= 1;
    cells.push(next);
    slice = next.beginParse();
  }
}

/**
 * Calls `leaf` for every entry of a `Hashmap n X` / `HashmapAug n X Y`, in ascending key order,
 * with the slice after the leaf's label. `root` is the root edge cell, or a slice positioned at
 * an inline root edge.
 */
export function forEachDictLeaf(root: Cell | Slice | null, keyLength: number, leaf: (key: bigint, value: Slice) => void): void {
  if (!root) return;
  const walk = (slice: Slice, remaining: number, prefix: bigint): void => {
    const label = loadLabel(slice, remaining);
    const key = (prefix << BigInt(label.length)) | label.value;
    const rest = remaining - label.length;
    if (rest === 0) {
      leaf(key, slice);
      return;
    }
    const left = slice.loadRef();
    const right = slice.loadRef();
    walk(left.beginParse(), rest - 1, key << 1n);
    walk(right.beginParse(), rest - 1, (key << 1n) | 1n);
  };
  walk(root instanceof Cell ? root.beginParse() : root, keyLength, 0n);
}

/**
 * The entries of a `Hashmap n X` / `HashmapAug n X Y` with keys above `after` (every key when
 * null), in ascending order, lazily: a consumer that stops early never makes the walk go further.
 * For Merkle proofs: subtrees wholly at or below `after` are skipped unread (a proof may prune
 * them), while a subtree the walk has to enter and finds pruned throws, because the proof does
 * not show what it holds. `root` is the root edge cell, or a slice at an inline root edge.
 */
export function* dictEntriesAfter(
  root: Cell | Slice | null,
  keyLength: number,
  after: bigint | null,
): Generator<{ key: bigint; value: Slice }, void, undefined> {
  if (!root) return;
  const above = (prefix: bigint, rest: number): boolean => after === null || ((prefix + 1n) << BigInt(rest)) - 1n > after;
  function* visit(slice: Slice, remaining: number, prefix: bigint): Generator<{ key: bigint; value: Slice }, void, undefined> {
    const label = loadLabel(slice, remaining);
    const key = (prefix << BigInt(label.length)) | label.value;
    const rest = remaining - label.length;
    if (!above(key, rest)) return;
    if (rest === 0) {
      yield { key, value: slice };
      return;
    }
    const children = [slice.loadRef(), slice.loadRef()];
    for (const [bit, child] of children.entries()) {
      const childPrefix = (key << 1n) | BigInt(bit);
      if (!above(childPrefix, rest - 1)) continue;
      if (child.isExotic) throw new Error('the proof prunes a part of the dictionary the walk needs');
      yield* visit(child.beginParse(), rest - 1, childPrefix);
    }
  }
  if (root instanceof Cell && root.isExotic) throw new Error('the proof prunes a part of the dictionary the walk needs');
  yield* visit(root instanceof Cell ? root.beginParse() : root, keyLength, 0n);
}
