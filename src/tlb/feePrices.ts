import type { Cell } from '@ton/core';
// The config parser module alone: @ton/ton's index also loads its HTTP clients and contracts
// (axios, zod...), ~14 MB of memory in the server and in every TVM thread for nothing.
import { configParse18, configParseMsgPrices, type MsgPrices, type StoragePrices } from '@ton/ton/dist/config/ConfigParser';

/** The fee prices of the config: parameters 18 (storage), 20/21 (gas) and 24/25 (messages). */

export type { MsgPrices, StoragePrices };

/** Config parameter ids. */
export const CONFIG_STORAGE_PRICES = 18;
export const CONFIG_GAS_PRICES_MASTERCHAIN = 20;
export const CONFIG_GAS_PRICES_BASECHAIN = 21;
export const CONFIG_MSG_PRICES_MASTERCHAIN = 24;
export const CONFIG_MSG_PRICES_BASECHAIN = 25;

export interface GasPrices {
  flatGasLimit: bigint;
  flatGasPrice: bigint;
  /** nanotons per gas unit, times 2^16. */
  gasPrice: bigint;
}

/** `gas_flat_pfx#d1` wrapping `gas_prices_ext#de` or `gas_prices#dd` (config 20/21). */
export function loadGasPrices(cell: Cell): GasPrices {
  const slice = cell.beginParse();
  let flatGasLimit = 0n;
  let flatGasPrice = 0n;
  let tag = slice.loadUint(8);
  if (tag === 0xd1) {
    flatGasLimit = slice.loadUintBig(64);
    flatGasPrice = slice.loadUintBig(64);
    tag = slice.loadUint(8);
  }
  if (tag !== 0xde && tag !== 0xdd) throw new Error(`unknown gas prices tag 0x${tag.toString(16)}`);
  return { flatGasLimit, flatGasPrice, gasPrice: slice.loadUintBig(64) };
}

export function loadMsgPrices(cell: Cell): MsgPrices {
  return configParseMsgPrices(cell.beginParse());
}

export function loadStoragePrices(cell: Cell): StoragePrices[] {
  return configParse18(cell.beginParse());
}
