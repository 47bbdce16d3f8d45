import { Address, beginCell, Cell, Dictionary, serializeTuple, type TupleItem } from '@ton/core';
import { defaultConfig } from '@ton/sandbox';
import type { ChainConfig } from '../../src/chain';
import { DETECTION_DROPPED_PARAMS, detectionConfig } from '../../src/indexer/detectionConfig';
import { TvmPool } from '../../src/tvm';
import { DNS_CODE, dnsItemIndex, dnsRootInit } from '../helpers/dns';
import { JETTON_WALLET_CODE } from '../helpers/jetton';
import { offchainContent, onchainContent, tokenCodes, type TokenCodes } from '../helpers/tokens';
import compiled from '../fixtures/contracts/multisigVesting.json';

jest.setTimeout(120_000);

/**
 * Token detection runs its get-methods with the block's config less the validator sets (32-37),
 * the validators' temporary keys (39) and the suspended addresses (44): src/indexer/detectionConfig.ts.
 * Every get-method detection runs, on the standard contracts' real code, answers the same with
 * either config (exit code, gas and stack); and a probe of c7 (what the emulator builds from the
 * config) shows that each parameter a get-method run does read is still there: dropping any of
 * them changes the probe's answer.
 */

type Params = Dictionary<number, Cell>;

function paramsOf(text: string): Params {
  return Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), Cell.fromBase64(text));
}

/** A ChainConfig as src/chain builds one (detectionConfig reads `params` and `globalVersion`). */
function chainConfig(params: Params): ChainConfig {
  const root = beginCell().storeDictDirect(params).endCell();
  return { root, base64: root.toBoc().toString('base64'), params, globalVersion: params.get(8)!.beginParse().skip(8).loadUint(32) };
}

/** `params` without `ids`. */
function without(params: Params, ids: readonly number[]): Params {
  const copy = Dictionary.empty(Dictionary.Keys.Int(32), Dictionary.Values.Cell());
  for (const id of params.keys()) if (!ids.includes(id)) copy.set(id, params.get(id)!);
  return copy;
}

/**
 * DROP (the method id), PUSH c7, FIRST (c7's SmartContractInfo), PUSHNULL, 9 SETINDEX: the
 * SmartContractInfo the run was given with its config root (another dictionary, by design)
 * replaced by null. What stays: the global version's layout (its length), the unpacked config
 * tuple (18's current prices, 19, 20, 21, 24, 25, 43) and the precompiled gas (45).
 */
const C7_PROBE_CODE = beginCell()
  .storeUint(0x30, 8)
  .storeUint(0xed47, 16)
  .storeUint(0x6f10, 16)
  .storeUint(0x6d, 8)
  .storeUint(0x6f59, 16)
  .endCell();

/** Param 45 naming `code` as a precompiled contract of `gas` gas (PrecompiledContractsConfig, block.tlb). */
function precompiledParam(code: Cell, gas: bigint): Cell {
  // precompiled_smc#b0 gas_usage:uint64, in the dictionary's leaves (not a reference).
  const list = Dictionary.empty(Dictionary.Keys.Buffer(32), {
    serialize: (value: bigint, builder) => builder.storeUint(0xb0, 8).storeUint(value, 64),
    parse: (slice) => slice.skip(8).loadUintBig(64),
  });
  list.set(code.hash(), gas);
  return beginCell().storeUint(0xc0, 8).storeDict(list).endCell();
}

/** Get-method ids as the chain layer computes them (crc16 | 0x10000). */
function methodId(name: string): number {
  let crc = 0;
  for (const byte of Buffer.from(name, 'utf8')) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return (crc & 0xffff) | 0x10000;
}

interface Run {
  name: string;
  code: Cell;
  data: Cell;
  method: string;
  stack?: TupleItem[];
}

const address = (n: number) => new Address(0, Buffer.alloc(32, n));
const multisigCode = (name: keyof typeof compiled) => Cell.fromBase64(compiled[name].codeBoc);

