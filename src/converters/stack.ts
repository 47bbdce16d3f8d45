import { Cell, TupleItem } from '@ton/core';
import { ApiError, ValidationError } from '../errors';
import { checkBocBounds, checkCellDepth, MAX_STACK_CELL_DEPTH, MAX_STACK_CELLS, MAX_STACK_ENTRIES } from '../tvm/bounds';
import { quoteInput } from '../params/quote';
import { bocBase64, paddedCellData } from './boc';
import { isV3StackEntry, v3EntryToLegacy } from './v3StackInput';

/**
 * Get-method stacks in both toncenter dialects.
 *
 * Legacy (runGetMethod): `[type, value]` pairs. Input accepts num/number/int/integer (JSON integer or
 * decimal / 0x / -0x string), tvm.Cell / tvm.Slice (base64 BoC), cell / slice ({bytes}), tuple /
 * tvm.Tuple and list / tvm.List ({elements: typed entries}). Output renders numbers as hex, cells AND
 * slices as `["cell", {bytes, object}]`, TVM null as an empty list, list-shaped tuples as lists.
 *
 * Typed (runGetMethodStd, and the elements of legacy tuples/lists): tonlib's `tvm.stackEntry*`.
 */

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

/**
 * What an input stack may still use. Entries (at every level) and the cells of its BoCs are
 * counted while the JSON is read, so an oversized stack is refused before it is decoded.
 */
interface InputBudget {
  entries: number;
  cells: number;
  readonly maxDepth: number;
}

function newInputBudget(maxDepth: number): InputBudget {
  return { entries: MAX_STACK_ENTRIES, cells: MAX_STACK_CELLS, maxDepth };
}

function spendEntry(budget: InputBudget): void {
  if (--budget.entries < 0) {
    throw new ValidationError(
      `failed to validate request: stack has more than ${MAX_STACK_ENTRIES} entries (tuple and list elements included)`,
    );
  }
}

/**
 * Bounds on a rendered result: the legacy `object` form repeats a shared cell once per path to
 * it (a 200-byte cell can stand for 2^24 paths), so its nodes are counted and capped.
 */
export const MAX_RENDERED_CELL_NODES = 16_384;

interface RenderBudget {
  cellNodes: number;
}

export interface LegacyRenderOptions extends StackOptions {
  /**
   * How the `object.data.b64` of a cell with a partial last byte is completed: `completion-tag`
   * keeps the cell's stored completion bit (what the current C++ toncenter prints, runGetMethod-04),
   * `zero` pads with zero bits (the Python toncenter, runGetMethod-01/-02). Default `completion-tag`.
   */
  cellDataPadding?: 'completion-tag' | 'zero';
}

/** A result nested too deep: toncenter's 533 (the contract's doing, not the caller's). */
function depthError(maxDepth: number): ApiError {
  return new ApiError(533, `Result stack depth >= ${maxDepth}`);
}

/**
 * An input stack nested too deep, or of a type no get-method takes: the caller's mistake, so a
 * 422 with toncenter's text (the C++ server answers 533 and 542, codes a client cannot tell from
 * a server fault).
 */
function inputDepthError(maxDepth: number): ApiError {
  return new ValidationError(`Result stack depth >= ${maxDepth}`);
}

const INT257_MIN = -(1n << 256n);
const INT257_MAX = (1n << 256n) - 1n;

/**
 * tonlib's `string_to_int256`: decimal with an optional `-`, or hex after `0x` / `-0x`; the value must
 * fit a TVM integer (257-bit signed). Returns null for anything else.
 */
export function parseTvmInteger(text: string): bigint | null {
  // 257 bits take at most 78 decimal digits; BigInt() of a longer text costs quadratic time.
  if (text.length > 100) return null;
  const match = /^(-?)(?:0x([0-9a-fA-F]+)|([0-9]+))$/.exec(text);
  if (!match) return null;
  const magnitude = match[2] !== undefined ? BigInt(`0x${match[2]}`) : BigInt(match[3]);
  const value = match[1] === '-' ? -magnitude : magnitude;
  return value < INT257_MIN || value > INT257_MAX ? null : value;
}

