import { createHash } from 'node:crypto';
import { Address, beginCell, Cell, Dictionary, TupleItem } from '@ton/core';
import { bocBase64 } from '../../src/cells/bocWriter';
import { parseLegacyStack } from '../../src/converters/stack';
import {
  parseDnsRecords,
  parseTokenContent,
  readJettonWalletData,
  readNftItemData,
  stackAddress,
  toJettonMasterData,
  toJettonWalletData,
  toNftCollectionData,
  toNftItemData,
  TOKEN_ATTRIBUTES,
} from '../../src/converters/tokenData';
import { describeWithFixtures } from '../helpers/fixtures';
import { fixture, result } from './support';

const sha256 = (text: string) => createHash('sha256').update(text).digest();
const snake = (bytes: Buffer) => beginCell().storeUint(0, 8).storeBuffer(bytes).endCell();

function onchain(entries: [string, Cell][]): Cell {
  const dict = Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
  for (const [name, value] of entries) dict.set(sha256(name), value);
  return beginCell().storeUint(0, 8).storeDict(dict).endCell();
}

function recordedStack(stem: string): TupleItem[] {
  return parseLegacyStack(result<{ stack: unknown[] }>(stem).stack);
}

describeWithFixtures('token data against the recordings', () => {
  test('runGetMethod-01 (a jetton master on a private network): get_jetton_data becomes jettonMasterData', () => {
    const stack = recordedStack('runGetMethod-01');
    const recorded = result<{ stack: [string, { bytes: string }][] }>('runGetMethod-01').stack;
    const data = toJettonMasterData('EQAOtrk3eOGwebP9KMNVSmIGo3mA0bN1e12SiBf0fgkWDEj8', stack);
    expect(data).toEqual({
      '@type': 'ext.tokens.jettonMasterData',
      address: 'EQAOtrk3eOGwebP9KMNVSmIGo3mA0bN1e12SiBf0fgkWDEj8',
      contract_type: 'jetton_master',
      total_supply: (0x5af3107a4000).toString(),
      mintable: true,
      admin_address: Cell.fromBase64(recorded[2][1].bytes).beginParse().loadAddress().toString(),
      // The values are ContentData cells whose bytes continue in a reference.
      jetton_content: { type: 'onchain', data: { uri: 'https://domain', decimals: '9' } },
      jetton_wallet_code: recorded[4][1].bytes,
    });
  });

  test('runGetMethod-04/-05 (USDT): a jetton wallet whose master computes its address', () => {
    const walletAddress = fixture('runGetMethod-04').params['address'] as string;
    const masterAddress = fixture('runGetMethod-05').params['address'] as string;
    const fields = readJettonWalletData(recordedStack('runGetMethod-04'));
    if (!fields) throw new Error('get_wallet_data did not read');
    expect(fields.jetton.equals(Address.parse(masterAddress))).toBe(true);
    const computed = stackAddress(recordedStack('runGetMethod-05')[0]);
    expect(computed?.equals(Address.parse(walletAddress))).toBe(true);
    const data = toJettonWalletData(walletAddress.toUpperCase(), fields);
    expect(data).toMatchObject({
      '@type': 'ext.tokens.jettonWalletData',
      contract_type: 'jetton_wallet',
      balance: (0x2774a4866a).toString(),
    });
    expect(data).not.toHaveProperty('mintless_is_claimed');
    // The same library cell toncenter reported as USDT's jetton_wallet_code (getTokenData-03).
    expect(data.jetton_wallet_code).toBe(result<{ jetton_wallet_code: string }>('getTokenData-03').jetton_wallet_code);
  });

  test('getTokenData-03: USDT on-chain content (uri, decimals) decodes to the recorded object', () => {
    const recorded = result<{ jetton_content: unknown }>('getTokenData-03').jetton_content;
    const content = onchain([
      ['decimals', snake(Buffer.from('6'))],
      ['uri', snake(Buffer.from('https://tether.to/usdt-ton.json'))],
    ]);
    expect(parseTokenContent(content)).toEqual(recorded);
  });

  test.each(['getTokenData-01', 'getTokenData-02'])('%s: off-chain content decodes to the recorded object', (stem) => {
    const recorded = result<{ collection_content?: { data: string }; content?: { data: string } }>(stem);
    const expected = recorded.collection_content ?? recorded.content;
    if (!expected) throw new Error('no content in the recording');
    const uri = Buffer.from(expected.data);
    // Split over two cells as long URIs are.
    const cell = beginCell()
      .storeUint(1, 8)
      .storeBuffer(uri.subarray(0, 20))
      .storeRef(beginCell().storeBuffer(uri.subarray(20)).endCell())
      .endCell();
    expect(parseTokenContent(cell)).toEqual(expected);
  });
});

