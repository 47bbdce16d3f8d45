import {
  Address,
  beginCell,
  Cell,
  Dictionary,
  loadTransaction,
  Message,
  storeMessage,
  storeTransaction,
  Transaction,
  TransactionDescription,
} from '@ton/core';
import {
  loadTransactionBoc,
  toRawTransaction,
  toRawTransactionExt,
  toTransactionJson,
  transactionMessages,
} from '../../src/converters/transaction';
import { cppTransaction } from '../helpers/cppDifferences';
import { describeWithFixtures, fixtureResult, loadFixtures } from '../helpers/fixtures';
import { isObject, keyOrder, mapMessageStrings, projectOnto, result, withoutExtra } from './support';

type RecordedTx = Record<string, unknown> & {
  data: string;
  address?: { account_address: string };
  transaction_id: { lt: string; hash: string };
};

function recordedTransactions(stem: string): RecordedTx[] {
  const value = result<unknown>(stem);
  if (Array.isArray(value)) return value as RecordedTx[];
  if (isObject(value) && Array.isArray(value['transactions'])) return value['transactions'] as RecordedTx[];
  return [value as RecordedTx];
}

/**
 * The BoC does not hold the account's workchain; take it from the recorded address, else from the
 * queried address of the request.
 */
function workchainOf(tx: RecordedTx, params: Record<string, unknown>): number {
  if (tx.address) return Address.parse(tx.address.account_address).workChain;
  const queried = (params['address'] ?? params['destination']) as string;
  return Address.parse(queried).workChain;
}

/** The recorded item in the C++ form (ext.transaction + account, ext.message, one-line message). */
function asCpp(tx: RecordedTx, workchain: number): Record<string, unknown> {
  const accountId = Buffer.from(loadTransactionBoc(tx.data).address.toString(16).padStart(64, '0'), 'hex');
  return cppTransaction(withoutExtra(tx) as RecordedTx, new Address(workchain, accountId));
}

const stripNewlines = (text: string) => text.replace(/\n/g, '');

