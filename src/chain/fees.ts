import { Address, Cell, loadTransaction } from '@ton/core';
import { FeeBreakdown, QueryFeesJson, toQueryFees } from '../converters';
import {
  CONFIG_GAS_PRICES_BASECHAIN,
  CONFIG_GAS_PRICES_MASTERCHAIN,
  CONFIG_MSG_PRICES_BASECHAIN,
  CONFIG_MSG_PRICES_MASTERCHAIN,
  CONFIG_STORAGE_PRICES,
  loadGasPrices,
  loadMsgPrices,
  loadStoragePrices,
} from '../tlb';
import { forwardFee, gasFee, outboundForwardFees, storageFee } from './feeArithmetic';
import { type BuiltMessage, tvmPool } from '../tvm';
import { accountAt, shardAccountCell } from './accounts';
import { requiredConfigParam as configParam } from './config';
import { emulationContext, libraryBoc } from './getMethods';
import type { ChainSession, McBlock } from '../proofs';

/**
 * estimateFee: the fees an inbound external message would cost its destination, computed as
 * tonlib's query.estimateFees does — import and storage fees from the account state and config,
 * gas from running the message (here: a whole transaction in the emulator, signature checks
 * optionally skipped, in a TVM worker thread), forward fees from the messages the run would send.
 * A message the contract does not accept costs no gas and sends nothing, as in tonlib. Everything
 * is read at masterchain block `block` (the request's head).
 */
export async function estimateFeeAt(
  session: ChainSession,
  block: McBlock,
  args: { address: Address; message: BuiltMessage; ignoreChksig: boolean; deadline: number },
): Promise<QueryFeesJson> {
  const { address, message, ignoreChksig, deadline } = args;
  const read = await accountAt(session, block, address);
  const masterchain = address.workChain === -1;
  const state = read.account?.storage.state;
  const code = state?.type === 'active' ? (state.state.code ?? null) : null;
  const data = state?.type === 'active' ? (state.state.data ?? null) : null;
  const { config, libraries } = await emulationContext(session, read, [code, data], message.libraries);
  tvmPool().admitGlobalVersion(config.globalVersion);

  const msgPrices = {
    basechain: loadMsgPrices(configParam(config, CONFIG_MSG_PRICES_BASECHAIN)),
    masterchain: loadMsgPrices(configParam(config, CONFIG_MSG_PRICES_MASTERCHAIN)),
  };
  const gasPrices = loadGasPrices(configParam(config, masterchain ? CONFIG_GAS_PRICES_MASTERCHAIN : CONFIG_GAS_PRICES_BASECHAIN));
  const storage = read.account
    ? storageFee({
        now: read.syncUtime,
        lastPaid: read.account.storageStats.lastPaid,
        cells: read.account.storageStats.used.cells,
        bits: read.account.storageStats.used.bits,
        masterchain,
        prices: loadStoragePrices(configParam(config, CONFIG_STORAGE_PRICES)),
      })
    : 0n;

  const libs = libraryBoc(libraries);
  const emulation = await tvmPool().transaction(
    {
      message: message.boc,
      shardAccount: shardAccountCell(read).toBoc(),
      config: config.base64,
      ...(libs ? { libs } : {}),
      now: read.syncUtime,
      lt: ((read.lastTransaction?.lt ?? 0n) + 1_000_000n).toString(),
      ignoreChksig,
    },
    deadline,
  );

  const fees: FeeBreakdown = {
    // The import fee (inboundForwardFee's rule), from the measure the worker took of the message.
    inForwardFee: forwardFee(msgPrices[masterchain ? 'masterchain' : 'basechain'], message.refCells, message.refBits),
    storageFee: storage,
    gasFee: 0n,
    forwardFee: 0n,
  };
  if (emulation.transaction) {
    const tx = loadTransaction(Cell.fromBoc(Buffer.from(emulation.transaction))[0]!.beginParse());
    const description = tx.description;
    if (description.type === 'generic' && description.computePhase.type === 'vm') {
      fees.gasFee = gasFee(description.computePhase.gasUsed, gasPrices);
    }
    fees.forwardFee = outboundForwardFees(
      emulation.actions ? Cell.fromBoc(Buffer.from(emulation.actions))[0]! : null,
      msgPrices,
      masterchain,
    );
  }
  return toQueryFees(fees);
}
