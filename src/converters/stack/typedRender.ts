/** Result stacks as tonlib's typed `tvm.stackEntry*` (runGetMethodStd, and legacy tuples/lists). */
import { TupleItem } from '@ton/core';
import { ApiError } from '../../errors';
import { bocBase64 } from '../../cells';
import { DEFAULT_MAX_STACK_DEPTH, StackOptions, TvmStackEntryJson } from './types';

/** A result nested too deep: toncenter's 533 (the contract's doing, not the caller's). */
function depthError(maxDepth: number): ApiError {
  return new ApiError(533, `Result stack depth >= ${maxDepth}`);
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

export function renderTypedEntry(item: TupleItem, depth: number, maxDepth: number): TvmStackEntryJson {
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
