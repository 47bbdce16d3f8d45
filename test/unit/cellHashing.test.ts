import { randomBytes } from 'node:crypto';
import { beginCell, Cell } from '@ton/core';
import * as tonCrypto from '@ton/crypto';
import { fastPaddedBits, nativeSha256, useNativeCellHashing } from '../../src/cells/nativeHashing';
import { BitString } from '@ton/core';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- @ton/core's own padding, to compare with
const { bitsToPaddedBuffer: corePadded } = require('@ton/core/dist/boc/utils/paddedBits') as { bitsToPaddedBuffer: (bits: BitString) => Buffer };

/**
 * Node's SHA-256 behind @ton/core's cell hashes (src/converters/cellHashing.ts): the digest is
 * the same function as @ton/crypto's pure-JS one, and the switch reaches the function @ton/core
 * calls (a release of @ton/crypto that moves it fails here).
 */

const pureJs = tonCrypto.sha256_sync;

function sampleCell(): Cell {
  const leaf = beginCell().storeUint(0xdeadbeef, 32).storeBuffer(Buffer.from('leaf')).endCell();
  return beginCell().storeBit(1).storeUint(12345, 17).storeRef(leaf).storeRef(beginCell().storeRef(leaf).endCell()).endCell();
}

describe('native cell hashing', () => {
  test('the native digest equals the pure-JS one for buffers and strings of every small size', () => {
    for (let size = 0; size < 300; size += 7) {
      const bytes = randomBytes(size);
      expect(nativeSha256(bytes).equals(pureJs(bytes))).toBe(true);
    }
    expect(nativeSha256('dns_next_resolver').equals(pureJs('dns_next_resolver'))).toBe(true);
    expect(nativeSha256('päivää ✓').equals(pureJs('päivää ✓'))).toBe(true);
  });

  test('after the switch @ton/core hashes with it, and cells hash as before', () => {
    const before = sampleCell();
    const bocBefore = before.toBoc();
    useNativeCellHashing();
    expect(tonCrypto.sha256_sync).toBe(nativeSha256);
    const after = sampleCell();
    expect(after.hash().equals(before.hash())).toBe(true);
    expect(Cell.fromBoc(bocBefore)[0]!.hash().equals(before.hash())).toBe(true);
    // A known hash: the empty cell's.
    expect(Cell.EMPTY.hash().toString('hex')).toBe('96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7');
    expect(beginCell().endCell().hash().toString('hex')).toBe('96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7');
  });

  test('the byte-copy padding equals @ton/core\'s bit-by-bit one for every offset and length', () => {
    const data = randomBytes(140);
    for (let offset = 0; offset < 24; offset++) {
      for (let length = 0; length <= 1023 && offset + length <= data.length * 8; length += offset % 2 === 0 ? 1 : 13) {
        const bits = new BitString(data, offset, length);
        expect(fastPaddedBits(bits).equals(corePadded(bits))).toBe(true);
      }
    }
  });

  test('a BoC of odd-length cells decodes to the same hashes after the switch', () => {
    useNativeCellHashing();
    const cell = beginCell().storeUint(5, 3).storeRef(beginCell().storeUint(1, 1).storeRef(beginCell().storeBuffer(randomBytes(17)).storeUint(3, 5).endCell()).endCell()).endCell();
    const hashes: string[] = [];
    const walk = (c: Cell) => {
      hashes.push(c.hash().toString('hex'));
      c.refs.forEach(walk);
    };
    walk(cell);
    const decoded = Cell.fromBoc(cell.toBoc())[0]!;
    const again: string[] = [];
    const walkAgain = (c: Cell) => {
      again.push(c.hash().toString('hex'));
      c.refs.forEach(walkAgain);
    };
    walkAgain(decoded);
    expect(again).toEqual(hashes);
  });
});
