import type { BlockIdExtInput } from '../../src/converters/blockId';
import { Fixture, fixtureResult, loadFixtures } from '../helpers/fixtures';

/** Shared bits of the converter tests (not a test file itself). */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A fixture by file stem, e.g. `getTransactions-04`. */
export function fixture(stem: string): Fixture {
  const method = stem.replace(/-\d+$/, '');
  const found = loadFixtures(method).find((candidate) => candidate.file === `${stem}.json`);
  if (!found) throw new Error(`fixture ${stem} is missing`);
  return found;
}

export function result<T = Record<string, unknown>>(stem: string): T {
  return fixtureResult(fixture(stem)) as T;
}

/** Drops tonlib's per-request `@extra` tag (it is not part of the converted object). */
export function withoutExtra(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutExtra);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== '@extra')
      .map(([key, v]) => [key, withoutExtra(v)]),
  );
}

/**
 * `actual` restricted to the keys present in `recorded` (recursively), so older recordings that lack
 * newer fields can be compared with `toEqual` and still show every differing value.
 */
export function projectOnto(actual: unknown, recorded: unknown): unknown {
  if (Array.isArray(recorded)) {
    return Array.isArray(actual) ? actual.map((item, i) => projectOnto(item, recorded[i])) : actual;
  }
  if (isObject(recorded) && isObject(actual)) {
    return Object.fromEntries(Object.keys(recorded).map((key) => [key, projectOnto(actual[key], recorded[key])]));
  }
  return actual;
}

/** Key order of an object and of every nested object, as `path: key,key,…` lines. */
export function keyOrder(value: unknown, path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => keyOrder(item, `${path}[${i}]`));
  if (!isObject(value)) return [];
  const keys = Object.keys(value).filter((key) => key !== '@extra');
  return [`${path}: ${keys.join(',')}`, ...keys.flatMap((key) => keyOrder(value[key], `${path}.${key}`))];
}

/** Replaces every string under a `message` key using `map` (newline normalisation of old recordings). */
export function mapMessageStrings(value: unknown, map: (text: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => mapMessageStrings(item, map));
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [key, key === 'message' && typeof v === 'string' ? map(v) : mapMessageStrings(v, map)]),
  );
}

/**
 * `test.each` rows `[file, fixture]` of a method. Without the recordings the suite is skipped, but jest
 * still collects it and rejects an empty table, so a placeholder row (never run) stands in.
 */
export function fixtureRows(method: string): (readonly [string, Fixture])[] {
  const rows = loadFixtures(method).map((f) => [f.file, f] as const);
  return rows.length > 0 ? rows : [['(recordings absent)', { file: '', method, params: {}, network: '', response: null }] as const];
}

/** A block id as the recordings print it (`ton.blockIdExt` without its tag). */
export interface RecordedId {
  workchain: number;
  shard: string;
  seqno: number;
  root_hash: string;
  file_hash: string;
}

/** The converters' input for a recorded block id. */
export function idInput(id: RecordedId): BlockIdExtInput {
  return {
    workchain: id.workchain,
    shard: id.shard,
    seqno: id.seqno,
    rootHash: Buffer.from(id.root_hash, 'base64'),
    fileHash: Buffer.from(id.file_hash, 'base64'),
  };
}
