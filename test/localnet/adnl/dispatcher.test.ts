/** The dispatcher as a pure bytes-in/bytes-out function (no sockets). */
import { LiteProtocolError } from '../../../src/localnet';
import { ConnectionInfo } from '../../../src/localnet/adnlServer';
import { LiteHandlers, createLiteDispatcher } from '../../../src/localnet/liteserver/dispatcher';
import {
  LiteQuery,
  TL_IDS,
  decodeLiteAnswer,
  decodeLiteServerErrorIfAny,
  encodeLiteQuery,
  encodeLiteServerQuery,
  encodeTl,
  liteServerQueryCodec,
} from '../../../src/tl';
import { mcBlock } from '../../tl/samples';

const connection: ConnectionInfo = { id: 7, remoteAddress: '127.0.0.1', remotePort: 1 };

function setup(handlers: LiteHandlers, wait: (seqno: number, timeoutMs: number) => Promise<boolean> = async () => true) {
  const logged: { details: object; message: string }[] = [];
  const waits: [number, number][] = [];
  const onQuery = createLiteDispatcher({
    handlers,
    waitForMasterchainSeqno: (seqno, timeoutMs) => {
      waits.push([seqno, timeoutMs]);
      return wait(seqno, timeoutMs);
    },
    maxWaitMs: 2000,
    logger: {
      debug: () => undefined,
      info: () => undefined,
      warn: () => undefined,
      error: (details, message) => logged.push({ details, message }),
    },
  });
  const ask = (query: LiteQuery, prefix?: { seqno: number; timeoutMs: number }) =>
    onQuery(encodeLiteServerQuery(query, prefix), connection);
  return { onQuery, ask, logged, waits };
}

const getTime: LiteQuery = { kind: 'liteServer.getTime' };

