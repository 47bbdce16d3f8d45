import { Address, Cell, loadTransaction } from '@ton/core';
import type { LiteClient } from 'ton-lite-client';
import {
  CONFIG_GAS_PRICES_BASECHAIN,
  CONFIG_GAS_PRICES_MASTERCHAIN,
  CONFIG_MSG_PRICES_BASECHAIN,
  CONFIG_MSG_PRICES_MASTERCHAIN,
  CONFIG_STORAGE_PRICES,
  FeeBreakdown,
  gasFee,
  inboundForwardFee,
  outboundForwardFees,
  parseGasPrices,
  parseMsgPrices,
  parseStoragePrices,
  QueryFeesJson,
  storageFee,
  toQueryFees,
} from '../converters/fees';
import { ApiError } from '../errors';
import { readAccount, shardAccountCell } from './accountState';
import { configParam } from './chainConfig';
import { emulationContext, libraryCell } from './getMethod';

/**
 * estimateFee: the fees an inbound external message would cost its destination, computed as
 * tonlib's query.estimateFees does — import and storage fees from the account state and config,
 * gas from running the message (here: a whole transaction in the emulator, signature checks
 * optionally skipped), forward fees from the messages the run would send. A message the contract
 * does not accept costs no gas and sends nothing, as in tonlib.
 */
export async function estimateExternalMessageFees(
  client: LiteClient,
  address: Address,
  message: Cell,
  ignoreChksig: boolean,
): Promise<QueryFeesJson> {
  const read = await readAccount(client, address);
  const masterchain = address.workChain === -1;
  const state = read.account?.storage.state;
  const code = state?.type === 'active' ? (state.state.code ?? null) : null;
  const data = state?.type === 'active' ? (state.state.data ?? null) : null;
  const { config, executor, libraries } = await emulationContext(client, read, [code, data, message]);

  const msgPrices = {
    basechain: parseMsgPrices(configParam(config, CONFIG_MSG_PRICES_BASECHAIN)),
    masterchain: parseMsgPrices(configParam(config, CONFIG_MSG_PRICES_MASTERCHAIN)),
  };
  const gasPrices = parseGasPrices(configParam(config, masterchain ? CONFIG_GAS_PRICES_MASTERCHAIN : CONFIG_GAS_PRICES_BASECHAIN));
  const storage = read.account
    ? storageFee({
        now: read.syncUtime,
        lastPaid: read.account.storageStats.lastPaid,
        cells: read.account.storageStats.used.cells,
        bits: read.account.storageStats.used.bits,
        masterchain,
        prices: parseStoragePrices(configParam(config, CONFIG_STORAGE_PRICES)),
      })
    : 0n;

  let emulation;
  try {
    emulation = await executor.runTransaction({
      message,
      shardAccount: shardAccountCell(read).toBoc().toString('base64'),
      config: config.base64,
      libs: libraryCell(libraries) ?? null,
      verbosity: 'short',
      now: read.syncUtime,
      lt: (read.lastTransaction?.lt ?? 0n) + 1_000_000n,
      randomSeed: null,
      ignoreChksig,
      debugEnabled: false,
    });
  } catch (err) {
    throw new ApiError(500, `cannot emulate the message: ${err instanceof Error ? err.message : String(err)}`);
  }

  const fees: FeeBreakdown = {
    inForwardFee: inboundForwardFee(message, msgPrices[masterchain ? 'masterchain' : 'basechain']),
    storageFee: storage,
    gasFee: 0n,
    forwardFee: 0n,
  };
  const result = emulation.result;
  if (result.success) {
    const tx = loadTransaction(Cell.fromBase64(result.transaction).beginParse());
    const description = tx.description;
    if (description.type === 'generic' && description.computePhase.type === 'vm') {
      fees.gasFee = gasFee(description.computePhase.gasUsed, gasPrices);
    }
    fees.forwardFee = outboundForwardFees(result.actions ? Cell.fromBase64(result.actions) : null, msgPrices, masterchain);
  }
  return toQueryFees(fees);
}
