import { Address, beginCell, Cell, serializeTuple, StateInit, type TupleItem } from '@ton/core';
import { defaultConfig } from '@ton/sandbox';
import type { LocalStack } from '../helpers/localStack';

/**
 * Pieces of the TVM hostile-input suite and of `npm run bench -- hostile`: hand-assembled
 * contracts, the hostile inputs, a probe of the event loop and the canary requests.
 */

/**
 * Returns its input: DROP (the method id), then the implicit RET leaves the caller's stack as the
 * result. An internal message (selector 0 on top) runs through it as well.
 */
export const ECHO_CODE = beginCell().storeUint(0x30, 8).endCell();

/**
 * Burns all its gas in get-methods: IFNOTRET (an internal message's selector 0 returns at once),
 * then AGAINEND, an endless loop over the rest of the code (nothing).
 */
export const GAS_LOOP_CODE = beginCell().storeUint(0xdd, 8).storeUint(0xeb, 8).endCell();

/**
 * A get-method task for the TVM pool as the chain layer builds one, with the stack serialised by
 * @ton/core's own serialiser (none of our bounds): `code` run on empty data at a fixed address.
 */
export function getMethodTask(code: Cell, items: TupleItem[], options: { methodId?: number; config?: string; address?: string } = {}) {
  return {
    code: code.toBoc(),
    data: Cell.EMPTY.toBoc(),
    methodId: options.methodId ?? 0,
    stack: serializeTuple(items).toBoc(),
    config: options.config ?? defaultConfig,
    address: options.address ?? new Address(0, Buffer.alloc(32, 1)).toRawString(),
    unixTime: Math.floor(Date.now() / 1000),
    balance: '0',
    extraCurrency: {},
    maxResultEntries: 4096,
  };
}

export function contractInit(code: Cell, salt: number): StateInit {
  return { code, data: beginCell().storeUint(salt, 32).endCell() };
}

/** A cell whose every level holds the one cell below twice: 25 cells, 2^depth paths. */
export function sharedChildCell(depth: number): Cell {
  let cell = beginCell().storeUint(0xabcd, 16).endCell();
  for (let i = 0; i < depth; i++) cell = beginCell().storeUint(i, 8).storeRef(cell).storeRef(cell).endCell();
  return cell;
}

/** A chain of `depth` cells, each referencing the next. */
export function deepCell(depth: number): Cell {
  let cell = beginCell().storeUint(1, 8).endCell();
  for (let i = 1; i < depth; i++)
    cell = beginCell()
      .storeUint(i & 0xff, 8)
      .storeRef(cell)
      .endCell();
  return cell;
}

/** `count` legacy entries `["num", 1]` (10 bytes each, so 95 000 fit in 1 MiB). */
export function flatLegacyStack(count: number): unknown[] {
  return Array.from({ length: count }, () => ['num', 1]);
}

export function typedNumbers(count: number): unknown[] {
  return Array.from({ length: count }, (_, i) => ({ '@type': 'tvm.stackEntryNumber', number: { number: String(i) } }));
}

export interface Answer {
  status: number;
  body: { ok: boolean; result?: unknown; error?: string; code?: number };
  ms: number;
}

/** POSTs a prepared JSON text to a REST method. */
export async function postJson(stack: LocalStack, method: string, json: string): Promise<Answer> {
  const started = performance.now();
  const res = await fetch(`${stack.api}/${method}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: json });
  const body = (await res.json()) as Answer['body'];
  return { status: res.status, body, ms: performance.now() - started };
}

export async function getJson(stack: LocalStack, method: string, query: Record<string, string | string[]> = {}): Promise<Answer> {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) for (const item of [value].flat()) params.append(name, item);
  const started = performance.now();
  const res = await fetch(`${stack.api}/${method}?${params.toString()}`);
  const body = (await res.json()) as Answer['body'];
  return { status: res.status, body, ms: performance.now() - started };
}

/** The canary: getMasterchainInfo and the seqno get-method of a funded wallet. */
export async function canary(stack: LocalStack, wallet: string): Promise<{ info: Answer; seqno: Answer }> {
  const info = await getJson(stack, 'getMasterchainInfo');
  const seqno = await postJson(stack, 'runGetMethod', JSON.stringify({ address: wallet, method: 'seqno', stack: [] }));
  return { info, seqno };
}

// The one stall probe, for the suites and the bench that import from here.
export { withStallProbe, type StallReport } from '../helpers/stallProbe';
