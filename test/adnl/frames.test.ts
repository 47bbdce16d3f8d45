import { createHash } from 'crypto';
import { AdnlFrameError, FrameReader, encodeFrame } from '../../src/adnl';

describe('ADNL frames', () => {
  it('lays out length, nonce, payload and sha256(nonce ‖ payload)', () => {
    const payload = Buffer.from('hello');
    const frame = encodeFrame(payload);
    expect(frame.readUInt32LE(0)).toBe(64 + payload.length);
    expect(frame.subarray(36, 41).equals(payload)).toBe(true);
    const digest = createHash('sha256').update(frame.subarray(4, 36)).update(payload).digest();
    expect(frame.subarray(41).equals(digest)).toBe(true);
  });

  it('reassembles frames fed one byte at a time and several frames from one chunk', () => {
    const payloads = [Buffer.alloc(0), Buffer.from('a'), Buffer.alloc(70000, 5)];
    const stream = Buffer.concat(payloads.map(encodeFrame));
    const byteByByte = new FrameReader();
    const collected: Buffer[] = [];
    for (let i = 0; i < stream.length; i++) collected.push(...byteByByte.push(stream.subarray(i, i + 1)));
    expect(collected.map((p) => p.toString('hex'))).toEqual(payloads.map((p) => p.toString('hex')));
    expect(byteByByte.pendingBytes).toBe(0);

    const whole = new FrameReader();
    expect(whole.push(Buffer.concat([stream, stream.subarray(0, 10)])).length).toBe(3);
    expect(whole.pendingBytes).toBe(10);
  });

  it('rejects a bad checksum and lengths outside 64..max', () => {
    const frame = encodeFrame(Buffer.from('payload'));
    frame[10] ^= 1;
    expect(() => new FrameReader().push(frame)).toThrow(AdnlFrameError);
    const tooShort = Buffer.alloc(4);
    tooShort.writeUInt32LE(63, 0);
    expect(() => new FrameReader().push(tooShort)).toThrow(/below 64/);
    const tooLong = Buffer.alloc(4);
    tooLong.writeUInt32LE(1001, 0);
    expect(() => new FrameReader(1000).push(tooLong)).toThrow(/exceeds 1000/);
  });
});
