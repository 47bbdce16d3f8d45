import { Address, beginCell, Cell, internal, OutAction, SendMode, storeMessageRelaxed, storeOutList } from '@ton/core';
import { defaultConfig } from '@ton/sandbox';
import { configParseGasLimitsPrices, loadConfigParamById, MsgPrices } from '@ton/ton';
import { cellStats } from '../../src/cells';
import { forwardFee, gasFee, inboundForwardFee, outboundForwardFees, sentMessages, storageFee } from '../../src/chain/feeArithmetic';
import { toQueryFees } from '../../src/converters/fees';
import { loadGasPrices as parseGasPrices, loadMsgPrices as parseMsgPrices, loadStoragePrices as parseStoragePrices } from '../../src/tlb';
import { buildExternalMessage } from '../../src/tvm';
import { describeWithFixtures, fixtureResult, loadFixtures } from '../helpers/fixtures';
import { fixtureRows, keyOrder, withoutExtra } from './support';

const PRICES: MsgPrices = {
  lumpPrice: 400000n,
  bitPrice: 26214400n,
  cellPrice: 2621440000n,
  ihrPriceFactor: 98304,
  firstFrac: 21845,
  nextFrac: 21845,
};
const MC_PRICES: MsgPrices = { ...PRICES, lumpPrice: 10000000n, bitPrice: 655360000n, cellPrice: 65536000000n };
const DESTINATION = new Address(0, Buffer.alloc(32, 0xab));

describeWithFixtures('estimateFee against the recordings', () => {
  test.each(fixtureRows('estimateFee'))('%s: query.fees has the recorded shape and key order', (_file, f) => {
    const recorded = fixtureResult(f) as { source_fees: Record<string, number>; destination_fees: unknown[] };
    const fees = recorded.source_fees;
    const ours = toQueryFees({
      inForwardFee: BigInt(fees['in_fwd_fee']),
      storageFee: BigInt(fees['storage_fee']),
      gasFee: BigInt(fees['gas_fee']),
      forwardFee: BigInt(fees['fwd_fee']),
    });
    expect(ours).toEqual(withoutExtra(recorded));
    expect(keyOrder(ours)).toEqual(keyOrder(recorded));
  });

  test('estimateFee-01: the recorded body becomes a one-cell message, so the import fee is the lump price alone', () => {
    const [f] = loadFixtures('estimateFee');
    const body = Cell.fromBase64(f.params['body'] as string);
    const message = buildExternalMessage(Address.parse(f.params['address'] as string), body, null);
    expect(message.refs).toHaveLength(0);
    // Mainnet's basechain lump price since the 2025 fee cut; bit and cell prices do not matter here.
    const recorded = (fixtureResult(f) as { source_fees: { in_fwd_fee: number } }).source_fees.in_fwd_fee;
    expect(inboundForwardFee(message, { ...PRICES, lumpPrice: 66667n })).toBe(BigInt(recorded));
  });
});