/** Every get-method detection runs, on the standard contracts' code with data as deployed. */
function standardRuns(codes: TokenCodes): Run[] {
  const owner = address(1);
  const master = address(2);
  const collection = address(3);
  const signers = Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Address());
  signers.set(0, address(4));
  signers.set(1, address(5));
  const royalty = beginCell().storeUint(5, 16).storeUint(100, 16).storeAddress(owner).endCell();
  const collectionContent = beginCell()
    .storeRef(offchainContent('https://example.org/c.json'))
    .storeRef(beginCell().storeStringTail('https://example.org/'))
    .endCell();
  return [
    {
      name: 'TEP-74 jetton minter',
      code: codes.jettonMinter,
      data: beginCell()
        .storeCoins(1_000_000n)
        .storeAddress(owner)
        .storeRef(onchainContent({ name: 'Probe', symbol: 'PRB' }))
        .storeRef(JETTON_WALLET_CODE)
        .endCell(),
      method: 'get_jetton_data',
    },
    {
      name: 'TEP-74 jetton minter',
      code: codes.jettonMinter,
      data: beginCell()
        .storeCoins(1_000_000n)
        .storeAddress(owner)
        .storeRef(onchainContent({ name: 'Probe' }))
        .storeRef(JETTON_WALLET_CODE)
        .endCell(),
      method: 'get_wallet_address',
      stack: [{ type: 'slice', cell: beginCell().storeAddress(owner).endCell() }],
    },
    {
      name: 'TEP-74 jetton wallet',
      code: JETTON_WALLET_CODE,
      data: beginCell().storeCoins(12_345n).storeAddress(owner).storeAddress(master).storeRef(JETTON_WALLET_CODE).endCell(),
      method: 'get_wallet_data',
    },
    ...(['get_collection_data', 'get_nft_address_by_index', 'get_nft_content'] as const).map((method) => ({
      name: 'TEP-62 NFT collection',
      code: codes.nftCollection,
      data: beginCell()
        .storeAddress(owner)
        .storeUint(3, 64)
        .storeRef(collectionContent)
        .storeRef(codes.nftItem)
        .storeRef(royalty)
        .endCell(),
      method,
      stack:
        method === 'get_collection_data'
          ? []
          : method === 'get_nft_address_by_index'
            ? [{ type: 'int' as const, value: 2n }]
            : [
                { type: 'int' as const, value: 2n },
                { type: 'cell' as const, cell: beginCell().storeStringTail('2.json').endCell() },
              ],
    })),
    {
      name: 'TEP-62 NFT item',
      code: codes.nftItem,
      data: beginCell()
        .storeUint(2, 64)
        .storeAddress(collection)
        .storeAddress(owner)
        .storeRef(beginCell().storeStringTail('2.json'))
        .endCell(),
      method: 'get_nft_data',
    },
    {
      name: '.ton DNS collection',
      code: DNS_CODE.collection,
      data: dnsRootInit().data!,
      method: 'dnsresolve',
      stack: [
        { type: 'slice', cell: beginCell().storeStringTail('probe\0').endCell() },
        { type: 'int', value: 0n },
      ],
    },
    ...(['get_nft_data', 'get_domain', 'dnsresolve'] as const).map((method) => ({
      name: '.ton DNS item',
      code: DNS_CODE.item,
      data: beginCell()
        .storeUint(dnsItemIndex('probe'), 256)
        .storeAddress(collection)
        .storeAddress(owner)
        // Content: on-chain layout (0x00) with the records' dictionary, as the root deploys it.
        .storeRef(beginCell().storeUint(0, 8).storeDict(null).endCell())
        .storeRef(beginCell().storeStringTail('probe'))
        .storeDict(null)
        .storeUint(1_700_000_000, 64)
        .endCell(),
      method,
      stack:
        method === 'dnsresolve'
          ? [
              { type: 'slice' as const, cell: beginCell().storeUint(0, 8).endCell() },
              { type: 'int' as const, value: 0n },
            ]
          : [],
    })),
    ...(['get_multisig_data', 'get_order_address'] as const).map((method) => ({
      name: 'multisig v2',
      code: multisigCode('multisig'),
      data: beginCell()
        .storeUint(3, 256)
        .storeUint(2, 8)
        .storeRef(beginCell().storeDictDirect(signers))
        .storeUint(2, 8)
        .storeDict(null)
        .storeBit(false)
        .endCell(),
      method,
      stack: method === 'get_order_address' ? [{ type: 'int' as const, value: 1n }] : [],
    })),
    {
      name: 'multisig v2 order',
      code: multisigCode('order'),
      data: beginCell().storeAddress(address(6)).storeUint(1, 256).endCell(),
      method: 'get_order_data',
    },
    {
      name: 'vesting',
      code: multisigCode('vesting'),
      data: beginCell()
        .storeUint(0, 32)
        .storeUint(42, 32)
        .storeBuffer(Buffer.alloc(32, 7))
        .storeBit(false)
        .storeRef(
          beginCell()
            .storeUint(1_700_000_000, 64)
            .storeUint(360 * 86_400, 32)
            .storeUint(30 * 86_400, 32)
            .storeUint(0, 32)
            .storeCoins(10_000_000_000n)
            .storeAddress(owner)
            .storeAddress(master),
        )
        .endCell(),
      method: 'get_vesting_data',
    },
  ];
}

