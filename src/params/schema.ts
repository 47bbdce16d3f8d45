import { ParsedAddress, parseAddress } from './address';
import { parseBase64Bytes, parseHash256 } from './hash';
import { quoteInput } from './quote';

/**
 * Parameter schemas of the handler table. One schema serves GET (every value is a query-string
 * string) and POST / JSON-RPC (JSON values), so numbers may arrive as JSON numbers or decimal
 * strings, exactly as toncenter's C++ server accepts them.
 *
 * JSON values come from src/intake/json.ts: an integer literal beyond 2^53 - 1 arrives as a
 * `bigint` with every digit, any other number as a `number`. The integer types accept a
 * bigint, a safe-integer number or a decimal string, and reject anything else (1.5, 1e30, a
 * rounded 2^63) with a 422 naming the parameter. Error texts quote at most ~200 characters of
 * the value (quoteInput).
 */

/** A value that could not be parsed; the executor turns it into a 422 with the request prefix. */
export class ParamError extends Error {}

export interface Param<T, Required extends boolean = boolean, Raw = T> {
  /** Type label used in the generated method list and in error texts. */
  readonly type: string;
  readonly required: Required;
  /** Accepts the value of a repeated query parameter as a list instead of taking the first. */
  readonly repeated: boolean;
  readonly defaultValue: Raw | undefined;
  /** The value's form: what a client sent, checked and converted (a ParamError names the parameter). */
  parse(name: string, value: unknown): Raw;
  /**
   * A second stage, run once the method's cross-parameter checks passed: turns the checked form
   * into the value the method runs with (a get-method stack's entries, parsed once). Absent: the
   * parsed form is the value.
   */
  finish?(raw: Raw): T;
  optional(): Param<T, false, Raw>;
  withDefault(value: Raw): Param<T, true, Raw>;
}

export type ParamShape = Record<string, Param<unknown, boolean, unknown>>;

/** The values a method runs with (every stage done). */
export type ParamValues<S extends ParamShape> = {
  [K in keyof S]: S[K] extends Param<infer T, true, unknown> ? T : S[K] extends Param<infer T, false, unknown> ? T | undefined : never;
};

/** The parsed forms a method's cross-parameter checks see (before any `finish` stage). */
export type ParamInputs<S extends ParamShape> = {
  [K in keyof S]: S[K] extends Param<unknown, true, infer R> ? R : S[K] extends Param<unknown, false, infer R> ? R | undefined : never;
};

function makeParam<T, Raw = T>(
  type: string,
  parse: (name: string, value: unknown) => Raw,
  repeated = false,
  finish?: (raw: Raw) => T,
): Param<T, true, Raw> {
  const build = <R extends boolean>(required: R, defaultValue: Raw | undefined): Param<T, R, Raw> => ({
    type,
    required,
    repeated,
    defaultValue,
    parse,
    ...(finish ? { finish } : {}),
    optional: () => build(false, undefined),
    withDefault: (value: Raw) => build(true, value) as Param<T, true, Raw>,
  });
  return build(true, undefined);
}

const show = (value: unknown): string => quoteInput(value);

const DECIMAL = /^-?\d+$/;
/** Longer decimal text cannot be an in-range integer parameter; BigInt() of it would cost CPU for nothing. */
const MAX_DECIMAL_CHARS = 40;

function parseIntegerValue(name: string, value: unknown, min: bigint, max: bigint): bigint {
  let parsed: bigint | undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value)) parsed = BigInt(value);
  else if (typeof value === 'bigint') parsed = value;
  else if (typeof value === 'string' && value.length <= MAX_DECIMAL_CHARS && DECIMAL.test(value.trim())) parsed = BigInt(value.trim());
  if (parsed === undefined || parsed < min || parsed > max) {
    throw new ParamError(`failed to parse ${name}: ${show(value)}`);
  }
  return parsed;
}

const INT32_MIN = -(2n ** 31n);
const INT32_MAX = 2n ** 31n - 1n;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

const TRUE_WORDS = new Set(['y', 'yes', 't', 'true', 'on', '1']);
const FALSE_WORDS = new Set(['n', 'no', 'f', 'false', 'off', '0']);

function requireString(name: string, value: unknown): string {
  if (typeof value !== 'string') throw new ParamError(`failed to parse ${name}: expected a string, got ${show(value)}`);
  return value;
}

