/**
 * Input stacks (runGetMethod's `[type, value]` pairs, runGetMethodStd's typed entries) read into
 * @ton/core tuple items, bounded while the JSON is read.
 */
import { Cell, TupleItem } from '@ton/core';
import { ApiError, ValidationError } from '../../errors';
import { checkBocBounds, checkCellDepth, MAX_STACK_CELL_DEPTH, MAX_STACK_CELLS, MAX_STACK_ENTRIES, quoteInput } from '../../params';
import { isV3StackEntry, v3EntryToLegacy } from './v3Input';
import { DEFAULT_MAX_STACK_DEPTH, StackOptions } from './types';

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
