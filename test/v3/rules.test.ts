import { Address } from '@ton/core';
import { compareDecimal } from '../../src/v3/models/transaction';
import { ValidationError } from '../../src/errors';
import { parseGroup, V3Query, MAX_LIST_VALUES } from '../../src/v3/params/query';
import {
  checkDirection,
  checkPaging,
  readList,
  readSingle,
  toAccount,
  toBool,
  toHash,
  toInt32,
  toOpcode,
  toShard,
  toSortOrder,
  toUint64,
  toUtime,
} from '../../src/v3/params/rules';
import { friendlyOf, opcodeHex, shardHex } from '../../src/v3/models/format';
import { httpStatusOf } from '../../src/httpErrors';

/** ton-index-go's rules (main.go, models/convert.go, crud/crud.go), each with its status and text. */

function refusal(run: () => unknown): { status: number; message: string } {
  try {
    run();
  } catch (err) {
    if (err instanceof ValidationError) return { status: httpStatusOf(err), message: err.message };
    throw err;
  }
  throw new Error('expected a refusal');
}

const HASH = Buffer.from('a1'.repeat(32), 'hex');
const ACCOUNT = new Address(0, Buffer.from('3f'.repeat(32), 'hex'));
const RAW_UPPER = `0:${'3F'.repeat(32)}`;

describe('addresses (AccountAddressConverter)', () => {
  test.each([
    ['raw lower case', ACCOUNT.toRawString()],
    ['raw upper case', RAW_UPPER],
    ['base64url bounceable', ACCOUNT.toString({ urlSafe: true, bounceable: true })],
    ['base64 standard non-bounceable', ACCOUNT.toString({ urlSafe: false, bounceable: false })],
    ['testnet flag', ACCOUNT.toString({ testOnly: true })],
  ])('%s becomes the raw upper-case key', (_name, text) => {
    expect(toAccount(text)?.raw).toBe(RAW_UPPER);
  });

  test('masterchain raw', () => {
    expect(toAccount(`-1:${'ab'.repeat(32)}`)?.raw).toBe(`-1:${'AB'.repeat(32)}`);
  });

  test.each(['', 'nonsense', `0:${'3f'.repeat(31)}`, ACCOUNT.toString().slice(0, 47) + 'A', "0:'; drop table blocks; --"])(
    'refused: %s',
    (text) => expect(toAccount(text)).toBeUndefined(),
  );

  test('a bad account in a list is 422 with the index of the value', () => {
    const query = new V3Query({ account: [RAW_UPPER, 'bad'] });
    expect(refusal(() => parseGroup((field) => field(() => readList(query, 'account', toAccount))))).toEqual({
      status: 422,
      message: 'schema: error converting value for index 1 of "account"',
    });
  });

  test('friendly form in the address book: url-safe; non-bounceable without code or with wallet code', () => {
    const walletCode = Buffer.from('feb5ff6820e2ff0d9483e7e0d62c817d846789fb4ae580c878866d959dabd5c0', 'hex');
    expect(friendlyOf(RAW_UPPER, null, false)).toBe(ACCOUNT.toString({ urlSafe: true, bounceable: false }));
    expect(friendlyOf(RAW_UPPER, walletCode, false)).toBe(ACCOUNT.toString({ urlSafe: true, bounceable: false }));
    expect(friendlyOf(RAW_UPPER, HASH, false)).toBe(ACCOUNT.toString({ urlSafe: true, bounceable: true }));
    expect(friendlyOf(RAW_UPPER, HASH, true)).toBe(ACCOUNT.toString({ urlSafe: true, bounceable: true, testOnly: true }));
  });
});

