import { parseAddress, toRawForm } from '../../params';
import { ValidationError } from '../../errors';
import { ParamError, type V3Query } from './query';

/**
 * ton-index-go's parameter types, each read as its converter in `index/models/convert.go` (or
 * gorilla/schema's built-in conversion) reads it, failing with gorilla/schema's text. Values are
 * returned in the form the SQL parameters take (never spliced into SQL text).
 */

const INT64_MAX = (1n << 63n) - 1n;
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

export function conversionError(name: string, index?: number): ParamError {
  return new ParamError(
    index === undefined
      ? `schema: error converting value for "${name}"`
      : `schema: error converting value for index ${index} of "${name}"`,
  );
}

/** An account as the indexer keys it: `<wc>:<64 upper-case hex>` (AccountAddressConverter). */
export interface V3Account {
  readonly raw: string;
  readonly workchain: number;
  readonly hash: Buffer;
}

/**
 * raw (`wc:hex`), friendly base64 or base64url (the project's parser: CRC-checked, either
 * alphabet); the result in the indexer's raw upper-case form.
 */
export function toAccount(value: string): V3Account | undefined {
  const parsed = parseAddress(value.trim());
  if (!parsed) return undefined;
  return { raw: toRawForm(parsed.workchain, parsed.hash, true), workchain: parsed.workchain, hash: parsed.hash };
}

/**
 * A 256-bit hash as HashConverter reads it: 64 hex digits with or without `0x`, or 44 characters
 * of padded standard base64, else of padded base64url. (src/params/hash.ts's parser, made for v2,
 * also takes 43 unpadded characters and no `0x`: ton-index-go refuses the one and takes the other.)
 */
export function toHash(value: string): Buffer | undefined {
  const hex = value.length === 66 && value.startsWith('0x') ? value.slice(2) : value;
  if (hex.length === 64) return /^[0-9a-fA-F]{64}$/.test(hex) ? Buffer.from(hex, 'hex') : undefined;
  if (value.length === 44) {
    if (/^[A-Za-z0-9+/]{42}(?:[A-Za-z0-9+/]=|==)$/.test(value)) return Buffer.from(value, 'base64');
    if (/^[A-Za-z0-9_-]{42}(?:[A-Za-z0-9_-]=|==)$/.test(value)) return Buffer.from(value, 'base64url');
  }
  return undefined;
}

const HEX_U64 = /^[0-9a-fA-F]{1,16}$/;
const DEC_I64 = /^[+-]?[0-9]{1,19}$/;

/**
 * A shard id as ShardIdConverter reads it: `0x` stripped, then unsigned hex first (so "8000000000000000"
 * is the root shard), then signed decimal; returned as the signed 64-bit value the tables hold.
 */
export function toShard(value: string): bigint | undefined {
  const body = value.startsWith('0x') ? value.slice(2) : value;
  if (HEX_U64.test(body)) return BigInt.asIntN(64, BigInt(`0x${body}`));
  if (DEC_I64.test(body)) {
    const n = BigInt(body);
    if (n >= -(1n << 63n) && n <= INT64_MAX) return n;
  }
  return undefined;
}

/**
 * An opcode as OpcodeTypeConverter reads it: after an optional `0x`/`0X`, hex of at most 32 bits
 * first (so "10" is 0x10), else, without the prefix, a signed 32-bit decimal. The signed int32
 * the `opcode integer` column holds.
 */
export function toOpcode(value: string): number | undefined {
  const prefixed = value.startsWith('0x') || value.startsWith('0X');
  const body = prefixed ? value.slice(2) : value;
  if (/^[0-9a-fA-F]{1,8}$/.test(body)) return Number.parseInt(body, 16) | 0;
  if (prefixed) return undefined;
  if (/^[+-]?[0-9]{1,10}$/.test(body)) {
    const n = Number(body);
    if (n >= INT32_MIN && n <= INT32_MAX) return n;
  }
  return undefined;
}

/** strconv.ParseInt(v, 10, 32). */
export function toInt32(value: string): number | undefined {
  if (!/^[+-]?[0-9]{1,10}$/.test(value)) return undefined;
  const n = Number(value);
  return n >= INT32_MIN && n <= INT32_MAX ? n : undefined;
}

/**
 * strconv.ParseUint(v, 10, 64), then capped at 2^63-1: the tables' lt columns are signed bigint,
 * and no lt reaches the cap, so every filter answers the same as with the larger number.
 */
export function toUint64(value: string): bigint | undefined {
  if (!/^[0-9]{1,20}$/.test(value)) return undefined;
  const n = BigInt(value);
  if (n >= 1n << 64n) return undefined;
  return n > INT64_MAX ? INT64_MAX : n;
}

