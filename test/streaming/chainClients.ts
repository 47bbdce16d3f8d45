import { Address, beginCell, Cell, loadMessage } from '@ton/core';
import WebSocket from 'ws';
import { HARNESS_DEADLINE_MS, withLiteClient } from '../helpers/sessionClient';
import { signedTransfer, type SignedTransfer } from '../helpers/v2Calls';
import type { LocalStack } from '../helpers/localStack';

/** Real clients of a local stack's streaming and v2 APIs, shared by the streaming suites on the embedded chain. */

/** Sends a signed transfer with sendBocReturnHash and waits for its block; returns v2's hash and hash_norm. */
export async function sendSigned(stack: LocalStack, signed: SignedTransfer): Promise<{ hash: string; hash_norm: string }> {
  const boc = signed.message.toBoc().toString('base64');
  const res = await fetch(`${stack.api}/sendBocReturnHash`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ boc }) });
  const json = (await res.json()) as { ok: boolean; result: { hash: string; hash_norm: string } };
  if (!json.ok) throw new Error(`sendBocReturnHash: ${JSON.stringify(json)}`);
  // The next transfer needs the new seqno: wait for this one to be in a block.
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const now = await withLiteClient(stack.server.pool.openSession({}, Date.now() + HARNESS_DEADLINE_MS), (client) => client.open(signed.contract).getSeqno());
    if (now > signed.seqno) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return json.result;
}

/** Sends `value` from v4r2 wallet #0 to `to` with sendBocReturnHash; returns v2's hash and hash_norm. */
export async function transfer(stack: LocalStack, to: Address, value: bigint): Promise<{ hash: string; hash_norm: string }> {
  return sendSigned(stack, await signedTransfer(stack, to, value, 'streaming e2e'));
}

/**
 * TEP-467's normalized hash of an inbound external message, computed here from the standard's
 * text (src addr_none, import_fee 0, no StateInit, body in a reference): what a client subscribes
 * to before it sends.
 */
export function normalizedHash(message: Cell): string {
  const parsed = loadMessage(message.beginParse());
  const normal = beginCell()
    .storeUint(0b10, 2)
    .storeUint(0, 2)
    .storeAddress(parsed.info.dest as Address)
    .storeCoins(0)
    .storeBit(0)
    .storeBit(1)
    .storeRef(parsed.body)
    .endCell();
  return normal.hash().toString('base64');
}

/** A WebSocket client that keeps every message it got. */
export async function openWs(stack: LocalStack): Promise<{ ws: WebSocket; messages: Record<string, unknown>[] }> {
  const ws = new WebSocket(`${stack.url.replace('http', 'ws')}/api/streaming/v2/ws`);
  const messages: Record<string, unknown>[] = [];
  ws.on('message', (data) => messages.push(JSON.parse(String(data)) as Record<string, unknown>));
  await new Promise((resolve) => ws.once('open', resolve));
  return { ws, messages };
}

export async function v2<T>(stack: LocalStack, method: string, params: Record<string, string>): Promise<T> {
  const res = await fetch(`${stack.api}/${method}?${new URLSearchParams(params)}`);
  return ((await res.json()) as { result: T }).result;
}

