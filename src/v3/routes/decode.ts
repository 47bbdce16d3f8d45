import { ValidationError } from '../../errors';
import { decodeBodyText, opcodeName, type DecodedBody } from '../models/decodedBody';

/**
 * `decode` (GET with repeated `opcodes`/`bodies` keys, POST with a JSON object of the same two
 * lists), as ton-index-go's GetDecode/PostDecode answer: opcode names (`unknown` when none) and
 * bodies decoded by the standard schemes; a body we cannot read answers `{"error": "unknown..."}`
 * in its place, never a failed request. Needs no index.
 */

/** ton-index-go's cap on each list. */
export const MAX_DECODE_ENTRIES = 1000;

export interface DecodeResponse {
  opcodes: string[];
  bodies: DecodedBody[];
}

const UINT32 = 0xffffffffn;
const INT32_MIN = -0x80000000n;
const INT32_MAX = 0x7fffffffn;

/**
 * processDecode's opcode reading: `0x` trimmed, then hex (uint32), then decimal (uint32), then
 * signed decimal (int32); which means digits alone are read as hex, as ton-index-go reads them.
 */
export function parseDecodeOpcode(text: string, index: number): number {
  const trimmed = text.startsWith('0x') ? text.slice(2) : text;
  // Lengths bounded before BigInt: a longer text cannot fit in 32 bits anyway.
  if (/^[0-9A-Fa-f]{1,64}$/.test(trimmed)) {
    const value = BigInt('0x' + trimmed);
    if (value <= UINT32) return Number(value);
  }
  if (/^\d{1,64}$/.test(trimmed)) {
    const value = BigInt(trimmed);
    if (value <= UINT32) return Number(value);
  }
  if (/^[+-]\d{1,64}$/.test(trimmed)) {
    const value = BigInt(trimmed);
    if (value >= INT32_MIN && value <= INT32_MAX) return Number(BigInt.asUintN(32, value));
  }
  throw new ValidationError(`invalid opcode format at index ${index}: ${trimmed}`);
}

/** One list of the request: strings only (a JSON body with other types is a 422, as fiber's). */
function stringList(value: unknown, name: string): string[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  if (list.length > MAX_DECODE_ENTRIES) throw new ValidationError(`${name} list exceeds maximum length of ${MAX_DECODE_ENTRIES}`);
  return list.map((item) => {
    if (typeof item !== 'string') throw new ValidationError(`json: cannot unmarshal ${typeof item} into Go struct field DecodeRequest.${name} of type string`);
    return item;
  });
}

export function runDecode(opcodesValue: unknown, bodiesValue: unknown): DecodeResponse {
  const opcodeTexts = stringList(opcodesValue, 'opcodes');
  const bodyTexts = stringList(bodiesValue, 'bodies');
  const opcodes = opcodeTexts.map((text, i) => opcodeName(parseDecodeOpcode(text, i)));
  return { opcodes, bodies: bodyTexts.map((text) => decodeBodyText(text)) };
}
