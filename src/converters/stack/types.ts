/** JSON shapes of get-method stacks in both toncenter dialects, and the options they share. */

export interface LegacyCellObjectJson {
  data: { b64: string; len: number };
  refs: LegacyCellObjectJson[];
  special: boolean;
}

export interface LegacyCellEntryJson {
  bytes: string;
  object: LegacyCellObjectJson;
}

export interface TvmNumberDecimalJson {
  '@type': 'tvm.numberDecimal';
  number: string;
}
export interface TvmCellJson {
  '@type': 'tvm.cell';
  bytes: string;
}
export interface TvmSliceJson {
  '@type': 'tvm.slice';
  bytes: string;
}
export interface TvmTupleJson {
  '@type': 'tvm.tuple';
  elements: TvmStackEntryJson[];
}
export interface TvmListJson {
  '@type': 'tvm.list';
  elements: TvmStackEntryJson[];
}

export interface TvmStackEntryNumberJson {
  '@type': 'tvm.stackEntryNumber';
  number: TvmNumberDecimalJson;
}
export interface TvmStackEntryCellJson {
  '@type': 'tvm.stackEntryCell';
  cell: TvmCellJson;
}
export interface TvmStackEntrySliceJson {
  '@type': 'tvm.stackEntrySlice';
  slice: TvmSliceJson;
}
export interface TvmStackEntryTupleJson {
  '@type': 'tvm.stackEntryTuple';
  tuple: TvmTupleJson;
}
export interface TvmStackEntryListJson {
  '@type': 'tvm.stackEntryList';
  list: TvmListJson;
}
export interface TvmStackEntryUnsupportedJson {
  '@type': 'tvm.stackEntryUnsupported';
}

export type TvmStackEntryJson =
  | TvmStackEntryNumberJson
  | TvmStackEntryCellJson
  | TvmStackEntrySliceJson
  | TvmStackEntryTupleJson
  | TvmStackEntryListJson
  | TvmStackEntryUnsupportedJson;

export type LegacyStackEntryJson =
  ['num', string] | ['cell', LegacyCellEntryJson] | ['tuple', TvmTupleJson] | ['list', TvmListJson] | ['unsupported', ''];

/** Default nesting limit (tonlib's max_stack_entry_depth default). */
export const DEFAULT_MAX_STACK_DEPTH = 256;

export interface StackOptions {
  /** Maximum tuple/list nesting; an entry nested this deep fails with 533. */
  maxDepth?: number;
}
