import { Cell } from '@ton/core';
import { bocBase64 } from './boc';
import { TvmCellJson } from './stack';

/** getConfigParam / getConfigAll (`configInfo`) and the `tvm.cell` wrapper (also getShardAccountCell). */

export interface ConfigInfoJson {
  '@type': 'configInfo';
  config: TvmCellJson;
}

export function toTvmCell(cell: Cell): TvmCellJson {
  return { '@type': 'tvm.cell', bytes: bocBase64(cell) };
}

/** The cell of one parameter's value (getConfigParam) or the whole config dictionary (getConfigAll). */
export function toConfigInfo(cell: Cell): ConfigInfoJson {
  return { '@type': 'configInfo', config: toTvmCell(cell) };
}