describe('hashes (HashConverter)', () => {
  test.each([
    ['64 hex', HASH.toString('hex')],
    ['64 upper hex', HASH.toString('hex').toUpperCase()],
    ['0x + 64 hex', `0x${HASH.toString('hex')}`],
    ['44 base64', HASH.toString('base64')],
    ['44 base64url', Buffer.from('fb'.repeat(32), 'hex').toString('base64url') + '='],
  ])('%s', (_name, text) => {
    const parsed = toHash(text);
    expect(parsed).toBeDefined();
    expect(parsed!.length).toBe(32);
  });

  test.each([
    ['43 unpadded base64url (ton-index-go refuses it)', HASH.toString('base64url')],
    ['63 hex', HASH.toString('hex').slice(1)],
    ['64 chars not hex', 'z'.repeat(64)],
    ['0X prefix', `0X${HASH.toString('hex')}`],
  ])('refused: %s', (_name, text) => expect(toHash(text)).toBeUndefined());

  test('a bad single hash is 422 with its name', () => {
    const query = new V3Query({ root_hash: 'xyz' });
    expect(refusal(() => parseGroup((field) => field(() => readSingle(query, 'root_hash', toHash))))).toEqual({
      status: 422,
      message: 'schema: error converting value for "root_hash"',
    });
  });
});

describe('shards (ShardIdConverter) and their output', () => {
  test('hex first, 0x optional, signed decimal when not hex', () => {
    expect(toShard('8000000000000000')).toBe(-(2n ** 63n));
    expect(toShard('0x8000000000000000')).toBe(-(2n ** 63n));
    expect(toShard('-9223372036854775808')).toBe(-(2n ** 63n));
    expect(toShard('c000000000000000')).toBe(BigInt.asIntN(64, 0xc000000000000000n));
    // Digits alone are read as hex first, as ton-index-go does.
    expect(toShard('10')).toBe(16n);
    expect(toShard('-5')).toBe(-5n);
    expect(toShard('x')).toBeUndefined();
    // Too long for hex, read as decimal; beyond int64 both ways.
    expect(toShard('1'.repeat(17))).toBe(11111111111111111n);
    expect(toShard('9'.repeat(20))).toBeUndefined();
  });

  test('output: upper-case hex of the unsigned value', () => {
    expect(shardHex('-9223372036854775808')).toBe('8000000000000000');
    expect(shardHex(BigInt.asIntN(64, 0xe000000000000000n))).toBe('E000000000000000');
  });
});

describe('opcodes (OpcodeTypeConverter) and their output', () => {
  test('0x hex, bare hex first, then signed int32 decimal', () => {
    expect(toOpcode('0x0f8a7ea5')).toBe(0x0f8a7ea5);
    expect(toOpcode('0XFFFFFFFF')).toBe(-1);
    expect(toOpcode('10')).toBe(0x10);
    expect(toOpcode('-1')).toBe(-1);
    expect(toOpcode('-2147483648')).toBe(-2147483648);
    expect(toOpcode('0x123456789')).toBeUndefined();
    expect(toOpcode('0x-1')).toBeUndefined();
    expect(toOpcode('4294967296')).toBeUndefined();
  });

  test('output 0x%08x', () => {
    expect(opcodeHex(0x0f8a7ea5)).toBe('0x0f8a7ea5');
    expect(opcodeHex(-1)).toBe('0xffffffff');
    expect(opcodeHex(0)).toBe('0x00000000');
    expect(opcodeHex(null)).toBeNull();
  });
});

describe('numbers and booleans', () => {
  test('int32: ParseInt(10, 32)', () => {
    expect(toInt32('-1')).toBe(-1);
    expect(toInt32('+7')).toBe(7);
    expect(toInt32('2147483648')).toBeUndefined();
    expect(toInt32('1.5')).toBeUndefined();
  });

  test('uint64: unsigned, capped at the bigint column maximum', () => {
    expect(toUint64('18446744073709551615')).toBe(2n ** 63n - 1n);
    expect(toUint64('18446744073709551616')).toBeUndefined();
    expect(toUint64('-1')).toBeUndefined();
    expect(toUint64('42')).toBe(42n);
  });

  test('utime: uint32 or a float truncated', () => {
    expect(toUtime('1700000000')).toBe(1700000000);
    expect(toUtime('1700000000.9')).toBe(1700000000);
    expect(toUtime('-1')).toBeUndefined();
    expect(toUtime('NaN')).toBeUndefined();
  });

  test('bool: ParseBool and "on"', () => {
    expect(['1', 't', 'TRUE', 'True', 'on'].map(toBool)).toEqual([true, true, true, true, true]);
    expect(['0', 'f', 'false', 'FALSE'].map(toBool)).toEqual([false, false, false, false]);
    expect(toBool('yes')).toBeUndefined();
  });
});

