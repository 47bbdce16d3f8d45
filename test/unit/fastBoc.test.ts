import { randomBytes } from 'node:crypto';
import { beginCell, Cell, Dictionary } from '@ton/core';
import { decodeBocFast, merkleUpdate, serializeBoc } from '../../src/cells';

/** Level-0 hashes of every cell, depth first: two decodings are equal when these are. */
function shape(roots: Cell[]): string[] {
  const out: string[] = [];
  const walk = (c: Cell) => {
    out.push(`${c.type}:${c.bits.length}:${c.hash(0).toString('hex')}:${c.hash().toString('hex')}`);
    c.refs.forEach(walk);
  };
  roots.forEach(walk);
  return out;
}

function sampleTree(): Cell {
  const dict = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.Cell());
  for (let i = 0; i < 60; i++) dict.set(i * 31, beginCell().storeBuffer(randomBytes(i % 40)).storeUint(i % 2, 1 + (i % 9)).endCell());
  return beginCell().storeUint(7, 3).storeDict(dict).storeRef(beginCell().storeBuffer(randomBytes(127)).storeUint(1, 7).endCell()).endCell();
}

describe('decodeBocFast', () => {
  it('decodes what @ton/core decodes, with and without index and CRC-32C, several roots, exotic cells', () => {
    const a = sampleTree();
    const b = sampleTree();
    const update = merkleUpdate(a, b);
    for (const opts of [
      { idx: false, crc32: false },
      { idx: true, crc32: false },
      { idx: false, crc32: true },
      { idx: true, crc32: true },
    ]) {
      const boc = a.toBoc(opts);
      expect(shape(decodeBocFast(boc))).toEqual(shape(Cell.fromBoc(boc)));
    }
    const own = serializeBoc([update]);
    expect(shape(decodeBocFast(own))).toEqual(shape(Cell.fromBoc(own)));
    const two = serializeBoc([a, b]);
    expect(decodeBocFast(two)).toHaveLength(2);
    expect(shape(decodeBocFast(two))).toEqual(shape(Cell.fromBoc(two)));
  });

  it('leaves a damaged BoC to @ton/core, which refuses it', () => {
    const boc = sampleTree().toBoc({ idx: false, crc32: true });
    const damaged = Buffer.from(boc);
    damaged[20] = damaged[20]! ^ 0x01;
    expect(() => decodeBocFast(damaged)).toThrow();
    expect(() => decodeBocFast(boc.subarray(0, boc.length - 9))).toThrow();
  });
});
