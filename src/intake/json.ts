import { parse as parseLossless } from 'lossless-json';

/**
 * JSON of request bodies. The contract with src/params:
 * - integer literals that fit a double exactly (|n| <= 2^53 - 1) arrive as `number`;
 * - integer literals beyond that arrive as `bigint` with every digit kept (shard
 *   -9223372036854775808, lt 2^63 - 1), so the integer parameter types can take them exactly;
 * - any other number (fraction, exponent) arrives as `number` and integer parameters reject
 *   it unless it is an exact safe integer (`1e3` is 1000, `1.5` is a 422);
 * - nesting deeper than the bound, and more array items and object members than the other bound,
 *   are refused by a linear pre-scan before any parser runs.
 *
 * `JSON.parse` is kept for bodies without long number literals (the common case). lossless-json
 * parses the others up to LOSSLESS_MAX_BYTES: it is pure JavaScript, several times slower than JSON.parse,
 * and a megabyte of long literals would hold the event loop for a second. Larger bodies go
 * through JSON.parse too; a long integer literal in them loses digits and an integer parameter
 * answers 422 (decimal strings are exact at any size).
 */

/** Deepest array/object nesting a body may have (a get-method stack nested 256 levels needs ~770). */
export const MAX_JSON_DEPTH = 1024;

/**
 * Most array items plus object members a body may have. JSON.parse of a megabyte of `[{},{},...]`
 * (350 000 objects) holds the event loop ~100 ms, of `[1,1,...]` ~20-50 ms; at this bound the
 * worst shape takes ~5 ms. Generous for real bodies: a batch of 100 calls has ~1 500, a
 * get-method stack ~3 per entry, a streaming subscription one per address (a 256 KiB message
 * holds fewer than 4 000).
 */
export const MAX_JSON_ELEMENTS = 16_384;

/** Largest body parsed with lossless-json (a batch of 100 calls with shards takes ~15 KiB). */
export const LOSSLESS_MAX_BYTES = 32 * 1024;

/** Digits in a literal from which its value may not fit a double exactly. */
const LONG_NUMBER_DIGITS = 16;

export interface JsonBounds {
  readonly maxDepth: number;
  readonly maxElements: number;
}

export const JSON_BOUNDS: JsonBounds = { maxDepth: MAX_JSON_DEPTH, maxElements: MAX_JSON_ELEMENTS };

export interface JsonScan {
  /** The nesting bound was passed (the scan stopped there). */
  readonly tooDeep: boolean;
  /** The element bound was passed (the scan stopped there). */
  readonly tooManyElements: boolean;
  /** A number literal outside strings has 16 or more digits in a row. */
  readonly longNumbers: boolean;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;

const SPACE = 0x20;
const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const COMMA = 0x2c;

/**
 * One pass over the bytes: nesting depth, elements (array items and object members: each comma
 * and each container's first one) and long number literals, strings skipped. Exact for valid
 * JSON; for anything else only a bound, and JSON.parse refuses it afterwards.
 */
export function scanJson(bytes: Uint8Array, bounds: JsonBounds = JSON_BOUNDS): JsonScan {
  let depth = 0;
  let elements = 0;
  // Just after `[` or `{`: the next token other than whitespace is a first element unless it closes.
  let opened = false;
  let inString = false;
  let digits = 0;
  let longNumbers = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
      continue;
    }
    if (opened && byte !== SPACE && byte !== LINE_FEED && byte !== CARRIAGE_RETURN && byte !== TAB) {
      opened = false;
      if (byte !== CLOSE_BRACKET && byte !== CLOSE_BRACE && ++elements > bounds.maxElements) {
        return { tooDeep: false, tooManyElements: true, longNumbers };
      }
    }
    if (byte >= DIGIT_0 && byte <= DIGIT_9) {
      if (++digits >= LONG_NUMBER_DIGITS) longNumbers = true;
      continue;
    }
    digits = 0;
    if (byte === QUOTE) inString = true;
    else if (byte === COMMA) {
      if (++elements > bounds.maxElements) return { tooDeep: false, tooManyElements: true, longNumbers };
    } else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) {
      opened = true;
      if (++depth > bounds.maxDepth) return { tooDeep: true, tooManyElements: false, longNumbers };
    } else if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) depth--;
  }
  return { tooDeep: false, tooManyElements: false, longNumbers };
}

/** Why a scanned body is refused before parsing (the client's text), or undefined. */
export function boundsRefusal(scan: JsonScan, bounds: JsonBounds = JSON_BOUNDS): string | undefined {
  if (scan.tooDeep) return `JSON nesting is deeper than ${bounds.maxDepth} levels`;
  if (scan.tooManyElements) return `JSON has more than ${bounds.maxElements} array items and object members`;
  return undefined;
}

const INTEGER_LITERAL = /^-?\d+$/;

/** Enough digits for any TVM integer (257 bits); longer literals stay (inexact) numbers. */
const MAX_EXACT_DIGITS = 80;

function exactNumber(text: string): number | bigint {
  if (text.length <= MAX_EXACT_DIGITS && INTEGER_LITERAL.test(text)) {
    const value = Number(text);
    return Number.isSafeInteger(value) ? value : BigInt(text);
  }
  return Number(text);
}

/** A body that is not JSON or is past a bound; the message is the client's text. */
export class JsonBodyError extends Error {}

/**
 * Parses a request body under the contract above. Throws JsonBodyError for text that is not
 * JSON or is past a bound. Duplicate keys keep the last value, as JSON.parse does.
 */
export function parseRequestJson(bytes: Buffer, bounds: JsonBounds = JSON_BOUNDS): unknown {
  const scan = scanJson(bytes, bounds);
  const refusal = boundsRefusal(scan, bounds);
  if (refusal !== undefined) throw new JsonBodyError(refusal);
  const text = bytes.toString('utf8');
  try {
    if (!scan.longNumbers || bytes.length > LOSSLESS_MAX_BYTES) return JSON.parse(text) as unknown;
    return parseLossless(text, null, { parseNumber: exactNumber, onDuplicateKey: ({ newValue }) => newValue }) as unknown;
  } catch {
    throw new JsonBodyError('the body is not valid JSON');
  }
}
