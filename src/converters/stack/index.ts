/**
 * Get-method stacks in both toncenter dialects.
 *
 * Legacy (runGetMethod): `[type, value]` pairs. Input accepts num/number/int/integer (JSON integer or
 * decimal / 0x / -0x string), tvm.Cell / tvm.Slice (base64 BoC), cell / slice ({bytes}), tuple /
 * tvm.Tuple and list / tvm.List ({elements: typed entries}). Output renders numbers as hex, cells AND
 * slices as `["cell", {bytes, object}]`, TVM null as an empty list, list-shaped tuples as lists.
 *
 * Typed (runGetMethodStd, and the elements of legacy tuples/lists): tonlib's `tvm.stackEntry*`.
 *
 * types.ts: the JSON shapes; parseInput.ts: input stacks → @ton/core tuple items; typedRender.ts and
 * legacyRender.ts: tuple items → each dialect's JSON.
 */
export type {
  LegacyCellObjectJson,
  LegacyCellEntryJson,
  TvmNumberDecimalJson,
  TvmCellJson,
  TvmSliceJson,
  TvmTupleJson,
  TvmListJson,
  TvmStackEntryNumberJson,
  TvmStackEntryCellJson,
  TvmStackEntrySliceJson,
  TvmStackEntryTupleJson,
  TvmStackEntryListJson,
  TvmStackEntryUnsupportedJson,
  TvmStackEntryJson,
  LegacyStackEntryJson,
  StackOptions,
} from './types';
export { DEFAULT_MAX_STACK_DEPTH } from './types';
export { parseLegacyStack, parseTvmInteger, parseTypedStack } from './parseInput';
export { renderTypedStack } from './typedRender';
export type { LegacyRenderOptions } from './legacyRender';
export { MAX_RENDERED_CELL_NODES, renderCellObject, renderLegacyStack, toLegacyHex } from './legacyRender';
export { isV3StackEntry, v3EntryToLegacy } from './v3Input';
