/**
 * `TLFunction`-compatible objects for ton-lite-client's `engine.query(fn, request)`, built on this
 * package's codecs. Needed for functions its schema lacks (lookupBlockWithProof,
 * listBlockTransactionsExt, getOutMsgQueueSizes, getBlockOutMsgQueueSize, getLibrariesWithProof)
 * or gets wrong (getValidatorStats: wrong constructor id; transactionId: no metadata field).
 */
import type { Functions } from 'ton-lite-client/dist/schema';
import { decodeTl, encodeTl } from './codec';
import { LiteAnswerMap, LiteQueryKind, LiteQueryOf, liteFunction } from './functions';

// ton-tl's buffer classes, taken from ton-lite-client's own declarations so no direct dependency on ton-tl is needed.
type TonTlWriteBuffer = Parameters<(typeof Functions)['liteServer_getTime']['encodeRequest']>[1];
type TonTlReadBuffer = Parameters<(typeof Functions)['liteServer_getTime']['decodeResponse']>[0];

/** Structurally ton-tl's `TLFunction<Q, A>`, the first argument of `LiteEngine.query`. */
export interface LiteClientFunction<Q, A> {
  encodeRequest(src: Q, encoder: TonTlWriteBuffer): void;
  decodeResponse(decoder: TonTlReadBuffer): A;
}

/** A TLFunction for any lite function this package knows (request by our shapes, answer decoded strictly). */
export function liteClientFunction<K extends LiteQueryKind>(kind: K): LiteClientFunction<LiteQueryOf<K>, LiteAnswerMap[K]> {
  const fn = liteFunction(kind);
  return {
    encodeRequest(src, encoder) {
      const encoded = encodeTl(fn.request, src);
      // TL serializations are 4-byte aligned; ton-tl's writer has no raw-append method.
      for (let offset = 0; offset < encoded.length; offset += 4) encoder.writeUInt32(encoded.readUInt32LE(offset));
    },
    decodeResponse(decoder) {
      return decodeTl(fn.answer, decoder.readObject());
    },
  };
}

export const LiteClientFunctions = {
  lookupBlockWithProof: liteClientFunction('liteServer.lookupBlockWithProof'),
  listBlockTransactionsExt: liteClientFunction('liteServer.listBlockTransactionsExt'),
  getOutMsgQueueSizes: liteClientFunction('liteServer.getOutMsgQueueSizes'),
  getBlockOutMsgQueueSize: liteClientFunction('liteServer.getBlockOutMsgQueueSize'),
  getLibrariesWithProof: liteClientFunction('liteServer.getLibrariesWithProof'),
  getValidatorStats: liteClientFunction('liteServer.getValidatorStats'),
  listBlockTransactions: liteClientFunction('liteServer.listBlockTransactions'),
} as const;
