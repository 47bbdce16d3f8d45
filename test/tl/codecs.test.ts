import { Codecs, Functions } from 'ton-lite-client/dist/schema';
import { TLReadBuffer, TLWriteBuffer } from 'ton-tl';
import {
  LITE_QUERY_KINDS,
  LiteAnswerMap,
  LiteClientFunctions,
  LiteQuery,
  LiteQueryKind,
  TL_IDS,
  TlDecodeError,
  TlEncodeError,
  UnknownLiteFunctionError,
  decodeAdnlPayload,
  decodeLiteAnswer,
  decodeLiteQuery,
  decodeLiteServerErrorIfAny,
  decodeLiteServerQuery,
  decodeLiteServerQueryFully,
  encodeLiteAnswer,
  encodeLiteQuery,
  encodeLiteServerError,
  encodeLiteServerQuery,
  encodeTl,
  liteClientFunction,
  liteServerQueryCodec,
  tcpPingCodec,
  waitMasterchainSeqnoCodec,
} from '../../src/tl';
import { hash, mcBlock, sampleAnswers, sampleQueries, shardBlock } from './samples';

interface TonTlFunction {
  encodeRequest(src: unknown, encoder: TLWriteBuffer): void;
  decodeResponse(decoder: TLReadBuffer): unknown;
}
const liteClientSchema = Functions as unknown as Record<string, TonTlFunction | undefined>;

function liteClientFunctionFor(kind: LiteQueryKind): TonTlFunction | undefined {
  return liteClientSchema[kind.replace('.', '_')];
}

describe('lite function requests', () => {
  it('has a sample for every function', () => {
    const covered = new Set(sampleQueries.map((s) => s.query.kind));
    expect(LITE_QUERY_KINDS.filter((kind) => !covered.has(kind))).toEqual([]);
    expect(LITE_QUERY_KINDS).toHaveLength(28);
  });

  it.each(sampleQueries.map((s, i) => [`${i} ${s.query.kind}`, s.query] as const))('round-trips %s', (_name, query) => {
    const encoded = encodeLiteQuery(query);
    expect(encoded.readUInt32LE(0)).toBe(TL_IDS[query.kind]);
    expect(encoded.length % 4).toBe(0);
    const decoded = decodeLiteQuery(encoded);
    expect(decoded).toEqual(query);
    expect(encodeLiteQuery(decoded).equals(encoded)).toBe(true);
  });

  it.each(
    sampleQueries
      .filter((s) => s.liteClientCompatible && s.query.kind !== 'liteServer.getValidatorStats')
      .map((s, i) => [`${i} ${s.query.kind}`, s.query] as const),
  )('encodes %s exactly like ton-lite-client', (_name, query) => {
    const theirs = liteClientFunctionFor(query.kind);
    expect(theirs).toBeDefined();
    const writer = new TLWriteBuffer();
    theirs!.encodeRequest(query, writer);
    expect(encodeLiteQuery(query).toString('hex')).toBe(writer.build().toString('hex'));
  });

  it('writes optional fields equal to 0 when their bit is set (ton-lite-client drops them)', () => {
    const query: LiteQuery = { kind: 'liteServer.getOutMsgQueueSizes', mode: 1, wc: 0, shard: '-9223372036854775808' };
    const expected = Buffer.alloc(20);
    expected.writeUInt32LE(0x7bc19c36, 0);
    expected.writeUInt32LE(1, 4);
    expected.writeInt32LE(0, 8);
    expected.writeBigInt64LE(-(2n ** 63n), 12);
    expect(encodeLiteQuery(query).toString('hex')).toBe(expected.toString('hex'));
  });

  it('encodes `true` flags as zero bytes', () => {
    const base = { kind: 'liteServer.getBlockOutMsgQueueSize', id: shardBlock } as const;
    const withProof = encodeLiteQuery({ ...base, mode: 1, wantProof: true });
    const withoutProof = encodeLiteQuery({ ...base, mode: 0, wantProof: null });
    expect(withProof.length).toBe(withoutProof.length);
    expect(decodeLiteQuery(withProof)).toMatchObject({ mode: 1, wantProof: true });
  });

  it('refuses to encode a set flag bit without its value', () => {
    const query = {
      kind: 'liteServer.lookupBlock',
      mode: 2,
      id: { kind: 'tonNode.blockId', workchain: 0, shard: '1', seqno: 1 },
      lt: null,
      utime: null,
    } as const;
    expect(() => encodeLiteQuery(query)).toThrow(TlEncodeError);
    expect(() => encodeLiteQuery(query)).toThrow(/liteServer\.lookupBlock\.lt: mode bit 1 is set/);
  });

  it('rejects unknown functions, truncation and trailing bytes', () => {
    const unknown = Buffer.alloc(4);
    unknown.writeUInt32LE(0xdeadbeef, 0);
    expect(() => decodeLiteQuery(unknown)).toThrow(UnknownLiteFunctionError);
    // getDispatchQueueInfo exists in lite_api.tl but not here: it is an unknown function too.
    const dispatchQueue = Buffer.alloc(4);
    dispatchQueue.writeUInt32LE(0x01e66bf3, 0);
    expect(() => decodeLiteQuery(dispatchQueue)).toThrow(UnknownLiteFunctionError);

    const getBlock = encodeLiteQuery({ kind: 'liteServer.getBlock', id: mcBlock });
    expect(() => decodeLiteQuery(getBlock.subarray(0, getBlock.length - 4))).toThrow(TlDecodeError);
    expect(() => decodeLiteQuery(Buffer.concat([getBlock, Buffer.alloc(4)]))).toThrow(/trailing/);
    expect(() => decodeLiteQuery(Buffer.alloc(2))).toThrow(TlDecodeError);
  });

  it('rejects a bad Bool and a vector length the data cannot hold', () => {
    const shardInfo = encodeLiteQuery({ kind: 'liteServer.getShardInfo', id: mcBlock, workchain: 0, shard: '1', exact: false });
    shardInfo.writeUInt32LE(0x12345678, shardInfo.length - 4);
    expect(() => decodeLiteQuery(shardInfo)).toThrow(/invalid Bool/);

    const libraries = Buffer.alloc(8);
    libraries.writeUInt32LE(TL_IDS['liteServer.getLibraries'], 0);
    libraries.writeUInt32LE(0xffffffff, 4);
    expect(() => decodeLiteQuery(libraries)).toThrow(/vector length/);
  });
});

