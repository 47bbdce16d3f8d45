/** Payloads of ADNL/TCP frames: `adnl.message.query/answer` and `tcp.ping/pong`. */
import { TlDecodeError, TlReader } from './buffer';
import { constructor, bytes, hexId, int256, int64 } from './codec';
import { TL_IDS } from './ids';

export interface AdnlMessageQuery {
  readonly kind: 'adnl.message.query';
  readonly queryId: Buffer;
  readonly query: Buffer;
}
export const adnlMessageQueryCodec = constructor<AdnlMessageQuery>('adnl.message.query', {
  queryId: int256,
  query: bytes,
});

export interface AdnlMessageAnswer {
  readonly kind: 'adnl.message.answer';
  readonly queryId: Buffer;
  readonly answer: Buffer;
}
export const adnlMessageAnswerCodec = constructor<AdnlMessageAnswer>('adnl.message.answer', {
  queryId: int256,
  answer: bytes,
});

export interface TcpPing {
  readonly kind: 'tcp.ping';
  readonly randomId: string;
}
export const tcpPingCodec = constructor<TcpPing>('tcp.ping', { randomId: int64 });

export interface TcpPong {
  readonly kind: 'tcp.pong';
  readonly randomId: string;
}
export const tcpPongCodec = constructor<TcpPong>('tcp.pong', { randomId: int64 });

/** Any frame payload this server or its test clients understand. */
export type AdnlPayload = AdnlMessageQuery | AdnlMessageAnswer | TcpPing | TcpPong;

const payloadCodecs = new Map<number, { read(reader: TlReader): AdnlPayload }>([
  [TL_IDS['adnl.message.query'], adnlMessageQueryCodec],
  [TL_IDS['adnl.message.answer'], adnlMessageAnswerCodec],
  [TL_IDS['tcp.ping'], tcpPingCodec],
  [TL_IDS['tcp.pong'], tcpPongCodec],
]);

/** Decodes a frame payload strictly (unknown constructor or trailing bytes -> TlDecodeError). */
export function decodeAdnlPayload(payload: Buffer): AdnlPayload {
  const reader = new TlReader(payload);
  const id = reader.peekUint32();
  const codec = payloadCodecs.get(id);
  if (!codec) throw new TlDecodeError(`unknown ADNL payload constructor ${hexId(id)}`);
  const value = codec.read(reader);
  reader.expectEnd();
  return value;
}
