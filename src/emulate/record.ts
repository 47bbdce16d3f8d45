import { ApiError, InvalidRequestError, ValidationError } from '../errors';
import { masterchainBlock } from '../chain';
import { checkBocBounds } from '../params';
import type { ChainSession, McBlock } from '../proofs';
import { type EmulateTraceRendering, type EmulateTraceResponseJson, toEmulateTraceResponse } from './response';
import { emulateTraceAt, type TraceRequest } from './trace';

/**
 * One record per Emulate API route (src/emulate/records): its path, how it reads the body, its
 * cache policy and a short run function. The HTTP layer (src/routes/emulate.ts) mounts them.
 */

export interface EmulateContext {
  /** The request's lite-server session (opened on first use). */
  session(): ChainSession;
  /** Ms since the epoch: the emulation answers before it. */
  readonly deadline: number;
  /** User-friendly addresses of the address book carry the test-only flag. */
  readonly testnet: boolean;
}

export interface EmulateRecord<P> {
  /** Below /api/emulate. */
  readonly path: string;
  readonly summary: string;
  /** Every emulation runs anew: its random seed and the head differ from call to call. */
  readonly cachePolicy: 'never';
  /** Reads and bounds the JSON body (400 "invalid request: ..." as toncenter). */
  parse(body: unknown): P;
  run(ctx: EmulateContext, params: P): Promise<EmulateTraceResponseJson>;
}

/** The flags both routes share (toncenter's EmulateRequest / TonConnectEmulateRequest). */
export interface EmulateFlags {
  readonly withActions: boolean;
  readonly includeCodeData: boolean;
  readonly includeAddressBook: boolean;
  readonly includeMetadata: boolean;
  /** null: the verified head. */
  readonly mcBlockSeqno: number | null;
}

export function requestObject(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new InvalidRequestError('the body must be a JSON object');
  return body as Record<string, unknown>;
}

/** A JSON boolean field, false when absent (Go's zero value). */
export function boolField(body: Record<string, unknown>, name: string): boolean {
  const value = body[name];
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw new InvalidRequestError(`${name} must be a boolean`);
  return value;
}

/** A JSON string field, '' when absent. */
export function stringField(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw new InvalidRequestError(`${name} must be a string`);
  return value;
}

/** An unsigned integer field below 2^bits, null when absent or null. */
export function uintField(body: Record<string, unknown>, name: string, bits: 32 | 64): bigint | null {
  const value = body[name];
  if (value === undefined || value === null) return null;
  const text = typeof value === 'number' || typeof value === 'bigint' ? String(value) : typeof value === 'object' ? String(value) : undefined;
  if (text === undefined || !/^\d{1,20}$/.test(text) || BigInt(text) >= 1n << BigInt(bits)) {
    throw new InvalidRequestError(`${name} must be an unsigned ${bits}-bit integer`);
  }
  return BigInt(text);
}

export function flagsOf(body: Record<string, unknown>): EmulateFlags {
  const seqno = uintField(body, 'mc_block_seqno', 32);
  return {
    withActions: boolField(body, 'with_actions'),
    includeCodeData: boolField(body, 'include_code_data'),
    includeAddressBook: boolField(body, 'include_address_book'),
    includeMetadata: boolField(body, 'include_metadata'),
    mcBlockSeqno: seqno === null ? null : Number(seqno),
  };
}

export function renderingOf(flags: EmulateFlags, testnet: boolean): EmulateTraceRendering {
  return { ...flags, testnet };
}

const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * A base64 BoC field as toncenter takes it (Go's strict standard base64), within sendBoc's bounds
 * on cells and depth, checked on the bytes before anything decodes it.
 */
export function bocField(name: string, text: string): Buffer {
  if (!STRICT_BASE64.test(text)) throw new InvalidRequestError(`invalid ${name}: illegal base64 data`);
  const bytes = Buffer.from(text, 'base64');
  try {
    checkBocBounds(name, bytes);
  } catch (err) {
    if (err instanceof ValidationError) throw new InvalidRequestError(err.message.replace(/^failed to validate request: /, ''));
    throw err;
  }
  return bytes;
}

/** The block the emulation starts from: the one `seqno` names, or the verified head. */
export async function emulationBlock(session: ChainSession, seqno: number | null): Promise<McBlock> {
  const head = (await session.head()).last;
  if (seqno === null) return head;
  // toncenter's text; a 422 here, not its 500: the client named a block that does not exist yet.
  if (seqno > head.seqno) throw new ApiError('badInput', 'mc block seqno is too new');
  return masterchainBlock(session, seqno);
}

/** Emulates at `block` and renders toncenter's answer with the request's flags. */
export async function emulateAndRender(
  ctx: EmulateContext,
  session: ChainSession,
  block: McBlock,
  flags: EmulateFlags,
  request: Omit<TraceRequest, 'deadline' | 'includeCodeData'>,
): Promise<EmulateTraceResponseJson> {
  const trace = await emulateTraceAt(session, block, { ...request, includeCodeData: flags.includeCodeData, deadline: ctx.deadline });
  return toEmulateTraceResponse(trace, renderingOf(flags, ctx.testnet));
}
