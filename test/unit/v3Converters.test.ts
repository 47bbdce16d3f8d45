import { beginCell, Cell } from '@ton/core';
import { parseLegacyStack } from '../../src/converters/stack';
import { toV3AddressInformation, toV3EstimateFee, toV3SendMessageResult, toV3WalletInformation } from '../../src/v3/fromV2';
import { toV3Stack } from '../../src/v3/stack';
import { v3EntryToLegacy } from '../../src/converters/stack/v3Input';
import { ApiError, ValidationError } from '../../src/errors';

const ZERO = Buffer.alloc(32).toString('base64');
const boc = (cell: Cell) => cell.toBoc().toString('base64');

describe('v3 legacy converters (ton-index-go shapes)', () => {
  const never = {
    balance: '0',
    code: '',
    data: '',
    frozen_hash: '',
    last_transaction_id: { lt: '0', hash: ZERO },
    state: 'uninitialized',
  };

  test('addressInformation: "" becomes null, status words of the indexer or of v2 (use_v2)', () => {
    expect(toV3AddressInformation(never)).toEqual({
      balance: '0',
      code: null,
      data: null,
      last_transaction_lt: '0',
      last_transaction_hash: ZERO,
      frozen_hash: null,
      status: 'uninit',
    });
    expect(Object.keys(toV3AddressInformation(never))).toEqual([
      'balance',
      'code',
      'data',
      'last_transaction_lt',
      'last_transaction_hash',
      'frozen_hash',
      'status',
    ]);
    expect(toV3AddressInformation(never, 'v2').status).toBe('uninitialized');
    const frozen = toV3AddressInformation({ ...never, balance: '5', frozen_hash: 'q83v', state: 'frozen' });
    expect(frozen).toMatchObject({ balance: '5', frozen_hash: 'q83v', status: 'frozen' });
    expect(toV3AddressInformation({ ...never, code: 'te6c', data: 'te6d', state: 'active' })).toMatchObject({
      code: 'te6c',
      data: 'te6d',
      status: 'active',
    });
  });

  test('walletInformation: wallet fields only when present; a non-wallet that is not uninit is undefined (409)', () => {
    const wallet = {
      wallet: true,
      balance: '10',
      account_state: 'active',
      wallet_type: 'wallet v4 r2',
      seqno: 3,
      wallet_id: 698983191,
      last_transaction_id: { lt: '7', hash: 'aGFzaA==' },
    };
    expect(toV3WalletInformation(wallet)).toEqual({
      balance: '10',
      wallet_type: 'wallet v4 r2',
      seqno: 3,
      wallet_id: 698983191,
      last_transaction_lt: '7',
      last_transaction_hash: 'aGFzaA==',
      status: 'active',
    });
    const uninit = { wallet: false, balance: '0', account_state: 'uninitialized', last_transaction_id: { lt: '0', hash: ZERO } };
    expect(toV3WalletInformation(uninit)).toEqual({
      balance: '0',
      last_transaction_lt: '0',
      last_transaction_hash: ZERO,
      status: 'uninit',
    });
    expect(toV3WalletInformation({ ...uninit, account_state: 'active' })).toBeUndefined();
    expect(toV3WalletInformation({ ...uninit, account_state: 'frozen' })).toBeUndefined();
  });

  test('message and estimateFee drop the v2 tags', () => {
    expect(toV3SendMessageResult({ hash: 'a', hash_norm: 'b' })).toEqual({ message_hash: 'a', message_hash_norm: 'b' });
    const fees = { '@type': 'fees', in_fwd_fee: 1, storage_fee: 2, gas_fee: 3, fwd_fee: 4 };
    expect(toV3EstimateFee({ source_fees: fees, destination_fees: [fees] })).toEqual({
      source_fees: { in_fwd_fee: 1, storage_fee: 2, gas_fee: 3, fwd_fee: 4 },
      destination_fees: [{ in_fwd_fee: 1, storage_fee: 2, gas_fee: 3, fwd_fee: 4 }],
    });
  });

  test('output stack: legacy entries and nested tonlib entries become {type, value}, numbers in hex', () => {
    const cell = boc(beginCell().storeUint(5, 8).endCell());
    const stack = toV3Stack([
      ['num', '-0x1f'],
      ['cell', { bytes: cell, object: { data: { b64: 'BQ==', len: 8 }, refs: [], special: false } } as never],
      [
        'tuple',
        {
          '@type': 'tvm.tuple',
          elements: [
            { '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: '-255' } },
            { '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: '0' } },
            { '@type': 'tvm.stackEntrySlice', slice: { '@type': 'tvm.slice', bytes: cell } },
            { '@type': 'tvm.stackEntryList', list: { '@type': 'tvm.list', elements: [] } },
          ],
        },
      ],
      ['list', { '@type': 'tvm.list', elements: [] }],
    ]);
    expect(stack).toEqual([
      { type: 'num', value: '-0x1f' },
      { type: 'cell', value: cell },
      {
        type: 'tuple',
        value: [
          { type: 'num', value: '-0xff' },
          { type: 'num', value: '0x0' },
          { type: 'slice', value: cell },
          { type: 'list', value: [] },
        ],
      },
      { type: 'list', value: [] },
    ]);
    expect(() => toV3Stack([['unsupported', '']])).toThrow(ApiError);
  });

  test('input stack: num/cell/slice become the v2 pairs ton-index-go forwards; anything else is a 422', () => {
    expect(v3EntryToLegacy({ type: 'num', value: '0x10' })).toEqual(['num', '0x10']);
    expect(v3EntryToLegacy({ type: 'cell', value: 'te6' })).toEqual(['tvm.Cell', 'te6']);
    expect(v3EntryToLegacy({ type: 'slice', value: 'te6' })).toEqual(['tvm.Slice', 'te6']);
    expect(() => v3EntryToLegacy({ type: 'tuple', value: [] })).toThrow(new ValidationError('unsupported stack parameter type: tuple'));
  });

  test('v2 runGetMethod reads the v3 form too, mixed with pairs', () => {
    const cell = beginCell().storeUint(9, 16).endCell();
    const items = parseLegacyStack([
      { type: 'num', value: '0x10' },
      ['num', '-3'],
      { type: 'slice', value: boc(cell) },
      { type: 'cell', value: boc(cell) },
    ]);
    expect(items[0]).toEqual({ type: 'int', value: 16n });
    expect(items[1]).toEqual({ type: 'int', value: -3n });
    expect(items[2].type).toBe('slice');
    expect(items[3].type).toBe('cell');
    expect(() => parseLegacyStack([{ type: 'list', value: [] }])).toThrow('unsupported stack parameter type: list');
    expect(() => parseLegacyStack([{ type: 'num', value: 'zz' }])).toThrow(ValidationError);
  });
});
