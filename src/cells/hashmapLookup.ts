import type { Cell, Slice } from '@ton/core';
import { dictLookupPath } from './dictPath';

/**
 * The value slice stored under `key` in a (non-empty) `Hashmap keyBits X`, or null. Only the path
 * to the key is read (the one dictionary walker of src/cells), so a Merkle proof that
 * prunes every other branch is enough; a path into a pruned branch throws.
 */
export function hashmapLookup(root: Cell, keyBits: number, key: bigint): Slice | null {
  try {
    if (root.isExotic) throw new Error('pruned root');
    return dictLookupPath(root, keyBits, key).value;
  } catch {
    throw new Error('the proof does not contain this key');
  }
}
