import { cppSchemaErrors, describeWithCppSpec } from '../helpers/cppSchema';

/**
 * The schema check of cppSchema.test.ts can fail: the shapes we answered before following the C++
 * server (the 2023 Python forms) and anything with an unknown key are rejected by it.
 */

const ZERO_HASH = Buffer.alloc(32).toString('base64');
const BLOCK_ID = {
  '@type': 'ton.blockIdExt',
  workchain: -1,
  shard: '-9223372036854775808',
  seqno: 5,
  root_hash: ZERO_HASH,
  file_hash: ZERO_HASH,
};
const TX_ID = { '@type': 'internal.transactionId', lt: '0', hash: ZERO_HASH };

const addressInformation = {
  '@type': 'raw.fullAccountState',
  balance: '0',
  extra_currencies: [],
  last_transaction_id: TX_ID,
  block_id: BLOCK_ID,
  code: '',
  data: '',
  frozen_hash: '',
  sync_utime: 1,
  state: 'uninitialized',
  suspended: false,
};

const message = {
  '@type': 'ext.message',
  hash: ZERO_HASH,
  source: '',
  destination: 'EQ',
  value: '0',
  extra_currencies: [],
  fwd_fee: '0',
  ihr_fee: '0',
  created_lt: '0',
  body_hash: ZERO_HASH,
  msg_data: { '@type': 'msg.dataRaw', body: 'te6', init_state: '' },
  message: '',
};

const transaction = {
  '@type': 'ext.transaction',
  address: { '@type': 'accountAddress', account_address: 'EQ' },
  account: '0:AB',
  utime: 1,
  data: 'te6',
  transaction_id: TX_ID,
  fee: '0',
  storage_fee: '0',
  other_fee: '0',
  in_msg: message,
  out_msgs: [],
};

describeWithCppSpec('the C++ schema check rejects what C++ does not answer', () => {
  test('the C++ forms validate', () => {
    expect(cppSchemaErrors('AddressInformation', addressInformation)).toEqual([]);
    expect(cppSchemaErrors('Transactions', [transaction])).toEqual([]);
  });

  test('Python forms: balance as the number 0, raw.transaction without account, raw.message', () => {
    expect(cppSchemaErrors('AddressInformation', { ...addressInformation, balance: 0 })).not.toEqual([]);
    const withoutAccount: Record<string, unknown> = { ...transaction };
    delete withoutAccount['account'];
    expect(cppSchemaErrors('Transactions', [{ ...withoutAccount, '@type': 'raw.transaction' }])).not.toEqual([]);
    expect(cppSchemaErrors('Transactions', [{ ...transaction, in_msg: { ...message, '@type': 'raw.message' } }])).not.toEqual([]);
    const walletState = { '@type': 'wallet.v4.accountState', wallet_id: '698983191', seqno: 1 };
    expect(cppSchemaErrors('AccountState', walletState)).not.toEqual([]);
    expect(cppSchemaErrors('AccountState', { ...walletState, wallet_id: 698983191 })).toEqual([]);
  });

  test('unknown keys and wrong tags are rejected; getOutMsgQueueSize ids must be chain.blockIdExt', () => {
    expect(cppSchemaErrors('AddressInformation', { ...addressInformation, surprise: 1 })).not.toEqual([]);
    const sizes = (tag: string) => ({
      '@type': 'blocks.outMsgQueueSizes',
      shards: [{ '@type': 'blocks.outMsgQueueSize', id: { ...BLOCK_ID, '@type': tag }, size: 0 }],
      ext_msg_queue_size_limit: 8000,
    });
    expect(cppSchemaErrors('OutMsgQueueSizes', sizes('chain.blockIdExt'))).toEqual([]);
    expect(cppSchemaErrors('OutMsgQueueSizes', sizes('ton.blockIdExt'))).not.toEqual([]);
  });
});
