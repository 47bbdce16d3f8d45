/**
 * Result stacks in runGetMethod's legacy form: numbers as hex, cells and slices as
 * `["cell", {bytes, object}]` with the cell's `object` tree, tuples and lists as typed entries.
 */
import { Cell, TupleItem } from '@ton/core';
import { ApiError } from '../../errors';
import { bocBase64, paddedCellData } from '../../cells';
import { renderTypedEntry } from './typedRender';
import { DEFAULT_MAX_STACK_DEPTH, LegacyCellObjectJson, LegacyStackEntryJson, StackOptions } from './types';

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

/** Number as the legacy output prints it: lowercase hex, `0x0`, `-0x…`. */
export function toLegacyHex(value: bigint): string {
  return value < 0n ? `-0x${(-value).toString(16)}` : `0x${value.toString(16)}`;
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
