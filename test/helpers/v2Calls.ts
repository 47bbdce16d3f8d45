import { beginCell, Cell, external, internal, SendMode, storeMessage, type Address, type MessageRelaxed } from '@ton/core';
import type { WalletContractV4 } from '@ton/ton';
import { nextBlock, type LocalStack } from './localStack';
import { HARNESS_DEADLINE_MS, withLiteClient } from './sessionClient';

/**
 * One v2 method called the three ways toncenter serves it: GET with a query string, POST with a
 * JSON body, and JSON-RPC. End-to-end suites run the same assertions over all three.
 */
export type CallMode = 'GET' | 'POST' | 'JSON-RPC';
export const CALL_MODES: readonly CallMode[] = ['GET', 'POST', 'JSON-RPC'];

export interface V2Response<T = unknown> {
  status: number;
  body: { ok: boolean; result: T; error?: string; code?: number; '@extra'?: string };
}

type ParamValue = string | number | boolean | readonly string[];

export async function callV2<T = unknown>(
  stack: LocalStack,
  mode: CallMode,
  method: string,
  params: Record<string, ParamValue> = {},
): Promise<V2Response<T>> {
  let res: Response;
  if (mode === 'GET') {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(params)) {
      for (const item of Array.isArray(value) ? value : [value]) query.append(name, String(item));
    }
    res = await fetch(`${stack.api}/${method}?${query.toString()}`);
  } else if (mode === 'POST') {
    res = await fetch(`${stack.api}/${method}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(params),
    });
  } else {
    res = await fetch(`${stack.api}/jsonRPC`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
  }
  return { status: res.status, body: (await res.json()) as V2Response<T>['body'] };
}

/** The result of a call that must succeed (fails the test with the error body otherwise). */
export async function resultOf<T>(stack: LocalStack, mode: CallMode, method: string, params: Record<string, ParamValue> = {}): Promise<T> {
  const res = await callV2<T>(stack, mode, method, params);
  if (res.status !== 200 || !res.body.ok)
    throw new Error(`${mode} ${method} ${JSON.stringify(params)}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.result;
}

/** An external message of the stack's funded v4r2 wallet #0 at its current seqno, signed and not sent. */
export interface SignedTransfer {
  readonly message: Cell;
  readonly seqno: number;
  readonly contract: WalletContractV4;
}

/** Signs an external message of v4r2 wallet `index` (default #0) carrying `messages`; does not send it. */
export async function signedWalletMessage(stack: LocalStack, messages: MessageRelaxed[], index = 0): Promise<SignedTransfer> {
  const { keyPair, wallets } = stack.localnet.wallets;
  const sender = wallets.find((w) => w.version === 'v4r2' && w.index === index);
  if (!sender) throw new Error(`no v4r2 wallet #${index}`);
  const contract = sender.contract as WalletContractV4;
  const seqno = await withLiteClient(stack.server.pool.openSession({}, Date.now() + HARNESS_DEADLINE_MS), (client) => client.open(contract).getSeqno());
  const body = contract.createTransfer({ seqno, secretKey: keyPair.secretKey, sendMode: SendMode.PAY_GAS_SEPARATELY, messages });
  const message = beginCell().store(storeMessage(external({ to: sender.address, body }))).endCell();
  return { message, seqno, contract };
}

/** Signs a transfer of `value` from v4r2 wallet #0 to `to` with a comment; does not send it. */
export function signedTransfer(stack: LocalStack, to: Address, value: bigint, comment: string): Promise<SignedTransfer> {
  return signedWalletMessage(stack, [internal({ to, value, bounce: false, body: comment })]);
}

/**
 * An external message from the stack's funded v4r2 wallet #0 carrying `messages`, signed with its
 * current seqno (read through the pool); not sent.
 */
export async function signedWalletTransfer(stack: LocalStack, messages: MessageRelaxed[]): Promise<{ boc: Buffer; seqno: number; sender: Address }> {
  const { keyPair, wallets } = stack.localnet.wallets;
  const wallet = wallets.find((w) => w.version === 'v4r2' && w.index === 0)!;
  const contract = wallet.contract as WalletContractV4;
  // A loaded machine answers slowly: a deadline well above the usual.
  const seqno = await withLiteClient(stack.server.pool.openSession({}, Date.now() + HARNESS_DEADLINE_MS), (client) => client.open(contract).getSeqno());
  const transfer = contract.createTransfer({ seqno, secretKey: keyPair.secretKey, sendMode: SendMode.PAY_GAS_SEPARATELY, messages });
  const boc = beginCell().store(storeMessage(external({ to: wallet.address, body: transfer }))).endCell().toBoc();
  return { boc, seqno, sender: wallet.address };
}

/**
 * Sends value from the stack's funded v4r2 wallet #0 to each recipient in one external message:
 * through /sendBoc when it is built, otherwise straight to the local lite server. Returns the
 * masterchain seqno before sending, once the transfer is in a (later) block the API serves.
 */
export async function sendTransfer(
  stack: LocalStack,
  recipients: readonly Address[],
  value: bigint,
): Promise<{ seqnoBefore: number; sender: Address }> {
  const { keyPair, wallets } = stack.localnet.wallets;
  const sender = wallets.find((w) => w.version === 'v4r2' && w.index === 0);
  if (!sender) throw new Error('no v4r2 wallet #0');
  const contract = sender.contract as WalletContractV4;
  const session = () => stack.server.pool.openSession({}, Date.now() + HARNESS_DEADLINE_MS);
  const { seqno, seqnoBefore } = await withLiteClient(session(), async (client) => {
    const info = await client.getMasterchainInfo();
    return { seqno: await client.open(contract).getSeqno(), seqnoBefore: info.last.seqno };
  });
  const transfer: Cell = contract.createTransfer({
    seqno,
    secretKey: keyPair.secretKey,
    sendMode: SendMode.PAY_GAS_SEPARATELY,
    messages: recipients.map((to) => internal({ to, value, bounce: false, body: 'blocks e2e' })),
  });
  const boc = beginCell()
    .store(storeMessage(external({ to: sender.address, body: transfer })))
    .endCell()
    .toBoc();
  const res = await fetch(`${stack.api}/sendBoc`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ boc: boc.toString('base64') }),
  });
  if (res.status === 501) {
    await withLiteClient(session(), (client) => client.sendMessage(boc));
  } else if (res.status !== 200) {
    throw new Error(`sendBoc: ${res.status} ${await res.text()}`);
  }
  await nextBlock(stack);
  return { seqnoBefore, sender: sender.address };
}

/** A v2 stack entry as runGetMethod answers it: `["num", "0x…"]`, `["cell", {bytes}]`, … */
export type V2StackEntry = [string, unknown];

/** runGetMethod (POST) of a method without arguments that must succeed (exit code 0): its stack. */
export async function getMethodOk(stack: LocalStack, address: Address, method: string): Promise<V2StackEntry[]> {
  const answer = await callV2<{ stack: V2StackEntry[]; exit_code: number }>(stack, 'POST', 'runGetMethod', { address: address.toString(), method, stack: [] });
  if (answer.body.result?.exit_code !== 0) throw new Error(`${method} on ${address.toString()}: ${JSON.stringify(answer.body)}`);
  return answer.body.result.stack;
}