/**
 * UtimeTypeConverter: an unsigned 32-bit integer or a float (truncated). A negative or non-finite
 * float (Go converts it to an undefined uint64) is refused here.
 */
export function toUtime(value: string): number | undefined {
  if (/^[0-9]{1,10}$/.test(value)) {
    const n = Number(value);
    if (n <= 0xffffffff) return Math.min(n, UTIME_MAX);
  }
  if (!/^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/.test(value)) return undefined;
  const f = Number(value);
  if (!Number.isFinite(f) || f < 0) return undefined;
  return Math.min(Math.trunc(f), UTIME_MAX);
}

/**
 * The `now` columns are PostgreSQL `integer`: a time above 2^31-1 (2038) would fail the statement,
 * and no stored time reaches it, so larger values are read as 2^31-1 with the same answer.
 */
const UTIME_MAX = INT32_MAX;

const TRUE_WORDS = new Set(['1', 't', 'T', 'true', 'TRUE', 'True', 'on']);
const FALSE_WORDS = new Set(['0', 'f', 'F', 'false', 'FALSE', 'False']);

/** strconv.ParseBool, plus gorilla/schema's "on". */
export function toBool(value: string): boolean | undefined {
  if (TRUE_WORDS.has(value)) return true;
  if (FALSE_WORDS.has(value)) return false;
  return undefined;
}

/** Readers of one query parameter: undefined when absent, a ParamError when unreadable. */
export function readSingle<T>(query: V3Query, name: string, convert: (value: string) => T | undefined): T | undefined {
  const value = query.single(name);
  if (value === undefined) return undefined;
  const converted = convert(value);
  if (converted === undefined) throw conversionError(name);
  return converted;
}

export function readList<T>(query: V3Query, name: string, convert: (value: string) => T | undefined): T[] {
  return query.list(name).map((value, index) => {
    const converted = convert(value);
    if (converted === undefined) throw conversionError(name, index);
    return converted;
  });
}

/** `source`/`destination`: an account, or the word `null` (external in / external out). */
export type NullableAccount = V3Account | 'null';

export function toNullableAccount(value: string): NullableAccount | undefined {
  return value === 'null' ? 'null' : toAccount(value);
}

/** ton-index-go's defaults (`--default-limit 100`, `--max-limit 1000`). */
export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;
/**
 * Our bound on `offset` (ton-index-go has none): PostgreSQL reads and drops every skipped row, so
 * the skip costs the offset whatever the index. Measured at 104 000 transactions (203 000 message
 * rows), the widest ranges: skipping 100 000 took 150-230 ms of PostgreSQL's time (transactions,
 * messages), 10 000 took 15-20 ms. Deeper pages are reached with lt/utime ranges, which an index
 * walks from where the range starts.
 */
export const MAX_OFFSET = 10_000;

export type SortOrder = 'asc' | 'desc';

export interface Paging {
  readonly limit: number;
  readonly offset: number;
  /** Undefined when the client sent none (routes differ in their default). */
  readonly sort: SortOrder | undefined;
}

/**
 * limitQuery and getSortOrder of crud.go: limit defaults to 100, below 1 is 1, above 1000 a 422
 * `limit is not allowed: N > 1000`; a negative offset is 0; sort is asc/desc/a/d in any case,
 * else a 422 `wrong value for sort parameter`. (ton-index-go itself answers these two 422s as
 * 500 on the routes that wrap its query builder's error: a client mistake is a 4xx here.)
 */
export function checkPaging(raw: { limit?: number; offset?: number; sort?: string }): Paging {
  const limit = Math.max(1, raw.limit ?? DEFAULT_LIMIT);
  if (limit > MAX_LIMIT) throw new ValidationError(`limit is not allowed: ${limit} > ${MAX_LIMIT}`);
  const offset = Math.max(0, raw.offset ?? 0);
  if (offset > MAX_OFFSET) throw new ValidationError(`offset is not allowed: ${offset} > ${MAX_OFFSET}`);
  return { limit, offset, sort: raw.sort === undefined ? undefined : toSortOrder(raw.sort) };
}

export function toSortOrder(value: string): SortOrder {
  switch (value.toLowerCase()) {
    case 'desc':
    case 'd':
      return 'desc';
    case 'asc':
    case 'a':
      return 'asc';
    default:
      throw new ValidationError('wrong value for sort parameter');
  }
}

/** `direction` of transactionsByMessage and messages (validateDirection of main.go). */
export function checkDirection(value: string | undefined): 'in' | 'out' | undefined {
  if (value === undefined) return undefined;
  if (value !== 'in' && value !== 'out') throw new ValidationError('direction should be one of: in, out');
  return value;
}