describe('the config of detection get-methods', () => {
  let pool: TvmPool;
  const full = chainConfig(paramsOf(defaultConfig));

  beforeAll(() => {
    pool = new TvmPool({ workers: 1, idleTimeoutMs: 60_000 });
  });

  afterAll(async () => {
    await pool?.close();
  });

  /** One get-method run with the config `config` (a ChainConfig, or a config's base64 text). */
  async function run(config: ChainConfig | string, code: Cell, data: Cell, method: number, stack: TupleItem[] = []) {
    return pool.getMethod(
      {
        code: code.toBoc(),
        data: data.toBoc(),
        methodId: method,
        stack: serializeTuple(stack).toBoc(),
        config: typeof config === 'string' ? config : config.base64,
        address: address(9).toRawString(),
        unixTime: 1_750_000_000,
        balance: '1000000000',
        extraCurrency: {},
        maxResultEntries: 4096,
      },
      Date.now() + 30_000,
    );
  }

  test('leaves out the validator sets, their temporary keys and the suspended list, and keeps every other parameter as it was', () => {
    const trimmed = detectionConfig(full);
    expect(detectionConfig(full)).toBe(trimmed);
    const kept = [...trimmed.params.keys()].sort((a, b) => a - b);
    const expected = [...full.params.keys()].filter((id) => !DETECTION_DROPPED_PARAMS.has(id)).sort((a, b) => a - b);
    expect(kept).toEqual(expected);
    for (const id of kept) expect(trimmed.params.get(id)!.hash().equals(full.params.get(id)!.hash())).toBe(true);
    // The default (mainnet-like) config has the three validator sets and the suspended list.
    for (const id of [32, 34, 36, 44]) expect(full.params.has(id)).toBe(true);
    expect(trimmed.globalVersion).toBe(full.globalVersion);
    expect(Cell.fromBase64(trimmed.base64).hash().equals(trimmed.root.hash())).toBe(true);
    // What the emulator parses at every run: ~150 KB of text before, ~5 KB after.
    expect(full.base64.length).toBeGreaterThan(140_000);
    expect(trimmed.base64.length).toBeLessThan(full.base64.length / 20);
    // A config without any of them is handed on as it is.
    const small = chainConfig(without(full.params, [...DETECTION_DROPPED_PARAMS]));
    expect(detectionConfig(small)).toBe(small);
  });

  test('the standard contracts answer every detection get-method the same with both configs', async () => {
    const trimmed = detectionConfig(full);
    const runs = standardRuns(await tokenCodes());
    for (const r of runs) {
      const [whole, less] = [
        await run(full, r.code, r.data, methodId(r.method), r.stack),
        await run(trimmed, r.code, r.data, methodId(r.method), r.stack),
      ];
      const label = `${r.name} ${r.method}`;
      // Each run really ran the method (not an unknown method or a bad data layout).
      expect([label, whole.exitCode]).toEqual([label, 0]);
      expect([label, less.exitCode, less.gasUsed]).toEqual([label, whole.exitCode, whole.gasUsed]);
      expect([label, Buffer.from(less.stack).toString('hex')]).toEqual([label, Buffer.from(whole.stack).toString('hex')]);
    }
  });

  test('c7 is the same with both configs, and it changes when any parameter a get-method run reads is dropped', async () => {
    // Param 45 naming the probe, so the precompiled gas in c7 comes from the config too.
    const params = without(full.params, []);
    params.set(45, precompiledParam(C7_PROBE_CODE, 777n));
    const config = chainConfig(params);
    const trimmed = detectionConfig(config);
    const probe = (c: ChainConfig | string) => run(c, C7_PROBE_CODE, Cell.EMPTY, 0);
    const whole = await probe(config);
    expect(whole.exitCode).toBe(0);
    const wholeStack = Buffer.from(whole.stack).toString('hex');
    // The probe reads what it should: 17+ entries with the precompiled gas of param 45.
    expect(wholeStack).toContain((777).toString(16));
    const less = await probe(trimmed);
    expect([less.exitCode, Buffer.from(less.stack).toString('hex')]).toEqual([0, wholeStack]);
    // (12 and 31, which unpacking the config reads, are kept too, but no get-method run shows them;
    // 43, the size limits, is not in this config.)
    const read = [8, 18, 19, 20, 21, 24, 25, 43, 45].filter((id) => params.has(id));
    expect(read).toEqual([8, 18, 19, 20, 21, 24, 25, 45]);
    for (const id of read) {
      expect(DETECTION_DROPPED_PARAMS.has(id)).toBe(false);
      const text = beginCell()
        .storeDictDirect(without(trimmed.params, [id]))
        .endCell()
        .toBoc()
        .toString('base64');
      // A config the emulator refuses would be a different answer too.
      const dropped = await probe(text).catch(() => undefined);
      const same = dropped?.exitCode === 0 && Buffer.from(dropped.stack).toString('hex') === wholeStack;
      expect([id, same]).toEqual([id, false]);
    }
  });
});
