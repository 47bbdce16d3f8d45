import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { fromTransferable, toTransferable } from '../../src/indexer/threadProtocol';

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
});