describe('TEP-64 token content', () => {
  test('standard attributes only, in toncenter order; image_data in base64; values that are not UTF-8 left out', () => {
    const content = onchain([
      ['symbol', snake(Buffer.from('LOC'))],
      ['name', snake(Buffer.from('Local Coin ✓'))],
      ['image_data', snake(Buffer.from([0xff, 0x00, 0x01]))],
      ['description', snake(Buffer.from([0xff, 0xfe]))],
      ['not_standard', snake(Buffer.from('x'))],
      [
        'decimals',
        beginCell()
          .storeRef(snake(Buffer.from('9')))
          .endCell(),
      ],
    ]);
    const parsed = parseTokenContent(content);
    expect(parsed).toEqual({ type: 'onchain', data: { name: 'Local Coin ✓', image_data: '/wAB', symbol: 'LOC', decimals: '9' } });
    expect(Object.keys(parsed.data)).toEqual(TOKEN_ATTRIBUTES.filter((name) => name in (parsed.data as object)));
  });

  test('chunked values are joined in index order', () => {
    const chunks = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.Cell());
    chunks.set(1, beginCell().storeBuffer(Buffer.from('world')).endCell());
    chunks.set(0, beginCell().storeBuffer(Buffer.from('hello ')).endCell());
    const chunked = beginCell().storeUint(1, 8).storeDict(chunks).endCell();
    expect(parseTokenContent(onchain([['description', chunked]]))).toEqual({ type: 'onchain', data: { description: 'hello world' } });
  });

  test('content that is neither on-chain nor off-chain reads as an empty off-chain URI', () => {
    expect(parseTokenContent(beginCell().storeUint(7, 8).endCell())).toEqual({ type: 'offchain', data: '' });
    expect(parseTokenContent(Cell.EMPTY)).toEqual({ type: 'offchain', data: '' });
  });
});

describe('token stacks', () => {
  const owner = new Address(0, Buffer.alloc(32, 1));
  const collection = new Address(0, Buffer.alloc(32, 2));
  const slice = (address: Address | null): TupleItem => ({ type: 'slice', cell: beginCell().storeAddress(address).endCell() });

  test('a short or mistyped stack is not that kind of token', () => {
    expect(toJettonMasterData('x', [{ type: 'int', value: 1n }])).toBeUndefined();
    expect(
      readJettonWalletData([{ type: 'int', value: 1n }, slice(null), slice(owner), { type: 'cell', cell: Cell.EMPTY }]),
    ).toBeUndefined();
    expect(toNftCollectionData('x', [{ type: 'null' }, { type: 'cell', cell: Cell.EMPTY }, slice(owner)])).toBeUndefined();
  });

  test('addr_none owners and admins are left out; addresses are bounceable URL-safe', () => {
    const master = toJettonMasterData('m', [
      { type: 'int', value: 5n },
      { type: 'int', value: 0n },
      slice(null),
      { type: 'cell', cell: beginCell().storeUint(1, 8).storeStringTail('u').endCell() },
      { type: 'cell', cell: Cell.EMPTY },
    ]);
    expect(master).toEqual({
      '@type': 'ext.tokens.jettonMasterData',
      address: 'm',
      contract_type: 'jetton_master',
      total_supply: '5',
      mintable: false,
      jetton_content: { type: 'offchain', data: 'u' },
      jetton_wallet_code: bocBase64(Cell.EMPTY),
    });
    const collectionData = toNftCollectionData('c', [{ type: 'int', value: 3n }, { type: 'cell', cell: Cell.EMPTY }, slice(null)]);
    expect(collectionData).not.toHaveProperty('owner_address');
    const item = readNftItemData([
      { type: 'int', value: -1n },
      { type: 'int', value: 9n },
      slice(collection),
      slice(owner),
      { type: 'cell', cell: Cell.EMPTY },
    ]);
    if (!item) throw new Error('item did not read');
    expect(toNftItemData('i', item, { type: 'offchain', data: 'z' })).toEqual({
      '@type': 'ext.tokens.nftItemData',
      address: 'i',
      contract_type: 'nft_item',
      init: true,
      index: '9',
      collection_address: collection.toString({ bounceable: true, urlSafe: true }),
      owner_address: owner.toString({ bounceable: true, urlSafe: true }),
      content: { type: 'offchain', data: 'z' },
    });
  });

  test('DNS item records: known categories by name, others by upper-case hex key', () => {
    const records = Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
    records.set(sha256('wallet'), beginCell().storeUint(0x9fd3, 16).storeAddress(owner).storeUint(0, 8).endCell());
    records.set(sha256('site'), beginCell().storeUint(0xad01, 16).storeBuffer(Buffer.alloc(32, 0xaa)).storeUint(0, 8).endCell());
    records.set(sha256('dns_next_resolver'), beginCell().storeUint(0xba93, 16).storeAddress(collection).endCell());
    records.set(Buffer.alloc(32, 0x0f), beginCell().storeUint(0x7473, 16).storeBuffer(Buffer.alloc(32, 0xbb)).endCell());
    records.set(sha256('storage'), beginCell().storeUint(0x1234, 16).endCell());
    expect(parseDnsRecords(beginCell().storeDictDirect(records).endCell())).toEqual({
      wallet: { '@type': 'dns_smc_address', smc_addr: { '@type': 'addr_std', workchain_id: 0, address: '01'.repeat(32) } },
      site: { '@type': 'dns_adnl_address', adnl_addr: 'aa'.repeat(32) },
      dns_next_resolver: { '@type': 'dns_next_resolver', resolver: { '@type': 'addr_std', workchain_id: 0, address: '02'.repeat(32) } },
      ['0F'.repeat(32)]: { '@type': 'dns_storage_address', bag_id: 'bb'.repeat(32) },
    });
    expect(parseDnsRecords(null)).toEqual({});
  });
});
