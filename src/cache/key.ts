import { Address, Cell } from '@ton/core';

/**
 * A canonical text of parsed parameters: equal for requests that mean the same thing (an address
 * in any form, a hash in hex or base64, keys in any order), different otherwise. Parsed values are
 * used, never the raw input, so formatting differences cannot split or merge entries.
 */
export function canonicalParams(value: unknown): string {
  if (value === undefined) return '~';
  if (value === null) return 'null';
  switch (typeof value) {
    case 'bigint':
      return `${value}n`;
    case 'number':
    case 'boolean':
      return String(value);
    case 'string':
      return JSON.stringify(value);
    case 'object':
      break;
    default:
      throw new Error(`cannot key a ${typeof value} parameter`);
  }
  if (Buffer.isBuffer(value)) return `x${value.toString('hex')}`;
  if (value instanceof Address) return `@${value.toRawString()}`;
  if (value instanceof Cell) return `c${value.hash().toString('hex')}`;
  if (Array.isArray(value)) return `[${value.map(canonicalParams).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalParams(record[key])}`).join(',')}}`;
}

/** The cache key: method, canonical parameters, root hash of the masterchain block the answer is for. */
export function responseKey(method: string, params: unknown, blockRootHash: Buffer): string {
  return `${method}|${blockRootHash.toString('hex')}|${canonicalParams(params)}`;
}
