import type { MessageRelaxed } from '@ton/core';
import { normalizeExternalMessage } from '../../src/converters';
import type { LocalStack } from './localStack';
import { signedWalletMessage } from './v2Calls';
import { until } from '../streaming/support';

/** Sent messages and v3 reads for the pending-trace suites (test/e2e/pending*.test.ts). */

export interface Sent {
  boc: Buffer;
  hash: string;
  hashNorm: string;
  hashHex: string;
}

/** A signed transfer of the local chain's v4r2 wallet `index` at its current seqno, with its hashes; not sent. */
export async function signedTransfer(stack: LocalStack, messages: MessageRelaxed[], index = 0): Promise<Sent> {
  const { message: cell } = await signedWalletMessage(stack, messages, index);
  return {
    boc: cell.toBoc(),
    hash: cell.hash().toString('base64'),
    hashNorm: normalizeExternalMessage(cell).hash().toString('base64'),
    hashHex: cell.hash().toString('hex'),
  };
}

/** sendBocReturnHash through the instance at `url`; its answer. */
export async function sendReturnHash(url: string, sent: Sent): Promise<{ ok: boolean; result: { hash: string; hash_norm: string } }> {
  const res = await fetch(`${url}/api/v2/sendBocReturnHash`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ boc: sent.boc.toString('base64') }),
  });
  return (await res.json()) as { ok: boolean; result: { hash: string; hash_norm: string } };
}

export async function v3<T>(url: string, path: string): Promise<{ status: number; body: T }> {
  const res = await fetch(`${url}/api/v3${path}`);
  return { status: res.status, body: (await res.json()) as T };
}

export interface PendingTraceJson {
  trace_id: string | null;
  external_hash: string;
  trace_info: { trace_state: string; transactions: number; messages: number; pending_messages: number };
  transactions_order: string[];
  transactions: Record<
    string,
    { account: string; emulated: boolean; finality: string; in_msg: { value: string | null } | null; description: { aborted?: boolean } }
  >;
  trace: { tx_hash: string; children: unknown[] };
}

/** Polls pendingTraces?ext_msg_hash= on `url` until the trace is there (or `tries` × 20 ms). */
export async function pendingTraceOn(url: string, hashHex: string, tries = 600): Promise<PendingTraceJson | undefined> {
  for (let i = 0; i < tries; i++) {
    const { body } = await v3<{ traces: PendingTraceJson[] }>(url, `/pendingTraces?ext_msg_hash=${hashHex}`);
    if (body.traces.length > 0) return body.traces[0];
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return undefined;
}

/** Polls until pendingTraces?ext_msg_hash= on `url` is empty; the traces left (0 when gone). */
export async function pendingGoneOn(url: string, hashHex: string, tries = 300): Promise<number> {
  let left = 1;
  for (let i = 0; i < tries && left > 0; i++) {
    left = (await v3<{ traces: unknown[] }>(url, `/pendingTraces?ext_msg_hash=${hashHex}`)).body.traces.length;
    if (left > 0) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return left;
}

/** Waits until the index is live and the streaming follower of `server` has its newest block. */
export async function indexAndStreamCaughtUp(
  indexOf: { health(): { status: { state: string; committedMcSeqno: number | null } } },
  server: { services: { streaming?: { bus: { lastSeqno: number | null }; useSource(): void }; index?: { health(): { available: boolean } } } },
): Promise<void> {
  const streaming = server.services.streaming!;
  // The follower starts at the first streaming request (src/server.ts): here, at once.
  streaming.useSource();
  // A committed block first (a live index that has committed nothing yet is not caught up), and the
  // serving instance's own index open: its follower runs in its index thread, so its stream
  // catching up no longer implies that its API's reads are open.
  await until(
    () => {
      const committed = indexOf.health().status.committedMcSeqno;
      return (
        indexOf.health().status.state === 'live' &&
        committed !== null &&
        (streaming.bus.lastSeqno ?? -1) >= committed - 1 &&
        (server.services.index?.health().available ?? true)
      );
    },
    'index and streaming caught up',
    150_000,
  );
}
