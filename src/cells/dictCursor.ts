import type { Cell } from '@ton/core';
import { BitCursor, CursorError } from './bitCursor';
import { lengthFieldBits } from './labels';

/**
 * Dictionary walks with a BitCursor (./bitCursor.ts) instead of @ton/core's Slice: the same
 * entries as forEachDictLeaf and dictLookupPath (./dictPath.ts), without a Slice and its
 * BitReader per cell nor a bigint per label and key. On the index's thread these walks (the
 * accounts and transactions of every block, an account's path in every state update) cost
 * ~0.3 s of a 10 401-transaction ingest through Slice (--cpu-prof, 27 November).
 */

/** An HmLabel's length; its value's bits are skipped. */
function skipLabel(c: BitCursor, max: number): number {
  if (!c.bit()) {
    let length = 0;
    while (c.bit()) length++;
    if (length > max) throw new CursorError(`hml_short label longer than ${max}`);
    c.skip(length);
    return length;
  }
  const k = lengthFieldBits(max);
  const same = c.bit();
  if (same) c.skip(1);
  const length = k > 0 ? c.uint(k) : 0;
  if (length > max) throw new CursorError(`hml label longer than ${max}`);
  if (!same) c.skip(length);
  return length;
}

/** Bit `index` of `key` (most significant first). */
function keyBit(key: Buffer, index: number): number {
  return (key[index >> 3]! >> (7 - (index & 7))) & 1;
}

/** Bits [from, from + bits) of `key` as an unsigned number (bits <= 32). */
function keyBits(key: Buffer, from: number, bits: number): number {
  let value = 0;
  for (let i = 0; i < bits; i++) value = value * 2 + keyBit(key, from + i);
  return value;
}

/** An HmLabel's length when its bits are `key`'s from bit `from`, else -1 (the rest of the label unread). */
function matchLabel(c: BitCursor, max: number, key: Buffer, from: number): number {
  let length: number;
  if (!c.bit()) {
    length = 0;
    while (c.bit()) length++;
    if (length > max) throw new CursorError(`hml_short label longer than ${max}`);
  } else {
    const k = lengthFieldBits(max);
    if (c.bit()) {
      const bit = c.bit() ? 1 : 0;
      length = k > 0 ? c.uint(k) : 0;
      if (length > max) throw new CursorError(`hml_same label longer than ${max}`);
      for (let i = 0; i < length; i++) if (keyBit(key, from + i) !== bit) return -1;
      return length;
    }
    length = k > 0 ? c.uint(k) : 0;
    if (length > max) throw new CursorError(`hml_long label longer than ${max}`);
  }
  for (let done = 0; done < length; ) {
    const take = Math.min(32, length - done);
    if (c.uint(take) !== keyBits(key, from + done, take)) return -1;
    done += take;
  }
  return length;
}

/**
 * Calls `leaf` for every entry of a `Hashmap n X` / `HashmapAug n X Y`, in ascending key order,
 * with a cursor after the leaf's label (aug extra, then value). `root` is the root edge cell, or a
 * cursor at an inline root edge (the transactions of an AccountBlock). A pruned cell on the way
 * throws, as a Slice of it would.
 */
export function forEachDictLeafCursor(root: Cell | BitCursor | null, keyLength: number, leaf: (value: BitCursor) => void): void {
  if (!root) return;
  walkLeaves(root instanceof BitCursor ? root : cursorOf(root), keyLength, leaf);
}

function cursorOf(cell: Cell): BitCursor {
  if (cell.isExotic) throw new CursorError('a dictionary walk into an exotic cell');
  return new BitCursor(cell);
}

function walkLeaves(c: BitCursor, remaining: number, leaf: (value: BitCursor) => void): void {
  const rest = remaining - skipLabel(c, remaining);
  if (rest === 0) {
    leaf(c);
    return;
  }
  const left = c.ref();
  const right = c.ref();
  walkLeaves(cursorOf(left), rest - 1, leaf);
  walkLeaves(cursorOf(right), rest - 1, leaf);
}

/**
 * The value of `key` (its first `keyLength` bits, most significant first) in the `Hashmap n X` /
 * `HashmapAug n X Y` whose root edge cell is `root`: a cursor after the leaf's label, or null when
 * the dictionary does not hold the key. Throws when the path leads into a pruned branch.
 */
export function dictLookupCursor(root: Cell | null, keyLength: number, key: Buffer): BitCursor | null {
  if (!root) return null;
  if (key.length * 8 < keyLength) throw new CursorError(`a key of ${key.length * 8} bits for a dictionary of ${keyLength}`);
  let c = cursorOf(root);
  let consumed = 0;
  let remaining = keyLength;
  for (;;) {
    const length = matchLabel(c, remaining, key, consumed);
    if (length < 0) return null;
    consumed += length;
    remaining -= length;
    if (remaining === 0) return c;
    const left = c.ref();
    const right = c.ref();
    const next = keyBit(key, consumed) ? right : left;
    if (next.isExotic) throw new Error('dictionary path leads into a pruned branch');
    consumed += 1;
    remaining -= 1;
    c = new BitCursor(next);
  }
}

/** Skips a `CurrencyCollection` (Grams, then the extra currencies' `HashmapE 32`: a bit and maybe a ref). */
export function skipCurrencyCollection(c: BitCursor): void {
  c.skip(c.uint(4) * 8);
  if (c.bit()) c.ref();
}