/** Number as the legacy output prints it: lowercase hex, `0x0`, `-0x…`. */
export function toLegacyHex(value: bigint): string {
  return value < 0n ? `-0x${(-value).toString(16)}` : `0x${value.toString(16)}`;
}

function decodeBoc(text: string, budget: InputBudget): Cell {
  if (!/^[A-Za-z0-9+/\-_]*={0,2}$/.test(text)) {
    throw new ValidationError(`invalid base64 encoded bytes: '${text.length > 100 ? `${text.slice(0, 100)}...` : text}'`);
  }
  const bytes = Buffer.from(text, 'base64');
  const shape = checkBocBounds('a stack cell', bytes, budget.cells, MAX_STACK_CELL_DEPTH);
  let cells: Cell[];
  try {
    cells = Cell.fromBoc(bytes);
  } catch (error) {
    throw new ValidationError(`invalid bag of cells: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (cells.length !== 1) throw new ValidationError(`invalid bag of cells: expected 1 root, got ${cells.length}`);
  checkCellDepth('a stack cell', cells, MAX_STACK_CELL_DEPTH);
  budget.cells -= shape?.cells ?? budget.cells;
  return cells[0];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseLegacyNumber(value: unknown): bigint {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new ValidationError(`Invalid number: ${value}`);
    return BigInt(value);
  }
  if (typeof value === 'string') {
    const parsed = parseTvmInteger(value);
    if (parsed === null) throw new ValidationError(`Invalid number: ${value}`);
    return parsed;
  }
  throw new ValidationError('Wrong type of number in stack entry');
}

function parseBocString(value: unknown, label: string, budget: InputBudget): Cell {
  if (typeof value !== 'string') throw new ValidationError(`Invalid ${label}, base64 string expected`);
  if (value === '') throw new ValidationError(`Empty ${label}`);
  return decodeBoc(value, budget);
}

function parseBytesObject(value: unknown, label: string, budget: InputBudget): Cell {
  if (!isRecord(value) || typeof value['bytes'] !== 'string') {
    throw new ValidationError(`Invalid ${label}, object with field bytes expected`);
  }
  if (value['bytes'] === '') throw new ValidationError(`Empty ${label}`);
  return decodeBoc(value['bytes'], budget);
}

function elementsOf(value: unknown, label: string): unknown[] {
  if (!isRecord(value) || !Array.isArray(value['elements'])) throw new ValidationError(`Invalid ${label}`);
  return value['elements'];
}

/** A TVM list is nested pairs ending in null: [a, [b, [c, null]]]. */
function listToTuple(items: TupleItem[]): TupleItem {
  let tail: TupleItem = { type: 'null' };
  for (let i = items.length - 1; i >= 0; i--) tail = { type: 'tuple', items: [items[i], tail] };
  return tail;
}

function parseLegacyEntry(entry: unknown, depth: number, budget: InputBudget): TupleItem {
  const maxDepth = budget.maxDepth;
  if (depth >= maxDepth) throw inputDepthError(maxDepth);
  // Users mix up v3's {type, value} with v2's pairs; read it as the pair v3 forwards to v2.
  if (depth === 0 && isV3StackEntry(entry)) return parseLegacyEntry(v3EntryToLegacy(entry), depth, budget);
  spendEntry(budget);
  if (!Array.isArray(entry)) throw new ValidationError('Invalid stack entry: expected an array [type, value]');
  if (entry.length !== 2) throw new ValidationError(`Expected 2 elements in stack entry, got: ${entry.length}`);
  const [type, value] = entry as [unknown, unknown];
  if (typeof type !== 'string') throw new ValidationError('Expected string as first element in stack entry');
  switch (type) {
    case 'num':
    case 'number':
    case 'int':
    case 'integer':
      return { type: 'int', value: parseLegacyNumber(value) };
    case 'tvm.Cell':
      return { type: 'cell', cell: parseBocString(value, 'tvm.Cell', budget) };
    case 'tvm.Slice':
      return { type: 'slice', cell: parseBocString(value, 'tvm.Slice', budget) };
    case 'cell':
      return { type: 'cell', cell: parseBytesObject(value, 'cell', budget) };
    case 'slice':
      return { type: 'slice', cell: parseBytesObject(value, 'slice', budget) };
    case 'tuple':
    case 'tvm.Tuple':
      return {
        type: 'tuple',
        items: elementsOf(value, 'tvm.Tuple, valid tvm_stackEntryTuple expected').map((element) =>
          parseTypedEntry(element, depth + 1, budget),
        ),
      };
    case 'list':
    case 'tvm.List':
      return listToTuple(
        elementsOf(value, 'tvm.List, valid tvm_stackEntryList expected').map((element) => parseTypedEntry(element, depth + 1, budget)),
      );
    default:
      throw new ValidationError(`Unsupported stack entry type: ${quoteInput(type)}`);
  }
}

/** runGetMethod's input stack → @ton/core tuple items (first element = bottom of the stack). */
export function parseLegacyStack(stack: unknown, options: StackOptions = {}): TupleItem[] {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_STACK_DEPTH;
  if (!Array.isArray(stack)) throw new ValidationError('stack must be an array');
  if (stack.length > MAX_STACK_ENTRIES) spendEntry({ entries: -1, cells: 0, maxDepth });
  const budget = newInputBudget(maxDepth);
  return stack.map((entry) => parseLegacyEntry(entry, 0, budget));
}

function parseTypedEntry(entry: unknown, depth: number, budget: InputBudget): TupleItem {
  const maxDepth = budget.maxDepth;
  if (depth >= maxDepth) throw inputDepthError(maxDepth);
  spendEntry(budget);
  if (!isRecord(entry)) throw new ValidationError('Invalid stack entry: expected a tvm.StackEntry object');
  const type = entry['@type'];
  switch (type) {
    case 'tvm.stackEntryNumber': {
      const number = entry['number'];
      const text = isRecord(number) ? number['number'] : undefined;
      if (typeof text !== 'string') throw new ValidationError('Invalid tvm.stackEntryNumber, number.number expected');
      const value = parseTvmInteger(text);
      if (value === null) throw new ValidationError(`Invalid number: ${text}`);
      return { type: 'int', value };
    }
    case 'tvm.stackEntryCell':
      return { type: 'cell', cell: parseBytesObject(entry['cell'], 'tvm.stackEntryCell', budget) };
    case 'tvm.stackEntrySlice':
      return { type: 'slice', cell: parseBytesObject(entry['slice'], 'tvm.stackEntrySlice', budget) };
    case 'tvm.stackEntryTuple':
      return {
        type: 'tuple',
        items: elementsOf(entry['tuple'], 'tvm.stackEntryTuple').map((element) => parseTypedEntry(element, depth + 1, budget)),
      };
    case 'tvm.stackEntryList':
      return listToTuple(elementsOf(entry['list'], 'tvm.stackEntryList').map((element) => parseTypedEntry(element, depth + 1, budget)));
    default:
      throw new ValidationError(`Unsupported stack entry type: ${quoteInput(type)}`);
  }
}

/** runGetMethodStd's input stack (typed entries) → @ton/core tuple items. */
export function parseTypedStack(stack: unknown, options: StackOptions = {}): TupleItem[] {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_STACK_DEPTH;
  if (!Array.isArray(stack)) throw new ValidationError('stack must be an array');
  if (stack.length > MAX_STACK_ENTRIES) spendEntry({ entries: -1, cells: 0, maxDepth });
  const budget = newInputBudget(maxDepth);
  return stack.map((entry) => parseTypedEntry(entry, 0, budget));
}

/** tonlib's list test: null, or a 2-tuple whose second element is a list. */
function listElements(item: TupleItem): TupleItem[] | null {
  const elements: TupleItem[] = [];
  let node = item;
  for (;;) {
    if (node.type === 'null') return elements;
    if (node.type !== 'tuple' || node.items.length !== 2) return null;
    elements.push(node.items[0]);
    node = node.items[1];
  }
}

function integerText(item: TupleItem): string {
  return item.type === 'int' ? item.value.toString(10) : 'NaN';
}

function renderTypedEntry(item: TupleItem, depth: number, maxDepth: number): TvmStackEntryJson {
  if (depth >= maxDepth) throw depthError(maxDepth);
  switch (item.type) {
    case 'int':
    case 'nan':
      return {
        '@type': 'tvm.stackEntryNumber',
        number: { '@type': 'tvm.numberDecimal', number: integerText(item) },
      };
    case 'cell':
      return { '@type': 'tvm.stackEntryCell', cell: { '@type': 'tvm.cell', bytes: bocBase64(item.cell) } };
    case 'slice':
      return { '@type': 'tvm.stackEntrySlice', slice: { '@type': 'tvm.slice', bytes: bocBase64(item.cell) } };
    case 'null':
    case 'tuple': {
      const list = listElements(item);
      if (list) {
        return {
          '@type': 'tvm.stackEntryList',
          list: { '@type': 'tvm.list', elements: list.map((element) => renderTypedEntry(element, depth + 1, maxDepth)) },
        };
      }
      const items = item.type === 'tuple' ? item.items : [];
      return {
        '@type': 'tvm.stackEntryTuple',
        tuple: { '@type': 'tvm.tuple', elements: items.map((element) => renderTypedEntry(element, depth + 1, maxDepth)) },
      };
    }
    case 'builder':
      return { '@type': 'tvm.stackEntryUnsupported' };
  }
}

/** runGetMethodStd's output stack. */
export function renderTypedStack(items: TupleItem[], options: StackOptions = {}): TvmStackEntryJson[] {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_STACK_DEPTH;
  return items.map((item) => renderTypedEntry(item, 0, maxDepth));
}

function cellNodeOf(cell: Cell, padding: 'completion-tag' | 'zero'): LegacyCellObjectJson {
  return {
    data: { b64: paddedCellData(cell.bits, padding === 'completion-tag').toString('base64'), len: cell.bits.length },
    refs: [],
    special: cell.isExotic,
  };
}

/**
 * The legacy `object` tree of a cell: one node per path, as toncenter prints it, built with an
 * explicit work list (no recursion) and at most `budget.cellNodes` nodes (422 beyond).
 */
export function renderCellObject(
  cell: Cell,
  padding: 'completion-tag' | 'zero' = 'completion-tag',
  budget: RenderBudget = { cellNodes: MAX_RENDERED_CELL_NODES },
): LegacyCellObjectJson {
  const spendNode = () => {
    if (--budget.cellNodes < 0) {
      throw new ApiError(
        422,
        `result cell is too large for the legacy object form (more than ${MAX_RENDERED_CELL_NODES} cells counted per path); use runGetMethodStd`,
      );
    }
  };
  spendNode();
  const root = cellNodeOf(cell, padding);
  const pending: [Cell, LegacyCellObjectJson][] = [[cell, root]];
  while (pending.length > 0) {
    const [source, node] = pending.pop()!;
    for (const ref of source.refs) {
      spendNode();
      const child = cellNodeOf(ref, padding);
      node.refs.push(child);
      pending.push([ref, child]);
    }
  }
  return root;
}

function renderLegacyEntry(
  item: TupleItem,
  maxDepth: number,
  padding: 'completion-tag' | 'zero',
  budget: RenderBudget,
): LegacyStackEntryJson {
  switch (item.type) {
    case 'int':
      return ['num', toLegacyHex(item.value)];
    case 'nan':
      return ['num', 'NaN'];
    case 'cell':
    case 'slice':
      return ['cell', { bytes: bocBase64(item.cell), object: renderCellObject(item.cell, padding, budget) }];
    case 'null':
    case 'tuple': {
      const typed = renderTypedEntry(item, 0, maxDepth);
      if (typed['@type'] === 'tvm.stackEntryList') return ['list', typed.list];
      if (typed['@type'] === 'tvm.stackEntryTuple') return ['tuple', typed.tuple];
      return ['unsupported', ''];
    }
    case 'builder':
      return ['unsupported', ''];
  }
}

/** runGetMethod's output stack (first element = bottom of the stack, as the items are given). */
export function renderLegacyStack(items: TupleItem[], options: LegacyRenderOptions = {}): LegacyStackEntryJson[] {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_STACK_DEPTH;
  const padding = options.cellDataPadding ?? 'completion-tag';
  const budget: RenderBudget = { cellNodes: MAX_RENDERED_CELL_NODES };
  return items.map((item) => renderLegacyEntry(item, maxDepth, padding, budget));
}
