import { Address, beginCell, Builder, Cell, loadMessage, StateInit, storeStateInit } from '@ton/core';
import { ApiError, invalid } from '../errors';
import { decodeBoundedBoc, MAX_BOC_CELLS, MAX_MESSAGE_PART_DEPTH } from '../params';

/**
 * Inbound external messages: checking a BoC a client wants sent, building one from parts
 * (sendQuery, estimateFee, as tonlib's raw.createQuery does); sending is the pool's (liteclient/fanout.ts).
 */

/**
 * The single root of `boc`, which must be an inbound external message (422 otherwise). Decoding
 * hashes every cell: for a client's BoC it runs in a worker thread (messageTasks.ts).
 */
export function parseExternalMessage(boc: Buffer): Cell {
  let roots: Cell[];
  try {
    roots = decodeBoundedBoc('boc', boc);
  } catch (err) {
    if (err instanceof ApiError) throw err;
    invalid(`boc is not a valid bag of cells: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (roots.length !== 1) invalid(`boc must have exactly one root cell, it has ${roots.length}`);
  const root = roots[0];
  let type: string;
  try {
    type = loadMessage(root.beginParse()).info.type;
  } catch (err) {
    invalid(`boc is not a message: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (type !== 'external-in') invalid(`boc is an ${type} message; only inbound external messages can be sent`);
  return root;
}

/** A cell from a BoC parameter (body, init code, init data), or null for an empty one. */
export function parseCellParam(name: string, boc: Buffer): Cell | null {
  if (boc.length === 0) return null;
  try {
    const roots = decodeBoundedBoc(name, boc, MAX_BOC_CELLS, MAX_MESSAGE_PART_DEPTH);
    if (roots.length !== 1) invalid(`${name} must have exactly one root cell, it has ${roots.length}`);
    return roots[0];
  } catch (err) {
    if (err instanceof ApiError) throw err;
    invalid(`${name} is not a valid bag of cells: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** tonlib attaches a StateInit only when init code or data is given. */
export function stateInitOf(code: Cell | null, data: Cell | null): StateInit | null {
  return code || data ? { code, data } : null;
}

function fits(builder: Builder, bits: number, refs: number): boolean {
  return builder.availableBits >= bits && builder.availableRefs >= refs;
}

/**
 * `ext_in_msg_info` from addr_none to `address` with zero import fee; StateInit and body inline
 * when they fit the root cell, in references otherwise.
 */
export function buildExternalMessage(address: Address, body: Cell, init: StateInit | null): Cell {
  const builder = beginCell().storeUint(0b10, 2).storeUint(0b00, 2).storeAddress(address).storeCoins(0);
  const initCell = init ? beginCell().store(storeStateInit(init)).endCell() : null;
  if (!initCell) {
    builder.storeBit(0);
  } else if (fits(builder, 2 + initCell.bits.length + 1 + body.bits.length, initCell.refs.length + body.refs.length)) {
    builder.storeBit(1).storeBit(0).storeSlice(initCell.beginParse());
  } else {
    builder.storeBit(1).storeBit(1).storeRef(initCell);
  }
  if (fits(builder, 1 + body.bits.length, body.refs.length)) builder.storeBit(0).storeSlice(body.beginParse());
  else builder.storeBit(1).storeRef(body);
  return builder.endCell();
}

/**
 * The external message sendQuery and estimateFee build from their parameters; bad or empty BoCs
 * are 422s, raised before any lite-server work.
 */
export function queryMessage(address: Address, bodyBoc: Buffer, initCodeBoc: Buffer, initDataBoc: Buffer): Cell {
  const body = parseCellParam('body', bodyBoc);
  if (!body) invalid('empty body');
  const init = stateInitOf(parseCellParam('init_code', initCodeBoc), parseCellParam('init_data', initDataBoc));
  return buildExternalMessage(address, body, init);
}
