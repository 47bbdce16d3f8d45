/**
 * Strict TL-B readers for tests: the loaders @ton-community/tlb-codegen generated from block.tlb
 * (shipped in that package), plus checks those loaders do not make: every augmented dictionary's
 * fork extras equal the sum of their children, labels fit the remaining key length, leaves are
 * fully consumed.
 */
import { Cell, loadCurrencyCollection, Slice } from '@ton/core';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { loadLabel } from '../../../src/cells';

export type StrictLoader = (slice: Slice) => unknown;

let cached: Record<string, StrictLoader> | null = null;

/**
 * The generated loaders. The shipped file reads uint64 fields with `loadUint`, which overflows
 * for values such as `next_validator_shard` = 2^63; they are switched to `loadUintBig`. Its
 * `@ton/core` import is pinned to this project's copy so cells are of the same class.
 */
export function strictTlb(): Record<string, StrictLoader> {
  if (cached) return cached;
  const pkg = path.dirname(require.resolve('@ton-community/tlb-codegen/package.json'));
  const source = fs.readFileSync(path.join(pkg, 'test/generated_files/generated_block.ts'), 'utf8');
  const core = path.dirname(require.resolve('@ton/core/package.json'));
  const patched = source
    .replace(/slice\.loadUint\(64\)/g, 'slice.loadUintBig(64)')
    .replace(/from ["']@ton\/core["']/g, `from ${JSON.stringify(core)}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'strict-tlb-'));
  const file = path.join(dir, 'generated_block.ts');
  fs.writeFileSync(file, patched);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  cached = require(file) as Record<string, StrictLoader>;
  return cached;
}

export function strictLoad<T>(name: string, cell: Cell): T {
  const loader = strictTlb()[name];
  if (!loader) throw new Error(`no strict loader ${name}`);
  return loader(cell.beginParse()) as T;
}

/**
 * Walks a HashmapAug with `keyBits` keys from its root edge cell: checks labels, that each fork's
 * extra equals the combination of its children's, and calls `leaf` with the key and the slice
 * after the extra. Returns the root's extra.
 */
export function checkHashmapAug<E>(
  root: Cell,
  keyBits: number,
  readExtra: (s: Slice) => E,
  combine: (a: E, b: E) => E,
  equal: (a: E, b: E) => boolean,
  leaf: (key: bigint, value: Slice, extra: E) => void,
): E {
  const walk = (slice: Slice, remaining: number, prefix: bigint, prefixLen: number): E => {
    const label = loadLabel(slice, remaining);
    const key = (prefix << BigInt(label.length)) | label.value;
    const len = prefixLen + label.length;
    const rest = remaining - label.length;
    if (rest === 0) {
      const extra = readExtra(slice);
      leaf(key, slice, extra);
      return extra;
    }
    const left = slice.loadRef();
    const right = slice.loadRef();
    const l = walk(left.beginParse(), rest - 1, key << 1n, len + 1);
    const r = walk(right.beginParse(), rest - 1, (key << 1n) | 1n, len + 1);
    const extra = readExtra(slice);
    if (!equal(extra, combine(l, r))) throw new Error(`fork extra at ${len}-bit prefix is not the sum of its children`);
    if (slice.remainingBits !== 0 || slice.remainingRefs !== 0) throw new Error('fork cell has trailing data');
    return extra;
  };
  return walk(root.beginParse(), keyBits, 0n, 0);
}

export const grams = {
  read: (s: Slice) => loadCurrencyCollection(s).coins,
  add: (a: bigint, b: bigint) => a + b,
  eq: (a: bigint, b: bigint) => a === b,
};
