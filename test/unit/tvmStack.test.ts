import { beginCell, Cell, parseTuple, serializeTuple, TupleItem } from '@ton/core';
import { ApiError } from '../../src/errors';
import { parseStackCell, serializeStackCell } from '../../src/tvm';
import { scanBoc } from '../../src/params';

/** The linear VmStack serialiser and parser against @ton/core's, and the BoC scan against the decoder. */

const leaf = beginCell().storeUint(0xabc, 12).endCell();
const sample: TupleItem[] = [
  { type: 'int', value: 7n },
  { type: 'int', value: -(1n << 200n) },
  { type: 'nan' },
  { type: 'null' },
  { type: 'cell', cell: leaf },
  { type: 'slice', cell: beginCell().storeUint(5, 3).storeRef(leaf).endCell() },
  { type: 'builder', cell: leaf },
  {
    type: 'tuple',
    items: [
      { type: 'int', value: 1n },
      { type: 'tuple', items: [] },
      { type: 'tuple', items: [{ type: 'int', value: 2n }] },
      { type: 'int', value: 3n },
    ],
  },
];

describe('VmStack cells', () => {
  test('serialises to the very cell @ton/core builds, and parses back to the same items', () => {
    const ours = serializeStackCell(sample);
    expect(ours.hash().equals(serializeTuple(sample).hash())).toBe(true);
    // Cells compare by hash: the parsed items serialise back to the same stack cell.
    const parsed = parseStackCell(ours);
    expect(parsed.map((item) => item.type)).toEqual(parseTuple(ours).map((item) => item.type));
    expect(serializeStackCell(parsed).hash().equals(ours.hash())).toBe(true);
    expect(parsed.slice(0, 4)).toEqual(sample.slice(0, 4));
    expect(serializeStackCell([]).equals(serializeTuple([]))).toBe(true);
  });

  test('a stack of 10 000 entries (a chain 10 000 cells deep) is serialised and parsed with loops', () => {
    const items: TupleItem[] = Array.from({ length: 10_000 }, (_, i) => ({ type: 'int', value: BigInt(i) }));
    const cell = serializeStackCell(items);
    expect(cell.depth()).toBe(10_000);
    const parsed = parseStackCell(cell);
    expect(parsed).toHaveLength(10_000);
    expect(parsed[9_999]).toEqual({ type: 'int', value: 9_999n });
  }, 120000);

  test('parsing stops at the entry bound (422) and at the nesting bound (533)', () => {
    const cell = serializeStackCell(Array.from({ length: 50 }, () => ({ type: 'int', value: 1n }) as TupleItem));
    expect(() => parseStackCell(cell, { maxEntries: 49 })).toThrow(
      new ApiError(422, 'result stack has more than 49 entries; it is not rendered'),
    );
    let nested: TupleItem = { type: 'null' };
    for (let i = 0; i < 10; i++) nested = { type: 'tuple', items: [nested] };
    expect(() => parseStackCell(serializeTuple([nested]), { maxDepth: 5 })).toThrow(new ApiError(533, 'Result stack depth >= 5'));
  });
});

describe('scanBoc', () => {
  test('reads cell count and depth from the bytes as the decoder would', () => {
    let chain = beginCell().endCell();
    for (let i = 0; i < 300; i++) chain = beginCell().storeUint(i, 9).storeRef(chain).storeRef(leaf).endCell();
    for (const root of [leaf, chain, serializeStackCell(sample)]) {
      const boc = root.toBoc();
      const decoded = Cell.fromBoc(boc)[0]!;
      const shape = scanBoc(boc);
      expect(shape?.depth).toBe(decoded.depth());
      expect(shape?.cells).toBeGreaterThan(0);
    }
    expect(scanBoc(chain.toBoc())).toEqual({ cells: 302, depth: 300 });
    // Indexed and CRC variants.
    expect(scanBoc(chain.toBoc({ idx: true, crc32: true }))).toEqual({ cells: 302, depth: 300 });
  });

  test('garbage is left to the decoder (null); a huge declared count is read without a scan', () => {
    expect(scanBoc(Buffer.from('hello world'))).toBeNull();
    const header = Buffer.from('b5ee9c7203010f4240', 'hex');
    expect(scanBoc(Buffer.concat([header, Buffer.alloc(8)]), 8192)).toEqual({ cells: 1_000_000, depth: 0 });
  });
});
