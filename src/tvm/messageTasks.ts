import type { Address } from '@ton/core';
import type { ExtMessageInfoJson } from '../converters';
import { invalid } from '../errors';
import { checkBocBounds } from '../params';
import { type BuiltMessage, tvmPool } from './pool';

/**
 * Client BoCs on their way to a lite server, handled in a worker thread: decoding one hashes every
 * cell (an 8 192-cell BoC is ~0.5 s of CPU), which must not stall the event loop. The event loop
 * only scans the bytes for the bounds, a linear pass that builds no cells.
 */

/** The cheap part, for a handler's `validate`: non-empty and within the cell-count and depth bounds. */
export function checkSendableBoc(boc: Buffer): void {
  if (boc.length === 0) invalid('empty boc');
  checkBocBounds('boc', boc);
}

/** Checks that `boc` is one inbound external message (422 otherwise) and answers its hashes. */
export async function externalMessageInfo(boc: Buffer, deadline: number): Promise<ExtMessageInfoJson> {
  const answer = await tvmPool().externalMessage(boc, deadline);
  return { '@type': 'raw.extMessageInfo', hash: answer.hash, hash_norm: answer.hashNorm };
}

/** The message sendQuery and estimateFee build from their parameters (422 for bad parts). */
export function buildQueryMessage(
  address: Address,
  body: Buffer,
  initCode: Buffer,
  initData: Buffer,
  deadline: number,
): Promise<BuiltMessage> {
  return tvmPool().queryMessage({ address: address.toRawString(), body, initCode, initData }, deadline);
}
