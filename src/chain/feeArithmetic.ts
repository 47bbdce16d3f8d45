import { Cell, loadCommonMessageInfoRelaxed, Slice } from '@ton/core';
import { cellStats } from '../cells';
import type { GasPrices, MsgPrices, StoragePrices } from '../tlb';

/**
 * The fee arithmetic tonlib's `query.estimateFees` applies to an external message: import
 * (in-forward) fee, storage fee since the last payment, gas fee of the computation and forward
 * fees of the messages it sends.
 */

/** x / 2^16 rounded up, as the node rounds every fee. */
function shr16ceil(value: bigint): bigint {
  return (value + 0xffffn) >> 16n;
}

/** `compute_gas_price`: the flat part covers up to flat_gas_limit, the rest is charged per unit. */
export function gasFee(gasUsed: bigint, prices: GasPrices): bigint {
  if (gasUsed <= prices.flatGasLimit) return prices.flatGasPrice;
  return prices.flatGasPrice + shr16ceil(prices.gasPrice * (gasUsed - prices.flatGasLimit));
}

/** `compute_fwd_fees`: lump price plus the per-bit and per-cell prices. */
export function forwardFee(prices: MsgPrices, cells: bigint, bits: bigint): bigint {
  return prices.lumpPrice + shr16ceil(prices.bitPrice * bits + prices.cellPrice * cells);
}

/** The import fee of an inbound external message: its cells and bits except the root cell's own. */
export function inboundForwardFee(message: Cell, prices: MsgPrices): bigint {
  const stats = cellStats(message.refs);
  return forwardFee(prices, stats.cells, stats.bits);
}

export interface StorageFeeInput {
  /** When the fee is due (tonlib: the state's sync_utime). */
  now: number;
  lastPaid: number;
  cells: bigint;
  bits: bigint;
  masterchain: boolean;
  prices: StoragePrices[];
}

/**
 * Storage rent from `lastPaid` to `now` over every price period in between, rounded up once.
 * (@ton/ton's computeStorageFees charges again for periods before `lastPaid`, so it is not used.)
 */
export function storageFee(input: StorageFeeInput): bigint {
  const prices = [...input.prices].sort((a, b) => a.utime_since - b.utime_since);
  // As the node: nothing is due without a last payment time or before the first price period.
  if (input.now <= input.lastPaid || input.lastPaid === 0 || prices.length === 0 || input.now <= prices[0].utime_since) return 0n;
  let total = 0n;
  let upto = Math.max(input.lastPaid, prices[0].utime_since);
  for (let i = 0; i < prices.length && upto < input.now; i++) {
    const until = i + 1 < prices.length ? Math.min(input.now, prices[i + 1].utime_since) : input.now;
    if (upto < until) {
      const price = prices[i];
      const bitPrice = input.masterchain ? price.mc_bit_price_ps : price.bit_price_ps;
      const cellPrice = input.masterchain ? price.mc_cell_price_ps : price.cell_price_ps;
      total += (input.bits * bitPrice + input.cells * cellPrice) * BigInt(until - upto);
      upto = until;
    }
  }
  return shr16ceil(total);
}

const ACTION_SEND_MSG = 0x0ec3c86d;
const MAX_ACTIONS = 255;

/** The cells of the `action_send_msg` messages of an output action list (c5), in sending order. */
export function sentMessages(actions: Cell): Cell[] {
  const nodes: Cell[] = [];
  let node = actions;
  while (node.refs.length > 0 && nodes.length <= MAX_ACTIONS) {
    nodes.push(node);
    node = node.refs[0];
  }
  const messages: Cell[] = [];
  for (const entry of nodes.reverse()) {
    const slice = entry.beginParse();
    if (slice.remainingBits >= 32 + 8 && slice.loadUint(32) === ACTION_SEND_MSG && entry.refs.length >= 2) messages.push(entry.refs[1]);
  }
  return messages;
}

/**
 * Forward fees of the messages an execution sends: per message its StateInit and body cells (not
 * the message's root cell), at masterchain prices when either end is in the masterchain.
 */
export function outboundForwardFees(
  actions: Cell | null,
  prices: { basechain: MsgPrices; masterchain: MsgPrices },
  fromMasterchain: boolean,
): bigint {
  if (!actions) return 0n;
  let total = 0n;
  for (const message of sentMessages(actions)) {
    let toMasterchain = false;
    let rest: Slice;
    try {
      rest = message.beginParse();
      const info = loadCommonMessageInfoRelaxed(rest);
      toMasterchain = info.type === 'internal' && info.dest.workChain === -1;
    } catch {
      continue;
    }
    const parts: Cell[] = [];
    while (rest.remainingRefs > 0) parts.push(rest.loadRef());
    const stats = cellStats(parts);
    total += forwardFee(fromMasterchain || toMasterchain ? prices.masterchain : prices.basechain, stats.cells, stats.bits);
  }
  return total;
}
