import { ApiError } from '../errors';
import { LegacyStackEntryJson, toLegacyHex, TvmStackEntryJson } from '../converters';

/**
 * toncenter v3's stack form `{type, value}` (ton-index-go `V2StackEntity`) on the way out: `num`
 * (hex, `0x…` / `-0x…`), `cell`, `slice` (base64 BoC) and `tuple` / `list` (arrays of entries).
 * The input side is in v3StackInput.ts.
 */
export interface V3StackEntryJson {
  type: string;
  value: string | V3StackEntryJson[];
}

function unsupported(type: string): ApiError {
  return new ApiError(501, `failed to decode api/v2 stack: unsupported stack entry type: ${type}`);
}

function fromTyped(entry: TvmStackEntryJson): V3StackEntryJson {
  switch (entry['@type']) {
    case 'tvm.stackEntryNumber':
      return { type: 'num', value: toLegacyHex(BigInt(entry.number.number)) };
    case 'tvm.stackEntryCell':
      return { type: 'cell', value: entry.cell.bytes };
    case 'tvm.stackEntrySlice':
      return { type: 'slice', value: entry.slice.bytes };
    case 'tvm.stackEntryTuple':
      return { type: 'tuple', value: entry.tuple.elements.map(fromTyped) };
    case 'tvm.stackEntryList':
      return { type: 'list', value: entry.list.elements.map(fromTyped) };
    default:
      throw unsupported(entry['@type']);
  }
}

/** runGetMethod's legacy output stack in the v3 form. */
export function toV3Stack(stack: readonly LegacyStackEntryJson[]): V3StackEntryJson[] {
  return stack.map((entry): V3StackEntryJson => {
    switch (entry[0]) {
      case 'num':
        return { type: 'num', value: entry[1] };
      case 'cell':
        return { type: 'cell', value: entry[1].bytes };
      case 'tuple':
      case 'list':
        return { type: entry[0], value: entry[1].elements.map(fromTyped) };
      default:
        throw unsupported(entry[0]);
    }
  });
}
