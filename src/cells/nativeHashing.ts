import crypto from 'node:crypto';
import type { BitString } from '@ton/core';
import { bitStringFields } from './bitRead';

/**
 * @ton/core computes the SHA-256 of every cell it builds or decodes (Cell's constructor hashes
 * each level) with @ton/crypto's `sha256_sync`, which is pure JavaScript (jssha) fed through hex
 * strings: ~34 µs per cell here, against < 1 µs for Node's OpenSSL digest. Decoding a lite
 * server's proofs is mostly that hashing (an uncached account read: ~2 ms of the event loop's time
 * per request, measured with --cpu-prof). `useNativeCellHashing()` points `sha256_sync` at Node's
 * digest, so every cell hash in the process (the proofs, the TVM threads' BoCs, the local chain's
 * blocks) costs the native price. The digest is the same function, so every hash is unchanged.
 *
 * It replaces the export of @ton/crypto's own sha256 module, which its index re-exports through a
 * getter that @ton/core reads at each call. test/unit/cellHashing.test.ts checks that the switch
 * took effect, so a release of @ton/crypto that moves the function fails a test, not silently.
 */

type Sha256Sync = (source: Buffer | string) => Buffer;

/** Node >= 20.12 has the one-shot `crypto.hash` (half the cost of a Hash object per call). */
const oneShot = typeof crypto.hash === 'function';

export function nativeSha256(source: Buffer | string): Buffer {
  const data = typeof source === 'string' ? Buffer.from(source, 'utf-8') : source;
  return oneShot ? crypto.hash('sha256', data, 'buffer') : crypto.createHash('sha256').update(data).digest();
}

/**
 * SHA-256 of `data` as a string of 32 latin1 ('binary') characters, one per byte: a cell's hash written
 * into a slab of a BoC's hashes with `slab.write(hash, at, 32, 'latin1')` costs no buffer of its own
 * (a digest as a Buffer is a new ArrayBuffer each time).
 */
export function sha256Latin1(data: Buffer): string {
  return oneShot ? crypto.hash('sha256', data, 'binary') : crypto.createHash('sha256').update(data).digest('binary');
}

interface Sha256Module {
  sha256_sync: Sha256Sync;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the module object itself is what is patched
const sha256Module = require('@ton/crypto/dist/primitives/sha256') as Sha256Module;

interface PaddedBitsModule {
  bitsToPaddedBuffer: (bits: BitString) => Buffer;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the module object itself is what is patched
const paddedBitsModule = require('@ton/core/dist/boc/utils/paddedBits') as PaddedBitsModule;
const slowPaddedBits = paddedBitsModule.bitsToPaddedBuffer;

/**
 * A cell's data bytes with the completion tag (a 1 after the last bit, then zeros), as each cell
 * hash takes them. @ton/core writes them bit by bit through a BitBuilder (the largest self time
 * of decoding a block BoC after the SHA-256 itself, measured with --cpu-prof); bits that start
 * on a byte boundary (every cell @ton/core decodes or builds) are copied as bytes here. The
 * bytes are the same: test/unit/cellHashing.test.ts compares both on random bit strings.
 */
export function fastPaddedBits(bits: BitString): Buffer {
  const { _data: data, _offset: offset, _length: length } = bitStringFields(bits);
  if (offset % 8 !== 0 || !Buffer.isBuffer(data)) return slowPaddedBits(bits);
  const bytes = Math.ceil(length / 8);
  const start = offset / 8;
  const out = Buffer.alloc(bytes);
  data.copy(out, 0, start, start + bytes);
  const tail = length % 8;
  if (tail !== 0) out[bytes - 1] = (out[bytes - 1]! & ((0xff << (8 - tail)) & 0xff)) | (0x80 >> tail);
  return out;
}

/** Makes @ton/core hash cells with Node's SHA-256 and byte copies in this thread (idempotent). */
export function useNativeCellHashing(): void {
  sha256Module.sha256_sync = nativeSha256;
  paddedBitsModule.bitsToPaddedBuffer = fastPaddedBits;
}