export const param = {
  /** An account address: raw `wc:hex` or friendly (either base64 alphabet). */
  address: (): Param<ParsedAddress, true> =>
    makeParam('address', (name, value) => {
      const text = requireString(name, value);
      const parsed = parseAddress(text.trim());
      if (!parsed) throw new ParamError(`failed to parse ${name}: Failed to parse ton_addr: ${show(text)}`);
      return parsed;
    }),

  /** A 256-bit hash in hex or base64; the empty string means "not given" and is handled by the executor. */
  hash: (): Param<Buffer, true> =>
    makeParam('hash', (name, value) => {
      const text = requireString(name, value);
      const parsed = parseHash256(text.trim());
      if (!parsed) throw new ParamError(`failed to parse ${name}: invalid hash: ${show(text)}`);
      return parsed;
    }),

  /** A list of 256-bit hashes: a JSON array, or a repeated (or comma-separated) query parameter. */
  hashList: (): Param<Buffer[], true> =>
    makeParam(
      'hash[]',
      (name, value) => {
        const items = Array.isArray(value)
          ? value
          : typeof value === 'string'
            ? value.split(',').filter((item) => item.length > 0)
            : undefined;
        if (!items) throw new ParamError(`failed to parse ${name}: expected a list of hashes, got ${show(value)}`);
        return items.map((item) => {
          const parsed = typeof item === 'string' ? parseHash256(item.trim()) : undefined;
          if (!parsed) throw new ParamError(`failed to parse ${name}: invalid hash: ${show(item)}`);
          return parsed;
        });
      },
      true,
    ),

  /**
   * The block-transactions cursor: an account id given as an address (raw or friendly) or as a
   * bare 256-bit hash, as toncenter's `TonAddrWithoutWorkchain`.
   */
  afterHash: (): Param<Buffer, true> =>
    makeParam('address | hash', (name, value) => {
      const text = requireString(name, value).trim();
      const parsed = parseAddress(text)?.hash ?? parseHash256(text);
      if (!parsed) throw new ParamError(`failed to parse ${name}: ${show(text)}`);
      return parsed;
    }),

  int32: (): Param<number, true> =>
    makeParam('int32', (name, value) => Number(parseIntegerValue(name, value, INT32_MIN, INT32_MAX))),

  /** Only a JSON integer (toncenter's runGetMethod/dnsResolve `seqno` and `ttl`), never a string. */
  strictInt32: (): Param<number, true> =>
    makeParam('int32', (name, value) => {
      if (typeof value === 'string' && DECIMAL.test(value.trim())) {
        // A GET query string has no JSON types; accept its decimal text.
        return Number(parseIntegerValue(name, value, INT32_MIN, INT32_MAX));
      }
      if (typeof value !== 'number' && typeof value !== 'bigint') {
        throw new ParamError(`failed to parse ${name}: expected an integer, got ${show(value)}`);
      }
      return Number(parseIntegerValue(name, value, INT32_MIN, INT32_MAX));
    }),

  int64: (): Param<bigint, true> => makeParam('int64', (name, value) => parseIntegerValue(name, value, INT64_MIN, INT64_MAX)),

  /** Booleans as JSON booleans, integers (non-zero = true) or toncenter's words. */
  bool: (): Param<boolean, true> =>
    makeParam('bool', (name, value) => {
      if (typeof value === 'boolean') return value;
      if (typeof value === 'number' && Number.isInteger(value)) return value !== 0;
      if (typeof value === 'string') {
        const word = value.trim().toLowerCase();
        if (TRUE_WORDS.has(word)) return true;
        if (FALSE_WORDS.has(word)) return false;
      }
      throw new ParamError(`failed to parse ${name}: ${show(value)} is not a boolean`);
    }),

  /** Only a JSON boolean (estimateFee's `ignore_chksig`); GET never reaches such a method. */
  strictBool: (): Param<boolean, true> =>
    makeParam('bool', (name, value) => {
      if (typeof value !== 'boolean') throw new ParamError(`failed to parse ${name}: expected a boolean, got ${show(value)}`);
      return value;
    }),

  /** Strict standard base64 bytes (BoCs, bodies, init code and data). */
  bytes: (): Param<Buffer, true> =>
    makeParam('base64', (name, value) => {
      const text = requireString(name, value);
      const parsed = parseBase64Bytes(text.trim());
      if (!parsed) throw new ParamError(`failed to parse ${name}: invalid base64 encoded bytes: ${show(text)}`);
      return parsed;
    }),

  string: (): Param<string, true> => makeParam('string', (name, value) => requireString(name, value)),

  /** A get-method id: a name, or an integer id given as a JSON number. */
  methodId: (): Param<string | number, true> =>
    makeParam('string | int', (name, value) => {
      if (typeof value === 'string' && value.length > 0) return value;
      if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
      throw new ParamError(`failed to parse ${name}: expected a method name or id, got ${show(value)}`);
    }),

  /**
   * A JSON array whose items become a value of their own (get-method stacks): the array is
   * checked while parsing, its items by `finish` after the method's cross-parameter checks
   * (seqno and the method id are checked first, so an answer names the same mistake as before), once.
   */
  parsedArray: <T>(finish: (items: unknown[]) => T): Param<T, true, unknown[]> =>
    makeParam(
      'array',
      (name, value) => {
        if (!Array.isArray(value)) throw new ParamError(`failed to parse ${name}: expected a JSON array, got ${show(value)}`);
        return value;
      },
      false,
      finish,
    ),
};

export type RequestSource = 'get' | 'post';

/**
 * Parses raw request values against a schema. Unknown keys are ignored (as GET always is in
 * toncenter, and as its Python server does for bodies) so that clients adding optional keys keep
 * working; an empty value counts as "not given". Returns the parsed forms: `finishParams` runs
 * the second stages once the method's cross-parameter checks passed.
 */
export function parseParams<S extends ParamShape>(shape: S, raw: Record<string, unknown>): ParamInputs<S> {
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(shape)) {
    let value = raw[name];
    if (Array.isArray(value) && !spec.repeated && spec.type !== 'array') value = value[0];
    if (value === undefined || value === null || value === '') {
      if (spec.defaultValue !== undefined) out[name] = spec.defaultValue;
      else if (spec.required) throw new ParamError(`${name} required`);
      continue;
    }
    out[name] = spec.parse(name, value);
  }
  return out as ParamInputs<S>;
}

/** The values a method runs with: each given parameter's `finish` stage applied to its parsed form. */
export function finishParams<S extends ParamShape>(shape: S, inputs: ParamInputs<S>): ParamValues<S> {
  const out: Record<string, unknown> = { ...inputs };
  for (const [name, spec] of Object.entries(shape)) {
    const value = out[name];
    if (spec.finish && value !== undefined) out[name] = spec.finish(value);
  }
  return out as ParamValues<S>;
}
