import { Address, Dictionary, type Cell, type TupleItem } from '@ton/core';
import { rawAddressUpper, stackAddress, stackInt } from '../converters';
import type { LoadedContract } from '../chain';
import type { MultisigOrderRow, MultisigRow, VestingRow } from '../indexdb';
import { okStack, runQuiet } from './getMethodRuns';

/**
 * Multisig v2 (ton-blockchain/multisig-contract-v2) and vesting (ton-blockchain/vesting-contract)
 * detection, as toncenter's index worker does it (tondb-scanner smc-interfaces Multisig.cpp and
 * Vesting.cpp): `get_multisig_data` makes a multisig; `get_order_data` makes an order, counted only
 * when its multisig's `get_order_address(order_seqno)` gives this address back; `get_vesting_data`
 * makes a vesting contract, run only on the vesting code toncenter knows (its hash below).
 */

/** The vesting wallet's code hash (toncenter's VESTING_CONTRACT_CODE_HASH, mainnet's). */
export const VESTING_CODE_HASH = 'b48b531abec3b714638291f7d77ed6dc9f6a2729efca20477137374d4ae8b590';

/** What every detected row carries of the account's state. */
export interface StateBase {
  readonly address: string;
  readonly last_transaction_lt: bigint;
  readonly code_hash: Buffer;
  readonly data_hash: Buffer;
}

/** A `Hashmap 8 MsgAddressInt` (signers, proposers) in key order; undefined when it is not one. */
function addressList(cell: Cell | null): string[] | undefined {
  if (!cell) return [];
  try {
    const dict = Dictionary.loadDirect(Dictionary.Keys.Uint(8), Dictionary.Values.Address(), cell);
    return [...dict.keys()].sort((a, b) => a - b).map((k) => rawAddressUpper(dict.get(k)!));
  } catch {
    return undefined;
  }
}

/** A stack entry that is a cell, or null (an empty dictionary); undefined for anything else. */
function cellOrNull(item: TupleItem | undefined): Cell | null | undefined {
  if (item?.type === 'null') return null;
  return item?.type === 'cell' ? item.cell : undefined;
}

export async function readMultisig(contract: LoadedContract, base: StateBase): Promise<MultisigRow | undefined> {
  const stack = okStack(await runQuiet(contract, 'get_multisig_data', []), 4);
  const next = stackInt(stack?.[0]);
  const threshold = stackInt(stack?.[1]);
  const signers = addressList(cellOrNull(stack?.[2]) ?? null);
  const proposersCell = cellOrNull(stack?.[3]);
  const proposers = proposersCell === undefined ? undefined : addressList(proposersCell);
  if (next === undefined || threshold === undefined || !signers || !proposers || cellOrNull(stack?.[2]) === undefined) return undefined;
  return { ...base, next_order_seqno: next.toString(), threshold: Number(threshold), signers, proposers };
}

/** An order's fields, before its multisig confirmed it. */
export interface OrderClaim {
  readonly row: MultisigOrderRow;
  readonly multisig: Address;
  readonly seqno: bigint;
}

export async function readMultisigOrder(contract: LoadedContract, base: StateBase): Promise<OrderClaim | undefined> {
  const stack = okStack(await runQuiet(contract, 'get_order_data', []), 9);
  if (!stack) return undefined;
  const multisig = stackAddress(stack[0]);
  const [seqno, threshold, sent, mask, num, expiration] = [1, 2, 3, 5, 6, 7].map((i) => stackInt(stack[i]));
  const signersCell = stack[4]?.type === 'cell' ? stack[4].cell : undefined;
  const order = stack[8]?.type === 'cell' ? stack[8].cell : undefined;
  const signers = signersCell ? addressList(signersCell) : undefined;
  if (!(multisig instanceof Address) || seqno === undefined || threshold === undefined || sent === undefined) return undefined;
  if (mask === undefined || num === undefined || expiration === undefined || !order || !signers) return undefined;
  return {
    multisig,
    seqno,
    row: {
      ...base,
      multisig_address: rawAddressUpper(multisig),
      order_seqno: seqno.toString(),
      threshold: Number(threshold),
      sent_for_execution: sent !== 0n,
      approvals_mask: mask.toString(),
      approvals_num: Number(num),
      expiration_date: expiration.toString(),
      order_boc: order.toBoc().toString('base64'),
      signers,
    },
  };
}

/** The multisig's own answer: does `get_order_address(seqno)` name `order`? */
export async function multisigConfirmsOrder(multisig: LoadedContract, seqno: bigint, order: string): Promise<boolean> {
  const stack = okStack(await runQuiet(multisig, 'get_order_address', [{ type: 'int', value: seqno }]), 1);
  const given = stackAddress(stack?.[0]);
  return given instanceof Address && rawAddressUpper(given) === order;
}

/** The whitelist dictionary (264-bit keys: workchain int8 and account id) as raw addresses. */
function whitelist(cell: Cell | null): string[] | undefined {
  if (!cell) return [];
  try {
    const dict = Dictionary.loadDirect(Dictionary.Keys.Buffer(33), Dictionary.Values.Bool(), cell);
    return dict.keys().map((key) => rawAddressUpper(new Address(key.readInt8(0), key.subarray(1))));
  } catch {
    return undefined;
  }
}

export async function readVesting(contract: LoadedContract, base: StateBase): Promise<VestingRow | undefined> {
  if (base.code_hash.toString('hex') !== VESTING_CODE_HASH) return undefined;
  const stack = okStack(await runQuiet(contract, 'get_vesting_data', []), 8);
  if (!stack) return undefined;
  const [start, duration, period, cliff, total] = [0, 1, 2, 3, 4].map((i) => stackInt(stack[i]));
  const sender = stackAddress(stack[5]);
  const owner = stackAddress(stack[6]);
  const list = cellOrNull(stack[7]);
  const addresses = list === undefined ? undefined : whitelist(list);
  if (start === undefined || duration === undefined || period === undefined || cliff === undefined || total === undefined) return undefined;
  if (!(sender instanceof Address) || !(owner instanceof Address) || !addresses) return undefined;
  return {
    ...base,
    vesting_start_time: Number(start),
    vesting_total_duration: Number(duration),
    unlock_period: Number(period),
    cliff_duration: Number(cliff),
    vesting_total_amount: total.toString(),
    vesting_sender_address: rawAddressUpper(sender),
    owner_address: rawAddressUpper(owner),
    whitelist: addresses,
  };
}