describe('fee arithmetic', () => {
  const config = (id: number) => loadConfigParamById(defaultConfig, id);

  test('gas prices of config 20/21 read as @ton/ton reads them; the per-unit part is rounded up', () => {
    for (const id of [20, 21]) {
      const ours = parseGasPrices(config(id));
      const theirs = configParseGasLimitsPrices(config(id).beginParse());
      expect(ours).toEqual({ flatGasLimit: theirs.flatLimit, flatGasPrice: theirs.flatGasPrice, gasPrice: theirs.other.gasPrice });
    }
    const prices = { flatGasLimit: 100n, flatGasPrice: 40000n, gasPrice: 26214400n };
    expect(gasFee(50n, prices)).toBe(40000n);
    expect(gasFee(100n, prices)).toBe(40000n);
    expect(gasFee(3308n, prices)).toBe(40000n + 3208n * 400n);
    expect(gasFee(101n, { ...prices, gasPrice: 1n })).toBe(40001n);
  });

  test('forward fee: lump price plus bits and cells at 2^-16, rounded up', () => {
    expect(forwardFee(PRICES, 0n, 0n)).toBe(400000n);
    expect(forwardFee(PRICES, 1n, 100n)).toBe(400000n + 40000n + 40000n);
    expect(forwardFee({ ...PRICES, bitPrice: 1n, cellPrice: 0n }, 0n, 1n)).toBe(400001n);
  });

  test('cell statistics count each distinct cell once', () => {
    const leaf = beginCell().storeUint(7, 10).endCell();
    const root = beginCell().storeUint(1, 3).storeRef(leaf).storeRef(leaf).endCell();
    expect(cellStats([root])).toEqual({ cells: 2n, bits: 13n });
    expect(cellStats([root, leaf])).toEqual({ cells: 2n, bits: 13n });
  });

  test('import fee counts every cell of the message but the root', () => {
    const body = beginCell().storeUint(0, 32).storeRef(beginCell().storeUint(1, 8).endCell()).endCell();
    const inline = buildExternalMessage(DESTINATION, body, null);
    expect(inline.refs).toHaveLength(1);
    expect(inboundForwardFee(inline, PRICES)).toBe(forwardFee(PRICES, 1n, 8n));
    const big = beginCell().storeBuffer(Buffer.alloc(120)).endCell();
    const asRef = buildExternalMessage(DESTINATION, big, null);
    expect(asRef.refs[0].hash().equals(big.hash())).toBe(true);
    expect(inboundForwardFee(asRef, PRICES)).toBe(forwardFee(PRICES, 1n, 960n));
  });

  test('storage fee: rent per price period from last_paid to now, rounded up once; nothing without last_paid', () => {
    const prices = [
      { utime_since: 100, bit_price_ps: 1n, cell_price_ps: 500n, mc_bit_price_ps: 1000n, mc_cell_price_ps: 500000n },
      { utime_since: 1_000_000, bit_price_ps: 2n, cell_price_ps: 700n, mc_bit_price_ps: 1500n, mc_cell_price_ps: 700000n },
    ];
    const ceil16 = (value: bigint) => (value + 65535n) / 65536n;
    const base = { cells: 11n, bits: 5000n, prices };
    expect(storageFee({ ...base, now: 2_000_000, lastPaid: 500_000, masterchain: false })).toBe(
      ceil16(500_000n * (5000n * 1n + 11n * 500n) + 1_000_000n * (5000n * 2n + 11n * 700n)),
    );
    // A last payment inside the second period is not charged the first period again.
    expect(storageFee({ ...base, now: 2_000_000, lastPaid: 1_500_000, masterchain: true })).toBe(
      ceil16(500_000n * (5000n * 1500n + 11n * 700000n)),
    );
    expect(storageFee({ ...base, now: 999_999, lastPaid: 10, masterchain: false })).toBe(ceil16(999_899n * (5000n + 11n * 500n)));
    expect(storageFee({ ...base, now: 10, lastPaid: 10, masterchain: false })).toBe(0n);
    expect(storageFee({ ...base, now: 2_000_000, lastPaid: 0, masterchain: false })).toBe(0n);
    expect(storageFee({ ...base, now: 100, lastPaid: 50, masterchain: false })).toBe(0n);
    expect(parseStoragePrices(config(18)).length).toBeGreaterThan(0);
    expect(parseMsgPrices(config(25))).toEqual(PRICES);
  });

  test('forward fees of the sent messages: StateInit and body cells only, masterchain prices toward the masterchain', () => {
    const body = beginCell().storeUint(0, 32).storeStringTail('hi').endCell();
    const toBasechain = internal({ to: DESTINATION, value: 1n, body: beginCell().storeRef(body).endCell() });
    const toMasterchain = internal({ to: new Address(-1, Buffer.alloc(32, 1)), value: 1n, body: Cell.EMPTY });
    const actions: OutAction[] = [
      { type: 'sendMsg', mode: SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS, outMsg: toBasechain },
      { type: 'reserve', mode: 0, currency: { coins: 5n } },
      { type: 'sendMsg', mode: SendMode.PAY_GAS_SEPARATELY, outMsg: toMasterchain },
    ];
    const list = beginCell().store(storeOutList(actions)).endCell();
    const sent = sentMessages(list);
    expect(sent.map((cell) => cell.hash().toString('hex'))).toEqual(
      [toBasechain, toMasterchain].map((message) => beginCell().store(storeMessageRelaxed(message)).endCell().hash().toString('hex')),
    );
    const first = cellStats(sent[0].refs);
    // The wrapper cell of the body is stored inline in the message, so only `body` is counted.
    expect(first).toEqual({ cells: 1n, bits: BigInt(body.bits.length) });
    const expected = forwardFee(PRICES, first.cells, first.bits) + forwardFee(MC_PRICES, 0n, 0n);
    expect(outboundForwardFees(list, { basechain: PRICES, masterchain: MC_PRICES }, false)).toBe(expected);
    expect(outboundForwardFees(null, { basechain: PRICES, masterchain: MC_PRICES }, false)).toBe(0n);
    expect(outboundForwardFees(Cell.EMPTY, { basechain: PRICES, masterchain: MC_PRICES }, true)).toBe(0n);
  });
});
