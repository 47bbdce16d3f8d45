import { beginCell, Cell, crc32c } from '@ton/core';
import {
  bagOfCellsSteps,
  bocBase64,
  CellNodes,
  finishInSlices,
  optionalBocBase64,
  paddedCellData,
  serializeBoc,
  serializeBocRoots,
} from '../../src/cells/bocWriter';
import { BocNodeCache } from '../../src/cells';
import { describeWithFixtures, loadFixtures } from '../helpers/fixtures';

function allStrings(value: unknown, path: string, out: { path: string; text: string }[]): void {
  if (typeof value === 'string') out.push({ path, text: value });
  else if (Array.isArray(value)) value.forEach((item, i) => allStrings(item, `${path}[${i}]`, out));
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) allStrings(item, `${path}.${key}`, out);
  }
}

describeWithFixtures('every recorded BoC is reproduced byte for byte', () => {
  const methods = [
    'getTransactions',
    'tryLocateTx',
    'tryLocateResultTx',
    'getBlockTransactionsExt',
    'getAddressInformation',
    'runGetMethod',
    'getConfigParam',
    'getShardBlockProof',
  ];
  const bocs = methods
    .flatMap((method) => loadFixtures(method))
    .flatMap((fixture) => {
      const found: { path: string; text: string }[] = [];
      allStrings(fixture.response, fixture.file, found);
      return found.filter((s) => s.text.startsWith('te6cc'));
    });

  test('the recordings hold both kinds (te6cck with CRC32C, te6ccg proofs without)', () => {
    expect(bocs.filter((b) => b.text.startsWith('te6cck')).length).toBeGreaterThanOrEqual(60);
    expect(bocs.filter((b) => b.text.startsWith('te6ccg')).length).toBe(6);
  });

  test('re-serialising each parsed BoC gives the recorded base64 (multi-cell ones included)', () => {
    const mismatches = bocs.filter(({ text }) => {
      const root = Cell.fromBase64(text);
      const withCrc = text.startsWith('te6cck');
      return serializeBoc(root, { crc32c: withCrc }).toString('base64') !== text;
    });
    expect(mismatches.map((m) => m.path)).toEqual([]);
    // The point of our own serialiser: @ton/core orders multi-cell BoCs differently.
    const multiCell = bocs.filter(({ text }) => text.startsWith('te6cck') && Cell.fromBase64(text).refs.length > 0);
    const coreMatches = multiCell.filter(
      ({ text }) => Cell.fromBase64(text).toBoc({ idx: false, crc32: true }).toString('base64') === text,
    );
    expect(coreMatches.length).toBeLessThan(multiCell.length);
  });
});

