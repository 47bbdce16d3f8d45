import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import type { CommittedMcBlock } from '../../src/indexer';
import { committedBlockRows, fromTransferable, toTransferable } from '../../src/indexer/threadProtocol';

/** What crosses to and from the index thread: Buffers come back as Buffers, sliced ones without their parent's bytes. */
describe('index thread messages', () => {
  function roundTrip(value: unknown): unknown {
    const { port1, port2 } = new MessageChannel();
    port1.postMessage(toTransferable(value));
    const received = receiveMessageOnPort(port2)!.message as unknown;
    port1.close();
    return fromTransferable(received);
  }

  it('gives Buffers back inside objects, arrays and Maps, and leaves other values alone', () => {
    const big = Buffer.alloc(100_000, 7);
    const hash = big.subarray(10, 42);
    const back = roundTrip({ hash, list: [hash, null, 5n], map: new Map([['a', { h: hash }]]), text: 'x', n: 1 }) as {
      hash: Buffer;
      list: [Buffer, null, bigint];
      map: Map<string, { h: Buffer }>;
      text: string;
      n: number;
    };
    expect(Buffer.isBuffer(back.hash)).toBe(true);
    expect(back.hash.equals(hash)).toBe(true);
    // Only the slice crossed, not the 100 000 bytes under it.
    expect(back.hash.buffer.byteLength).toBe(32);
    expect(Buffer.isBuffer(back.list[0])).toBe(true);
    expect(back.list[2]).toBe(5n);
    expect(Buffer.isBuffer(back.map.get('a')!.h)).toBe(true);
    expect(back.map.get('a')!.h.toString('hex')).toBe(hash.toString('hex'));
    expect(back.text).toBe('x');
  });

  it('sends the API only what it uses of a committed block: the seqno, the pending traces\' fields, inbound messages', () => {
    const hash = (n: number) => Buffer.alloc(32, n);
    const block = {
      mcSeqno: 12,
      id: { workchain: -1, shard: '8000000000000000', seqno: 12 },
      genUtime: 1,
      transactions: [{ trace_id: hash(1), account: '0:AA', aborted: false, compute_skipped: false, compute_exit_code: 0, lt: 5n, description: { big: 'x'.repeat(1000) } }],
      messages: [
        { msg_hash: hash(2), direction: 'in', source: null, body_hash: hash(9) },
        { msg_hash: hash(3), direction: 'out', source: '0:AA' },
      ],
      accountStates: [{ account: '0:AA', code_boc: Buffer.alloc(5000) }],
      traces: [{ trace_id: hash(1), external_hash: hash(2), external_hash_norm: hash(4), state: 'complete', nodes_: 1n, edges_: 0n }],
      tokenStates: { jettonWallets: [{ address: '0:BB' }] },
      tokenEvents: {},
    } as unknown as CommittedMcBlock;
    const rows = committedBlockRows(block);
    expect(rows).toEqual({
      mcSeqno: 12,
      transactions: [{ trace_id: hash(1), account: '0:AA', aborted: false, compute_skipped: false, compute_exit_code: 0 }],
      messages: [{ msg_hash: hash(2), direction: 'in', source: null }],
      traces: [{ trace_id: hash(1), external_hash: hash(2), external_hash_norm: hash(4), state: 'complete', nodes_: 1n }],
    });
  });
});
