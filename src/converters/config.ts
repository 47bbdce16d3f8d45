import { Cell } from '@ton/core';
import { bocBase64, optionalBocBase64 } from '../cells';
import { TvmCellJson } from './stack';

/** getConfigParam / getConfigAll (`configInfo`) and the `tvm.cell` wrapper (also getShardAccountCell). */

export interface ConfigInfoJson {
  '@type': 'configInfo';
  config: TvmCellJson;
}

export function toTvmCell(cell: Cell): TvmCellJson {
  return { '@type': 'tvm.cell', bytes: bocBase64(cell) };
}

/**
 * The cell of one parameter's value (getConfigParam) or the whole config dictionary (getConfigAll).
 * A parameter the config does not have is `null`, which tonlib prints as a tvm.cell with bytes "".
 */
export function toConfigInfo(cell: Cell | null): ConfigInfoJson {
  return { '@type': 'configInfo', config: cell ? toTvmCell(cell) : { '@type': 'tvm.cell', bytes: optionalBocBase64(null) } };
}
