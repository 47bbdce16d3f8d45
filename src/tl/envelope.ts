/**
 * What wraps a lite function on the wire: `liteServer.query data:bytes`, whose data is an optional
 * `liteServer.waitMasterchainSeqno` prefix followed by the boxed function, and the
 * `liteServer.error` answer.
 */
import { TlDecodeError, TlReader } from './buffer';
import { constructor, decodeTl, encodeTl, int32, bytes } from './codec';
import { TL_IDS } from './ids';
import { LiteServerErrorObject, liteServerErrorCodec } from './objects';
import { LiteQuery, decodeLiteQuery, encodeLiteQuery } from './functions';

export interface LiteServerQuery {
  readonly kind: 'liteServer.query';
  readonly data: Buffer;
}
export const liteServerQueryCodec = constructor<LiteServerQuery>('liteServer.query', { data: bytes });

export interface WaitMasterchainSeqno {
  readonly kind: 'liteServer.waitMasterchainSeqno';
  readonly seqno: number;
  readonly timeoutMs: number;
}
export const waitMasterchainSeqnoCodec = constructor<WaitMasterchainSeqno>('liteServer.waitMasterchainSeqno', {
  seqno: int32,
  timeoutMs: int32,
});

/** The content of a `liteServer.query`, split into its optional wait prefix and the function bytes. */
export interface LiteQueryEnvelope {
  readonly wait: WaitMasterchainSeqno | null;
  /** The boxed function, still encoded (decode with decodeLiteQuery). */
  readonly functionData: Buffer;
}

/** Unwraps `liteServer.query` and strips a `waitMasterchainSeqno` prefix. Throws TlDecodeError. */
export function decodeLiteServerQuery(queryBytes: Buffer): LiteQueryEnvelope {
  const { data } = decodeTl(liteServerQueryCodec, queryBytes);
  const reader = new TlReader(data);
  let wait: WaitMasterchainSeqno | null = null;
  if (reader.remaining >= 4 && reader.peekUint32() === TL_IDS['liteServer.waitMasterchainSeqno']) {
    wait = waitMasterchainSeqnoCodec.read(reader);
  }
  if (reader.remaining === 0) throw new TlDecodeError('liteServer.query carries no function');
  return { wait, functionData: reader.rest() };
}

/** Builds the bytes of a `liteServer.query` (the `query` field of `adnl.message.query`). */
export function encodeLiteServerQuery(query: LiteQuery, wait?: { seqno: number; timeoutMs: number }): Buffer {
  const parts: Buffer[] = [];
  if (wait) {
    parts.push(encodeTl(waitMasterchainSeqnoCodec, { kind: 'liteServer.waitMasterchainSeqno', ...wait }));
  }
  parts.push(encodeLiteQuery(query));
  return encodeTl(liteServerQueryCodec, { kind: 'liteServer.query', data: Buffer.concat(parts) });
}

/** Convenience for clients: the decoded wait prefix and function of a `liteServer.query`. */
export function decodeLiteServerQueryFully(queryBytes: Buffer): { wait: WaitMasterchainSeqno | null; query: LiteQuery } {
  const { wait, functionData } = decodeLiteServerQuery(queryBytes);
  return { wait, query: decodeLiteQuery(functionData) };
}

export function encodeLiteServerError(code: number, message: string): Buffer {
  return encodeTl(liteServerErrorCodec, { kind: 'liteServer.error', code, message });
}

/** Returns the error when an answer is a `liteServer.error`, otherwise null. */
export function decodeLiteServerErrorIfAny(answer: Buffer): LiteServerErrorObject | null {
  if (answer.length < 4 || answer.readUInt32LE(0) !== TL_IDS['liteServer.error']) return null;
  return decodeTl(liteServerErrorCodec, answer);
}