describe('limit, offset, sort (crud.go limitQuery / getSortOrder)', () => {
  test('limit defaults to 100, below 1 is 1; a negative offset is 0', () => {
    expect(checkPaging({})).toEqual({ limit: 100, offset: 0, sort: undefined });
    expect(checkPaging({ limit: 0, offset: -5 })).toEqual({ limit: 1, offset: 0, sort: undefined });
    expect(checkPaging({ limit: -100 }).limit).toBe(1);
    expect(checkPaging({ limit: 1000 }).limit).toBe(1000);
  });

  test('above 1000: 422 limit is not allowed', () => {
    expect(refusal(() => checkPaging({ limit: 1001 }))).toEqual({ status: 422, message: 'limit is not allowed: 1001 > 1000' });
  });

  test('our offset bound: 422 above 10000', () => {
    expect(checkPaging({ offset: 10000 }).offset).toBe(10000);
    expect(refusal(() => checkPaging({ offset: 10001 }))).toEqual({ status: 422, message: 'offset is not allowed: 10001 > 10000' });
  });

  test('sort: asc/desc/a/d in any case, else 422', () => {
    expect(['asc', 'A', 'ASC', 'desc', 'd', 'Desc'].map(toSortOrder)).toEqual(['asc', 'asc', 'asc', 'desc', 'desc', 'desc']);
    expect(refusal(() => toSortOrder('up'))).toEqual({ status: 422, message: 'wrong value for sort parameter' });
  });

  test('a non-integer limit: the parser error', () => {
    const query = new V3Query({ limit: 'ten', offset: 'x' });
    expect(
      refusal(() =>
        parseGroup((field) => ({ limit: field(() => readSingle(query, 'limit', toInt32)), offset: field(() => readSingle(query, 'offset', toInt32)) })),
      ),
    ).toEqual({ status: 422, message: 'schema: error converting value for "limit" (and 1 other error)' });
  });
});

describe('query reading (fiber QueryParser)', () => {
  test('repeated keys and commas make lists; the last value of a single one wins; empty is absent', () => {
    const query = new V3Query({ account: ['a,b', 'c'], seqno: ['1', '2'], lt: '' });
    expect(query.list('account')).toEqual(['a', 'b', 'c']);
    expect(query.single('seqno')).toBe('2');
    expect(query.single('lt')).toBeUndefined();
  });

  test('keys match case-insensitively', () => {
    expect(new V3Query({ Account: 'x' }).list('account')).toEqual(['x']);
  });

  test(`lists are capped at ${MAX_LIST_VALUES} values`, () => {
    const query = new V3Query({ address: Array.from({ length: MAX_LIST_VALUES + 1 }, (_, i) => String(i)) });
    expect(refusal(() => query.list('address'))).toEqual({ status: 422, message: `too many values for address: more than ${MAX_LIST_VALUES}` });
  });

  test('direction: in/out else 422', () => {
    expect(checkDirection('in')).toBe('in');
    expect(checkDirection(undefined)).toBeUndefined();
    expect(refusal(() => checkDirection('both'))).toEqual({ status: 422, message: 'direction should be one of: in, out' });
  });
});

describe('compareDecimal (out_msgs by created_lt without BigInt)', () => {
  test('orders unsigned decimal texts by value', () => {
    const lts = ['10', '9', '18446744073709551615', '100', '0', '99', '18446744073709551614'];
    expect([...lts].sort(compareDecimal)).toEqual(['0', '9', '10', '99', '100', '18446744073709551614', '18446744073709551615']);
    expect(compareDecimal('123', '123')).toBe(0);
  });
});