describe('lite function answers', () => {
  const answerCases = LITE_QUERY_KINDS.flatMap((kind) =>
    (sampleAnswers[kind] as LiteAnswerMap[LiteQueryKind][]).map((answer, i) => [`${kind} #${i}`, kind, answer] as const),
  );

  it.each(answerCases)('round-trips %s', (_name, kind, answer) => {
    const encoded = encodeLiteAnswer(kind, answer);
    expect(encoded.readUInt32LE(0)).toBe(TL_IDS[answer.kind]);
    const decoded = decodeLiteAnswer(kind, encoded);
    expect(decoded).toEqual(answer);
    expect(encodeLiteAnswer(kind, decoded).equals(encoded)).toBe(true);
  });

  it.each(LITE_QUERY_KINDS.filter((kind) => liteClientFunctionFor(kind) !== undefined).map((kind) => [kind] as const))(
    'ton-lite-client decodes the %s answer to the same value',
    (kind) => {
      const answer = sampleAnswers[kind][0] as LiteAnswerMap[LiteQueryKind];
      const encoded = encodeLiteAnswer(kind, answer);
      const theirs = liteClientFunctionFor(kind)!.decodeResponse(new TLReadBuffer(Buffer.from(encoded)));
      // Their objects lack fields newer than their schema (transactionId.metadata); re-encoding
      // through our codec must still give the same bytes.
      expect(encodeLiteAnswer(kind, theirs as LiteAnswerMap[LiteQueryKind]).toString('hex')).toBe(encoded.toString('hex'));
    },
  );

  it('writes every optional field of runMethodResult whose bit is set, even when empty', () => {
    const full = sampleAnswers['liteServer.runSmcMethod'][1];
    const minimal = { ...full, mode: 0, shardProof: null, proof: null, stateProof: null, initC7: null, libExtras: null, result: null };
    // 6 optional fields; the two empty ones take 4 bytes each, the four 1-byte ones 4 bytes each.
    expect(encodeLiteAnswer('liteServer.runSmcMethod', full).length - encodeLiteAnswer('liteServer.runSmcMethod', minimal).length).toBe(24);
  });

  it('decodes a transactionId carrying metadata (mode bit 8)', () => {
    const answer = sampleAnswers['liteServer.listBlockTransactions'][1];
    const decoded = decodeLiteAnswer('liteServer.listBlockTransactions', encodeLiteAnswer('liteServer.listBlockTransactions', answer));
    expect(decoded.ids[0].metadata?.initiator.id).toEqual(hash(24));
    expect(decoded.ids[0].metadata?.initiatorLt).toBe('46999999999999');
  });

  it("accepts ton-lite-client's older `liteServer.signatureSet` kind when encoding", () => {
    const proof = sampleAnswers['liteServer.getBlockProof'][0];
    const forward = proof.steps[1];
    if (forward.kind !== 'liteServer.blockLinkForward') throw new Error('sample changed');
    const legacy = { ...forward, signatures: { ...forward.signatures, kind: 'liteServer.signatureSet' } };
    const withLegacyKind = { ...proof, steps: [proof.steps[0], legacy] } as unknown as typeof proof;
    expect(encodeLiteAnswer('liteServer.getBlockProof', withLegacyKind).equals(encodeLiteAnswer('liteServer.getBlockProof', proof))).toBe(
      true,
    );
  });

  it('rejects an answer of the wrong type', () => {
    const time = encodeLiteAnswer('liteServer.getTime', { kind: 'liteServer.currentTime', now: 1 });
    expect(() => decodeLiteAnswer('liteServer.getVersion', time)).toThrow(/expected liteServer.version/);
  });
});

