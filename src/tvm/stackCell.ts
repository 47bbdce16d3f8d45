import { beginCell, Builder, Cell, Slice, TupleItem } from '@ton/core';
import { ApiError } from '../errors';

/**
 * Get-method stacks as the TVM takes and gives them: a `VmStack` cell
 * (`vm_stack#_ depth:(## 24) stack:(VmStackList depth)`, each list cell holding the rest by
 * reference and one value). Both directions run in linear time and walk the list with a loop;
 * only tuple nesting recurses, and callers bound it (`maxDepth`).
 */

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

function tooDeep(maxDepth: number): ApiError {
  return new ApiError('resultTooDeep', `Result stack depth >= ${maxDepth}`);
}

// vm_tupref_nil / single / any and vm_tuple_tcons: a tuple of n values is a chain of n-1 pairs.
function storeTuple(items: readonly TupleItem[], builder: Builder, depth: number, maxDepth: number): void {
  let head: Cell | null = null;
  let tail: Cell | null = null;
  for (let i = 0; i < items.length; i++) {
    const swap: Cell | null = head;
    head = tail;
    tail = swap;
    if (i > 1) head = beginCell().storeRef(tail!).storeRef(head!).endCell();
    const value = beginCell();
    storeStackValue(items[i]!, value, depth + 1, maxDepth);
    tail = value.endCell();
  }
  builder.storeUint(0x07, 8).storeUint(items.length, 16);
  if (head) builder.storeRef(head);
  if (tail) builder.storeRef(tail);
}

function storeStackValue(item: TupleItem, builder: Builder, depth: number, maxDepth: number): void {
  if (depth >= maxDepth) throw tooDeep(maxDepth);
  switch (item.type) {
    case 'null':
      builder.storeUint(0x00, 8);
      return;
    case 'int':
      if (item.value >= INT64_MIN && item.value <= INT64_MAX) builder.storeUint(0x01, 8).storeInt(item.value, 64);
      else builder.storeUint(0x0100, 15).storeInt(item.value, 257);
      return;
    case 'nan':
      builder.storeInt(0x02ff, 16);
      return;
    case 'cell':
      builder.storeUint(0x03, 8).storeRef(item.cell);
      return;
    case 'slice':
      builder
        .storeUint(0x04, 8)
        .storeUint(0, 10)
        .storeUint(item.cell.bits.length, 10)
        .storeUint(0, 3)
        .storeUint(item.cell.refs.length, 3)
        .storeRef(item.cell);
      return;
    case 'builder':
      builder.storeUint(0x05, 8).storeRef(item.cell);
      return;
    case 'tuple':
      storeTuple(item.items, builder, depth, maxDepth);
      return;
  }
}

/** `items` (bottom of the stack first) as a VmStack cell. */
export function serializeStackCell(items: readonly TupleItem[], maxDepth = 256): Cell {
  let rest = Cell.EMPTY;
  for (let i = 0; i < items.length - 1; i++) {
    const cell = beginCell().storeRef(rest);
    storeStackValue(items[i]!, cell, 0, maxDepth);
    rest = cell.endCell();
  }
  const root = beginCell().storeUint(items.length, 24);
  if (items.length > 0) {
    root.storeRef(rest);
    storeStackValue(items[items.length - 1]!, root, 0, maxDepth);
  }
  return root.endCell();
}

/** Counts the values read, so a result with more than `maxEntries` stops early. */
interface ParseBudget {
  entries: number;
  readonly maxEntries: number;
  readonly maxDepth: number;
}

function spend(budget: ParseBudget): void {
  if (++budget.entries > budget.maxEntries) {
    throw new ApiError('badInput', `result stack has more than ${budget.maxEntries} entries; it is not rendered`);
  }
}

function loadTuple(cs: Slice, depth: number, budget: ParseBudget): TupleItem {
  const length = cs.loadUint(16);
  const items: TupleItem[] = new Array<TupleItem>(length);
  if (length === 1) items[0] = loadStackValue(cs.loadRef().beginParse(), depth + 1, budget);
  else if (length > 1) {
    // Walk the pair chain from the last value down to the first, iteratively.
    let head = cs.loadRef().beginParse();
    items[length - 1] = loadStackValue(cs.loadRef().beginParse(), depth + 1, budget);
    for (let i = length - 2; i > 0; i--) {
      const pair = head;
      head = pair.loadRef().beginParse();
      items[i] = loadStackValue(pair.loadRef().beginParse(), depth + 1, budget);
    }
    items[0] = loadStackValue(head, depth + 1, budget);
  }
  return { type: 'tuple', items };
}

function loadSlice(cs: Slice): TupleItem {
  const startBits = cs.loadUint(10);
  const endBits = cs.loadUint(10);
  const startRefs = cs.loadUint(3);
  const endRefs = cs.loadUint(3);
  const source = cs.loadRef().beginParse(true);
  source.skip(startBits);
  const builder = beginCell().storeBits(source.loadBits(endBits - startBits));
  for (let i = 0; i < startRefs; i++) source.loadRef();
  for (let i = startRefs; i < endRefs; i++) builder.storeRef(source.loadRef());
  return { type: 'slice', cell: builder.endCell() };
}

function loadStackValue(cs: Slice, depth: number, budget: ParseBudget): TupleItem {
  if (depth >= budget.maxDepth) throw tooDeep(budget.maxDepth);
  spend(budget);
  const kind = cs.loadUint(8);
  switch (kind) {
    case 0x00:
      return { type: 'null' };
    case 0x01:
      return { type: 'int', value: cs.loadIntBig(64) };
    case 0x02:
      if (cs.loadUint(7) === 0) return { type: 'int', value: cs.loadIntBig(257) };
      cs.loadBit();
      return { type: 'nan' };
    case 0x03:
      return { type: 'cell', cell: cs.loadRef() };
    case 0x04:
      return loadSlice(cs);
    case 0x05:
      return { type: 'builder', cell: cs.loadRef() };
    case 0x07:
      return loadTuple(cs, depth, budget);
    default:
      // Continuations (0x06) and anything newer: tonlib shows them as unsupported entries.
      return { type: 'builder', cell: Cell.EMPTY };
  }
}

export interface StackParseOptions {
  /** Values at every level; more is a 422. */
  readonly maxEntries?: number;
  /** Tuple nesting; deeper is toncenter's 533. */
  readonly maxDepth?: number;
}

/** A VmStack cell → items, bottom of the stack first. */
export function parseStackCell(root: Cell, options: StackParseOptions = {}): TupleItem[] {
  const budget: ParseBudget = { entries: 0, maxEntries: options.maxEntries ?? Number.MAX_SAFE_INTEGER, maxDepth: options.maxDepth ?? 256 };
  let cs = root.beginParse();
  const size = cs.loadUint(24);
  const topFirst: TupleItem[] = [];
  for (let i = 0; i < size; i++) {
    const rest = cs.loadRef();
    topFirst.push(loadStackValue(cs, 0, budget));
    cs = rest.beginParse();
  }
  return topFirst.reverse();
}