describe('lite query dispatcher', () => {
  it('decodes the request, passes it and the connection to the handler, and encodes the answer', async () => {
    const seen: unknown[] = [];
    const { ask } = setup({
      'liteServer.getBlockHeader': async (query, context) => {
        seen.push(query, context.connection);
        return { kind: 'liteServer.blockHeader', id: query.id, mode: query.mode, headerProof: Buffer.from([9]) };
      },
    });
    const answer = await ask({ kind: 'liteServer.getBlockHeader', id: mcBlock, mode: 1 });
    expect(decodeLiteAnswer('liteServer.getBlockHeader', answer)).toEqual({
      kind: 'liteServer.blockHeader',
      id: mcBlock,
      mode: 1,
      headerProof: Buffer.from([9]),
    });
    expect(seen).toEqual([{ kind: 'liteServer.getBlockHeader', id: mcBlock, mode: 1 }, connection]);
  });

  it("waits for the prefixed seqno, capping the client's timeout", async () => {
    const { ask, waits } = setup({ 'liteServer.getTime': async () => ({ kind: 'liteServer.currentTime', now: 5 }) });
    expect(decodeLiteAnswer('liteServer.getTime', await ask(getTime, { seqno: 42, timeoutMs: 60_000 })).now).toBe(5);
    await ask(getTime, { seqno: 43, timeoutMs: -5 });
    expect(waits).toEqual([
      [42, 2000],
      [43, 0],
    ]);
    await ask(getTime);
    expect(waits).toHaveLength(2);
  });

  it('answers 652 timeout when the seqno does not arrive, without calling the handler', async () => {
    const handler = jest.fn(async () => ({ kind: 'liteServer.currentTime' as const, now: 5 }));
    const { ask } = setup({ 'liteServer.getTime': handler }, async () => false);
    expect(decodeLiteServerErrorIfAny(await ask(getTime, { seqno: 1, timeoutMs: 10 }))).toEqual({
      kind: 'liteServer.error',
      code: 652,
      message: 'timeout',
    });
    expect(handler).not.toHaveBeenCalled();
  });

  it('answers 621 unknown query for unknown functions and functions without a handler', async () => {
    const { onQuery, ask } = setup({});
    expect(decodeLiteServerErrorIfAny(await ask(getTime))).toEqual({ kind: 'liteServer.error', code: 621, message: 'unknown query' });
    const unknownId = Buffer.alloc(4);
    unknownId.writeUInt32LE(0x01e66bf3, 0); // getDispatchQueueInfo: in lite_api.tl, not served here
    const unknown = encodeTl(liteServerQueryCodec, { kind: 'liteServer.query', data: unknownId });
    expect(decodeLiteServerErrorIfAny(await onQuery(unknown, connection))?.message).toBe('unknown query');
  });

  it('answers 621 for a malformed known function or envelope', async () => {
    const { onQuery } = setup({ 'liteServer.getTime': async () => ({ kind: 'liteServer.currentTime', now: 5 }) });
    const truncated = encodeLiteQuery({ kind: 'liteServer.getBlock', id: mcBlock }).subarray(0, 20);
    const bad = await onQuery(encodeTl(liteServerQueryCodec, { kind: 'liteServer.query', data: truncated }), connection);
    expect(decodeLiteServerErrorIfAny(bad)).toMatchObject({ code: 621, message: expect.stringMatching(/^cannot parse query: /) });
    const notAQuery = Buffer.alloc(8);
    notAQuery.writeUInt32LE(TL_IDS['liteServer.getTime'], 0);
    expect(decodeLiteServerErrorIfAny(await onQuery(notAQuery, connection))?.code).toBe(621);
  });

  it("passes a LiteProtocolError's code and message through, from handlers and from the wait", async () => {
    const { ask } = setup({
      'liteServer.getTime': async () => {
        throw new LiteProtocolError(651, 'block not found');
      },
    });
    expect(decodeLiteServerErrorIfAny(await ask(getTime))).toEqual({ kind: 'liteServer.error', code: 651, message: 'block not found' });
    const waiting = setup({ 'liteServer.getTime': async () => ({ kind: 'liteServer.currentTime', now: 1 }) }, async () => {
      throw new LiteProtocolError(-503, 'chain is resetting');
    });
    expect(decodeLiteServerErrorIfAny(await waiting.ask(getTime, { seqno: 1, timeoutMs: 1 }))).toMatchObject({
      code: -503,
      message: 'chain is resetting',
    });
  });

  it('answers -400 with the message for any other failure and logs it', async () => {
    const { ask, logged } = setup({
      'liteServer.getTime': async () => {
        throw new TypeError('boom');
      },
      // An answer the codec cannot encode is a handler bug, reported the same way.
      'liteServer.getVersion': async () => ({ kind: 'liteServer.version', mode: 0, version: 1, capabilities: 'x', now: 1 }),
    });
    expect(decodeLiteServerErrorIfAny(await ask(getTime))).toEqual({ kind: 'liteServer.error', code: -400, message: 'boom' });
    const bad = decodeLiteServerErrorIfAny(await ask({ kind: 'liteServer.getVersion' }));
    expect(bad?.code).toBe(-400);
    expect(bad?.message).toMatch(/capabilities/);
    expect(logged.map((l) => l.message)).toEqual(['lite handler liteServer.getTime failed', 'lite handler liteServer.getVersion failed']);
  });

  it('refuses an answer too large for one ADNL message', async () => {
    const { ask } = setup({
      'liteServer.getBlock': async (query) => ({ kind: 'liteServer.blockData', id: query.id, data: Buffer.alloc(2 ** 24 - 8) }),
    });
    expect(decodeLiteServerErrorIfAny(await ask({ kind: 'liteServer.getBlock', id: mcBlock }))).toMatchObject({
      code: -400,
      message: 'answer is too large',
    });
  });

  it('tells its activity observer when a handler starts and ends, not while the query waits for a seqno', async () => {
    const events: string[] = [];
    let release: (reached: boolean) => void = () => undefined;
    const onQuery = createLiteDispatcher({
      handlers: {
        'liteServer.getTime': async () => {
          events.push('handler');
          return { kind: 'liteServer.currentTime', now: 5 };
        },
        'liteServer.getVersion': async () => {
          throw new TypeError('boom');
        },
      },
      waitForMasterchainSeqno: () => new Promise<boolean>((resolve) => (release = resolve)),
      activity: { started: (kind) => events.push(`started ${kind}`), finished: (kind) => events.push(`finished ${kind}`) },
    });
    const waiting = onQuery(encodeLiteServerQuery(getTime, { seqno: 9, timeoutMs: 1000 }), connection);
    await new Promise((resolve) => setImmediate(resolve));
    // A follower's long poll for the next block is not work of the chain's thread.
    expect(events).toEqual([]);
    release(true);
    await waiting;
    expect(events).toEqual(['started liteServer.getTime', 'handler', 'finished liteServer.getTime']);
    // A failing handler ends too; a query that never decodes never starts.
    await onQuery(encodeLiteServerQuery({ kind: 'liteServer.getVersion' }), connection);
    await onQuery(Buffer.from([1, 2, 3]), connection);
    expect(events.slice(3)).toEqual(['started liteServer.getVersion', 'finished liteServer.getVersion']);
  });
});
