import type { Address } from '@ton/core';
import type { LiteClient } from 'ton-lite-client';
import { accountAt, accountAtSeqno, chainSessionOf, type McBlock } from '../chain';

/**
 * The account reads of src/chain in the LiteClient form the get-method code (getMethod, fees, dns,
 * tokenData) still calls; they go through the request's chain session. Goes away when that code
 * moves into src/chain.
 */
export type { AccountRead } from '../chain';
export { shardAccountCell } from '../chain';

export function readAccount(client: LiteClient, address: Address, seqno?: number) {
  return accountAtSeqno(chainSessionOf(client), address, seqno);
}

export function readAccountAtBlock(client: LiteClient, address: Address, block: McBlock) {
  return accountAt(chainSessionOf(client), block, address);
}