describe('liteServer.query envelope and errors', () => {
  it('matches the bytes LiteSingleEngine sends, with and without the wait prefix', () => {
    const query: LiteQuery = { kind: 'liteServer.getTime' };
    const body = new TLWriteBuffer();
    Functions.liteServer_waitMasterchainSeqno.encodeRequest({ kind: 'liteServer.waitMasterchainSeqno', seqno: 42, timeoutMs: 5000 }, body);
    Functions.liteServer_getTime.encodeRequest({ kind: 'liteServer.getTime' }, body);
    const theirs = new TLWriteBuffer();
    Functions.liteServer_query.encodeRequest({ kind: 'liteServer.query', data: body.build() }, theirs);
    const ours = encodeLiteServerQuery(query, { seqno: 42, timeoutMs: 5000 });
    expect(ours.toString('hex')).toBe(theirs.build().toString('hex'));

    expect(decodeLiteServerQueryFully(ours)).toEqual({
      wait: { kind: 'liteServer.waitMasterchainSeqno', seqno: 42, timeoutMs: 5000 },
      query,
    });
    const plain = decodeLiteServerQuery(encodeLiteServerQuery(query));
    expect(plain.wait).toBeNull();
    expect(decodeLiteQuery(plain.functionData)).toEqual(query);
  });

  it('rejects a liteServer.query without a function', () => {
    const empty = encodeTl(liteServerQueryCodec, { kind: 'liteServer.query', data: Buffer.alloc(0) });
    expect(() => decodeLiteServerQuery(empty)).toThrow(/no function/);
    const waitOnly = encodeTl(liteServerQueryCodec, {
      kind: 'liteServer.query',
      data: encodeTl(waitMasterchainSeqnoCodec, { kind: 'liteServer.waitMasterchainSeqno', seqno: 1, timeoutMs: 1 }),
    });
    expect(() => decodeLiteServerQuery(waitOnly)).toThrow(/no function/);
    expect(() => decodeLiteServerQuery(Buffer.from([1, 2, 3, 4]))).toThrow(/expected liteServer.query/);
  });

  it('encodes liteServer.error as ton-lite-client reads it', () => {
    const bytes = encodeLiteServerError(651, 'block not found');
    expect(Codecs.liteServer_Error.decode(new TLReadBuffer(bytes))).toEqual({
      kind: 'liteServer.error',
      code: 651,
      message: 'block not found',
    });
    expect(decodeLiteServerErrorIfAny(bytes)).toEqual({ kind: 'liteServer.error', code: 651, message: 'block not found' });
    expect(decodeLiteServerErrorIfAny(encodeLiteAnswer('liteServer.getTime', { kind: 'liteServer.currentTime', now: 5 }))).toBeNull();
  });

  it('decodes ADNL payloads written by ton-lite-client', () => {
    const writer = new TLWriteBuffer();
    Codecs.adnl_Message.encode({ kind: 'adnl.message.query', queryId: hash(60), query: Buffer.from([1, 2, 3]) }, writer);
    expect(decodeAdnlPayload(writer.build())).toEqual({ kind: 'adnl.message.query', queryId: hash(60), query: Buffer.from([1, 2, 3]) });
    const ping = encodeTl(tcpPingCodec, { kind: 'tcp.ping', randomId: '-5' });
    expect(ping.toString('hex')).toBe('9a2b084dfbffffffffffffff');
    expect(decodeAdnlPayload(ping)).toEqual({ kind: 'tcp.ping', randomId: '-5' });
    expect(() => decodeAdnlPayload(Buffer.from('0102030405060708', 'hex'))).toThrow(/unknown ADNL payload/);
  });
});

describe('TLFunction adapters for LiteEngine.query', () => {
  it('encode into ton-tl buffers and decode from them', () => {
    const query = { kind: 'liteServer.getOutMsgQueueSizes', mode: 1, wc: 0, shard: '-9223372036854775808' } as const;
    const writer = new TLWriteBuffer();
    LiteClientFunctions.getOutMsgQueueSizes.encodeRequest(query, writer);
    expect(writer.build().equals(encodeLiteQuery(query))).toBe(true);

    const answer = sampleAnswers['liteServer.getOutMsgQueueSizes'][0];
    const decoded = LiteClientFunctions.getOutMsgQueueSizes.decodeResponse(
      new TLReadBuffer(encodeLiteAnswer('liteServer.getOutMsgQueueSizes', answer)),
    );
    expect(decoded).toEqual(answer);
  });

  it('sends getValidatorStats with the real constructor id', () => {
    const writer = new TLWriteBuffer();
    liteClientFunction('liteServer.getValidatorStats').encodeRequest(
      { kind: 'liteServer.getValidatorStats', mode: 0, id: mcBlock, limit: 5, startAfter: null, modifiedAfter: null },
      writer,
    );
    expect(writer.build().readUInt32LE(0)).toBe(0x091a58bc);
  });
});