describe('BoC serialisation', () => {
  const leaf = beginCell().storeUint(0xabc, 12).endCell();
  const shared = beginCell().storeUint(7, 8).endCell();
  const root = beginCell().storeUint(1, 4).storeRef(beginCell().storeRef(shared).storeRef(leaf).endCell()).storeRef(shared).endCell();

  test('header: generic magic, CRC32C flag, one root, no index, and a valid checksum', () => {
    const boc = serializeBoc(root);
    expect(boc.readUInt32BE(0)).toBe(0xb5ee9c72);
    expect(boc[4]).toBe(0x41);
    expect(boc[6]).toBe(4); // cells: root, inner, shared (stored once), leaf
    expect(boc[7]).toBe(1);
    expect(boc[8]).toBe(0);
    expect(crc32c(boc.subarray(0, boc.length - 4))).toEqual(boc.subarray(boc.length - 4));
    expect(bocBase64(root).startsWith('te6cck')).toBe(true);
  });

  test('round trip keeps the cell tree', () => {
    expect(Cell.fromBoc(serializeBoc(root))[0].hash()).toEqual(root.hash());
    expect(Cell.fromBoc(serializeBoc(root, { crc32c: false }))[0].hash()).toEqual(root.hash());
    expect(serializeBoc(root, { crc32c: false })[4]).toBe(0x01);
  });

  test("tonlib's order: a parent's children are stored together before grandchildren", () => {
    const tag = (byte: number) => beginCell().storeUint(byte, 8).storeUint(0xee, 8);
    const a1 = tag(0xa1).endCell();
    const a = tag(0xa0).storeRef(a1).endCell();
    const b = tag(0xb0).endCell();
    const top = tag(0x70).storeRef(a).storeRef(b).endCell();
    const hex = serializeBoc(top).toString('hex');
    const positions = ['70ee', 'a0ee', 'b0ee', 'a1ee'].map((marker) => hex.indexOf(marker));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((x, y) => x - y)).toEqual(positions);
  });

  test('a single cell matches @ton/core (no ordering involved)', () => {
    expect(serializeBoc(leaf)).toEqual(leaf.toBoc({ idx: false, crc32: true }));
  });

  test('several roots share cells', () => {
    const boc = serializeBocRoots([root, leaf]);
    const parsed = Cell.fromBoc(boc);
    expect(parsed.map((c) => c.hash())).toEqual([root.hash(), leaf.hash()]);
    expect(boc[6]).toBe(4);
    expect(() => serializeBocRoots([])).toThrow();
  });

  test('exotic cells keep their descriptor (library cell)', () => {
    const library = new Cell({ exotic: true, bits: beginCell().storeUint(2, 8).storeBuffer(Buffer.alloc(32, 9)).endCell().bits });
    const parsed = Cell.fromBoc(serializeBoc(library))[0];
    expect(parsed.isExotic).toBe(true);
    expect(parsed.hash()).toEqual(library.hash());
  });

  test('padding of partial bytes: completion tag or zeros', () => {
    const bits = beginCell().storeUint(0b111, 3).endCell().bits;
    expect(paddedCellData(bits, true)).toEqual(Buffer.from([0b1111_0000]));
    expect(paddedCellData(bits, false)).toEqual(Buffer.from([0b1110_0000]));
    expect(paddedCellData(beginCell().endCell().bits, true)).toEqual(Buffer.alloc(0));
  });

  test('absent cells render as ""', () => {
    expect(optionalBocBase64(null)).toBe('');
    expect(optionalBocBase64(undefined)).toBe('');
    expect(optionalBocBase64(leaf)).toBe(bocBase64(leaf));
  });
});

describe('the BoC writer in slices', () => {
  // A DAG of a few thousand cells with many shared subtrees (so heavy cells become "special" and
  // the revisit order matters), and three roots.
  function sharedDag(cellCount: number): Cell[] {
    let seed = 12345;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const pool: Cell[] = [];
    for (let i = 0; i < cellCount; i++) {
      const b = beginCell().storeUint(i, 32).storeUint(random(2), 1 + random(8));
      const refs = pool.length > 0 ? random(5) : 0;
      for (let r = 0; r < refs; r++) b.storeRef(pool[pool.length - 1 - random(Math.min(pool.length, 20))]);
      pool.push(b.endCell());
    }
    return [pool[pool.length - 1], pool[random(pool.length)], pool[random(pool.length)]];
  }

  it('writes the same bytes as at once, whatever the slice, and they parse back to the roots', async () => {
    const roots = sharedDag(5000);
    const atOnce = serializeBocRoots(roots);
    const nodes = new CellNodes();
    const sliced = await finishInSlices(bagOfCellsSteps(roots.map((root) => nodes.of(root))), 0);
    expect(sliced.equals(atOnce)).toBe(true);
    expect(Cell.fromBoc(atOnce).map((c) => c.hash().toString('hex'))).toEqual(roots.map((c) => c.hash().toString('hex')));
    const cached = new BocNodeCache();
    expect((await cached.serializeInSlices(roots, 1)).equals(atOnce)).toBe(true);
    // A second call reuses the nodes and still writes the same bytes.
    expect(cached.serialize(roots).equals(atOnce)).toBe(true);
  });

  it('gives the event loop a turn between slices', async () => {
    const roots = sharedDag(20000);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    try {
      await new BocNodeCache().serializeInSlices(roots, 1);
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(0);
  });
});