describeWithFixtures('transactions converted from their recorded BoC equal the recorded objects', () => {
  const stems = ['getTransactions', 'tryLocateTx', 'tryLocateResultTx'].flatMap((method) =>
    loadFixtures(method).map((f) => f.file.replace(/\.json$/, '')),
  );

  test('there are recordings of every shape', () => {
    expect(stems.length).toBe(10);
  });

  // Newest format (address, in_msg.hash, extra_currencies, MIME `message`): the whole object in the
  // C++ form (every value as recorded), key order included.
  test.each(['getTransactions-04', 'getTransactions-05', 'getTransactions-06', 'getTransactions-07'])(
    '%s: whole object in the C++ form, key order',
    (stem) => {
      const params = loadFixtures('getTransactions').find((f) => f.file === `${stem}.json`)!.params;
      for (const recorded of recordedTransactions(stem)) {
        const workchain = workchainOf(recorded, params);
        const converted = toTransactionJson(loadTransactionBoc(recorded.data), workchain);
        expect(converted).toEqual(asCpp(recorded, workchain));
        expect(keyOrder(converted)).toEqual(keyOrder(asCpp(recorded, workchain)));
      }
    },
  );

  // getTransactions-06's raw-body `message` is 88 characters on one line (the others are MIME-wrapped):
  // the C++ form is that line plus the "\n" it keeps for back compatibility.
  test('getTransactions-06: the recorded one-line message plus the C++ trailing newline', () => {
    const f = loadFixtures('getTransactions').find((x) => x.file === 'getTransactions-06.json')!;
    const [recorded] = recordedTransactions('getTransactions-06');
    const converted = toTransactionJson(loadTransactionBoc(recorded.data), workchainOf(recorded, f.params));
    const recordedMessage = (recorded['in_msg'] as { message: string }).message;
    expect(recordedMessage).toHaveLength(88);
    expect(converted.in_msg?.message).toBe(recordedMessage + '\n');
  });

  // June 2024 format: address but no message hash / extra_currencies. Every recorded field, in order.
  test('getTransactions-08: every recorded field of the 7 transactions', () => {
    const f = loadFixtures('getTransactions').find((x) => x.file === 'getTransactions-08.json')!;
    const recordedList = recordedTransactions('getTransactions-08');
    expect(recordedList).toHaveLength(7);
    for (const recorded of recordedList) {
      const workchain = workchainOf(recorded, f.params);
      const converted = toTransactionJson(loadTransactionBoc(recorded.data), workchain);
      const expected = asCpp(recorded, workchain);
      expect(projectOnto(converted, expected)).toEqual(expected);
      expect('in_msg' in converted).toBe('in_msg' in recorded);
    }
  });

  // 2022 testnet format (no address key at all) and the 2023 GetBlock recordings whose keys were re-sorted
  // and whose `message` strings lost their line breaks when the doc author re-serialised them.
  test.each(['getTransactions-01', 'getTransactions-02', 'getTransactions-03', 'tryLocateTx-01', 'tryLocateResultTx-01'])(
    '%s: every recorded field (message compared without line breaks)',
    (stem) => {
      const method = stem.replace(/-\d+$/, '');
      const f = loadFixtures(method).find((x) => x.file === `${stem}.json`)!;
      for (const recorded of recordedTransactions(stem)) {
        const workchain = workchainOf(recorded, f.params);
        const converted = toTransactionJson(loadTransactionBoc(recorded.data), workchain);
        const expected = asCpp(recorded, workchain);
        expect(mapMessageStrings(projectOnto(converted, expected), stripNewlines)).toEqual(mapMessageStrings(expected, stripNewlines));
      }
    },
  );

  test('getBlockTransactionsExt-01: tonlib raw.transaction with account, every recorded field and key order', () => {
    const f = loadFixtures('getBlockTransactionsExt')[0];
    const recordedList = (fixtureResult(f) as { transactions: RecordedTx[] }).transactions;
    expect(recordedList).toHaveLength(3);
    for (const recorded of recordedList) {
      const converted = toRawTransactionExt(loadTransactionBoc(recorded.data), -1);
      expect(projectOnto(converted, recorded)).toEqual(recorded);
      // Tick/tock transactions have no in_msg key at all.
      expect('in_msg' in converted).toBe('in_msg' in recorded);
      const recordedKeys = keyOrder(recorded);
      const convertedKeys = keyOrder(projectOnto(converted, recorded));
      expect(convertedKeys).toEqual(recordedKeys);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Transactions built in code (no recordings needed).

const ACCOUNT = Address.parse('0:' + 'ab'.repeat(32));
const OTHER = Address.parse('0:' + 'cd'.repeat(32));
const ZERO_HASH_UPDATE = { oldHash: Buffer.alloc(32, 1), newHash: Buffer.alloc(32, 2) };

function comment(text: string): Cell {
  return beginCell().storeUint(0, 32).storeStringTail(text).endCell();
}

function internal(src: Address, dest: Address, value: bigint, body: Cell, fwd = 1000n, createdLt = 10n): Message {
  return {
    info: {
      type: 'internal',
      ihrDisabled: true,
      bounce: true,
      bounced: false,
      src,
      dest,
      value: { coins: value },
      ihrFee: 0n,
      forwardFee: fwd,
      createdLt,
      createdAt: 1700000000,
    },
    body,
  };
}

function genericDescription(storageFee: bigint | null): TransactionDescription {
  return {
    type: 'generic',
    creditFirst: true,
    storagePhase: storageFee === null ? undefined : { storageFeesCollected: storageFee, statusChange: 'unchanged' },
    computePhase: { type: 'skipped', reason: 'no-state' },
    aborted: false,
    destroyed: false,
  };
}

function buildTransaction(
  inMessage: Message | null,
  outMessages: Message[],
  description: TransactionDescription,
  totalFees = 5000n,
): Transaction {
  const out = Dictionary.empty(Dictionary.Keys.Uint(15), {
    serialize: (src: Message, builder) => {
      builder.storeRef(beginCell().store(storeMessage(src)).endCell());
    },
    parse: () => {
      throw new Error('unused');
    },
  });
  outMessages.forEach((message, i) => out.set(i, message));
  const draft = {
    address: BigInt('0x' + ACCOUNT.hash.toString('hex')),
    lt: 2000n,
    prevTransactionHash: 7n,
    prevTransactionLt: 1000n,
    now: 1700000001,
    outMessagesCount: outMessages.length,
    oldStatus: 'active',
    endStatus: 'active',
    inMessage,
    outMessages: out,
    totalFees: { coins: totalFees },
    stateUpdate: ZERO_HASH_UPDATE,
    description,
  } as unknown as Transaction;
  const cell = beginCell().store(storeTransaction(draft)).endCell();
  return loadTransaction(cell.beginParse());
}

describe('transactions built in code', () => {
  test('an internal text transfer with two outbound messages', () => {
    const tx = buildTransaction(
      internal(OTHER, ACCOUNT, 1_000_000_000n, comment('hello'), 666n, 1990n),
      [
        internal(ACCOUNT, OTHER, 5n, beginCell().storeUint(0x0f8a7ea5, 32).storeUint(1, 64).endCell(), 1234n, 2001n),
        internal(ACCOUNT, OTHER, 6n, Cell.EMPTY, 4321n, 2002n),
      ],
      genericDescription(77n),
    );
    const json = toTransactionJson(tx, 0);
    expect(Object.keys(json)).toEqual([
      '@type',
      'address',
      'account',
      'utime',
      'data',
      'transaction_id',
      'fee',
      'storage_fee',
      'other_fee',
      'in_msg',
      'out_msgs',
    ]);
    expect(json['@type']).toBe('ext.transaction');
    expect(json.address).toEqual({ '@type': 'accountAddress', account_address: ACCOUNT.toString() });
    expect(json.account).toBe('0:' + 'AB'.repeat(32));
    expect(json.utime).toBe(1700000001);
    expect(json.transaction_id).toEqual({ '@type': 'internal.transactionId', lt: '2000', hash: tx.hash().toString('base64') });
    expect(Cell.fromBase64(json.data).hash()).toEqual(tx.hash());
    // fee = total_fees + Σ out fwd_fee
    expect(json.fee).toBe(String(5000 + 1234 + 4321));
    expect(json.storage_fee).toBe('77');
    expect(json.other_fee).toBe(String(5000 + 1234 + 4321 - 77));

    const inMsg = json.in_msg!;
    expect(inMsg['@type']).toBe('ext.message');
    expect(inMsg.source).toBe(OTHER.toString());
    expect(inMsg.destination).toBe(ACCOUNT.toString());
    expect(inMsg.value).toBe('1000000000');
    expect(inMsg.fwd_fee).toBe('666');
    expect(inMsg.created_lt).toBe('1990');
    expect(inMsg.msg_data).toEqual({ '@type': 'msg.dataText', text: Buffer.from('hello').toString('base64') });
    expect(inMsg.message).toBe('hello');
    expect(inMsg.hash).toBe(transactionMessages(tx).inMessage!.cell.hash().toString('base64'));

    expect(json.out_msgs.map((m) => m.created_lt)).toEqual(['2001', '2002']);
    expect(json.out_msgs[0].msg_data['@type']).toBe('msg.dataRaw');
    expect(json.out_msgs[0].message).toBe(
      Buffer.concat([Buffer.from('0f8a7ea5', 'hex'), Buffer.from('0000000000000001', 'hex')]).toString('base64') + '\n',
    );
    expect(json.out_msgs[1].message).toBe('');
    expect(json.out_msgs[1].body_hash).toBe(Cell.EMPTY.hash().toString('base64'));
  });

  test('a transaction without inbound message has no in_msg key (never null)', () => {
    const tx = buildTransaction(
      null,
      [],
      {
        type: 'tick-tock',
        isTock: false,
        storagePhase: { storageFeesCollected: 0n, statusChange: 'unchanged' },
        computePhase: { type: 'skipped', reason: 'no-gas' },
        aborted: false,
        destroyed: false,
      },
      0n,
    );
    const json = toTransactionJson(tx, -1);
    expect('in_msg' in json).toBe(false);
    expect(JSON.stringify(json)).not.toContain('in_msg');
    expect(json.out_msgs).toEqual([]);
    expect(json.address.account_address.startsWith('Ef')).toBe(true);
    const raw = toRawTransaction(tx, -1);
    expect('in_msg' in raw).toBe(false);
  });

  test('storage_fee is 0 without a storage phase', () => {
    const tx = buildTransaction(internal(OTHER, ACCOUNT, 1n, Cell.EMPTY), [], genericDescription(null), 900n);
    const json = toTransactionJson(tx, 0);
    expect([json.fee, json.storage_fee, json.other_fee]).toEqual(['900', '0', '900']);
  });

  test('external-out messages count no forward fee and show no destination', () => {
    const extOut: Message = {
      info: { type: 'external-out', src: ACCOUNT, dest: null, createdLt: 2001n, createdAt: 1700000001 },
      body: beginCell().storeUint(0xdeadbeef, 32).endCell(),
    };
    const tx = buildTransaction(internal(OTHER, ACCOUNT, 1n, Cell.EMPTY), [extOut], genericDescription(1n), 100n);
    const json = toTransactionJson(tx, 0);
    expect(json.fee).toBe('100');
    expect(json.out_msgs[0]).toMatchObject({ source: ACCOUNT.toString(), destination: '', value: '0', created_lt: '0' });
  });

  test('tonlib raw form keeps accountAddress objects and has no message; Ext adds the raw account (C++ uppercase hex)', () => {
    const tx = buildTransaction(internal(OTHER, ACCOUNT, 3n, comment('x')), [], genericDescription(2n));
    const raw = toRawTransactionExt(tx, 0);
    expect(raw.in_msg!.source).toEqual({ '@type': 'accountAddress', account_address: OTHER.toString() });
    expect('message' in raw.in_msg!).toBe(false);
    expect(raw['@type']).toBe('raw.transaction');
    expect(raw.in_msg!['@type']).toBe('raw.message');
    expect(raw.account).toBe('0:' + 'AB'.repeat(32));
    expect(Object.keys(raw).at(-1)).toBe('account');
  });
});
