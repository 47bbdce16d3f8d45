/**
 * ADNL/TCP frames (before encryption): u32 LE length L ‖ 32-byte nonce ‖ payload ‖
 * SHA-256(nonce ‖ payload), with L = 32 + payload + 32.
 */
import { createHash, randomBytes } from 'crypto';

export const FRAME_OVERHEAD = 64;
/** Largest L accepted, as in TON's ext connections. */
export const DEFAULT_MAX_FRAME_SIZE = 2 ** 24;

export class AdnlFrameError extends Error {
  override name = 'AdnlFrameError';
}

export function encodeFrame(payload: Buffer): Buffer {
  const frame = Buffer.allocUnsafe(4 + FRAME_OVERHEAD + payload.length);
  frame.writeUInt32LE(FRAME_OVERHEAD + payload.length, 0);
  const nonce = randomBytes(32);
  nonce.copy(frame, 4);
  payload.copy(frame, 36);
  createHash('sha256')
    .update(nonce)
    .update(payload)
    .digest()
    .copy(frame, 36 + payload.length);
  return frame;
}

/**
 * Reassembles decrypted stream bytes into frame payloads. Chunks are kept as a list and joined
 * once per complete frame, so a large frame arriving in many pieces is copied only once.
 */
export class FrameReader {
  private chunks: Buffer[] = [];
  private buffered = 0;

  constructor(private readonly maxFrameSize: number = DEFAULT_MAX_FRAME_SIZE) {}

  /** Bytes received that do not yet form a whole frame. */
  get pendingBytes(): number {
    return this.buffered;
  }

  /** Adds decrypted bytes and returns the payloads of every completed frame. Throws AdnlFrameError. */
  push(data: Buffer): Buffer[] {
    if (data.length > 0) {
      this.chunks.push(data);
      this.buffered += data.length;
    }
    const payloads: Buffer[] = [];
    for (;;) {
      if (this.buffered < 4) break;
      if (this.chunks[0].length < 4) this.chunks = [Buffer.concat(this.chunks)];
      const length = this.chunks[0].readUInt32LE(0);
      if (length < FRAME_OVERHEAD) throw new AdnlFrameError(`frame length ${length} is below ${FRAME_OVERHEAD}`);
      if (length > this.maxFrameSize) throw new AdnlFrameError(`frame length ${length} exceeds ${this.maxFrameSize}`);
      if (this.buffered < 4 + length) break;
      const joined = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.buffered);
      const frame = joined.subarray(4, 4 + length);
      const rest = joined.subarray(4 + length);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.buffered = rest.length;
      const nonce = frame.subarray(0, 32);
      const payload = frame.subarray(32, length - 32);
      const digest = createHash('sha256').update(nonce).update(payload).digest();
      if (!digest.equals(frame.subarray(length - 32))) throw new AdnlFrameError('frame checksum mismatch');
      payloads.push(payload);
    }
    return payloads;
  }
}
