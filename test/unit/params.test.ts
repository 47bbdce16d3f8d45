import { Address } from '@ton/core';
import { parseAddress, toFriendly } from '../../src/params/address';
import { parseBase64Bytes, parseHash256 } from '../../src/params/hash';

const RAW = '0:d76767392e7035d84ba6f83960b9399f62430ebcd7850a1e2b043d2d826c2370';

describe('address input (toncenter §1.3)', () => {
  const reference = Address.parse(RAW);
  const variants = [
    { bounceable: true, testOnly: false },
    { bounceable: false, testOnly: false },
    { bounceable: true, testOnly: true },
    { bounceable: false, testOnly: true },
  ];

  test.each(variants)('friendly %j in both alphabets', (flags) => {
    for (const urlSafe of [true, false]) {
      const text = reference.toString({ ...flags, urlSafe });
      const parsed = parseAddress(text)!;
      expect(parsed.address.equals(reference)).toBe(true);
      expect(parsed.bounceable).toBe(flags.bounceable);
      expect(parsed.testOnly).toBe(flags.testOnly);
      expect(toFriendly(parsed.workchain, parsed.hash, { ...flags, urlSafe })).toBe(text);
    }
  });

  test('raw in any case, masterchain too', () => {
    expect(parseAddress(RAW.toUpperCase())!.address.equals(reference)).toBe(true);
    expect(parseAddress(`-1:${'ab'.repeat(32)}`)!.workchain).toBe(-1);
  });

  test.each([
    '',
    'd76767392e7035d84ba6f83960b9399f62430ebcd7850a1e2b043d2d826c2370',
    '0:d76767392e7035d84ba6f83960b9399f62430ebcd7850a1e2b043d2d826c237',
    '0:g76767392e7035d84ba6f83960b9399f62430ebcd7850a1e2b043d2d826c2370',
    'EQDXZ2c5LnA12Eum-DlguTmfYkMOvNeFCh4rBD0tgmwjcFI_',
    'EQDXZ2c5LnA12Eum-DlguTmfYkMOvNeFCh4rBD0tgmwjcFI',
    '1000:d76767392e7035d84ba6f83960b9399f62430ebcd7850a1e2b043d2d826c2370',
  ])('rejects %p', (input) => {
    expect(parseAddress(input)).toBeUndefined();
  });
});

describe('hash input (toncenter §1.4)', () => {
  const bytes = Buffer.from('fb'.repeat(32), 'hex');
  test('hex, padded base64 in both alphabets, unpadded base64url', () => {
    for (const text of [bytes.toString('hex'), bytes.toString('hex').toUpperCase(), bytes.toString('base64'), `${bytes.toString('base64url')}=`, bytes.toString('base64url')]) {
      expect(parseHash256(text)).toEqual(bytes);
    }
  });
  test('rejects other lengths and a 43-character standard-alphabet string', () => {
    expect(parseHash256(bytes.toString('base64').slice(0, 43))).toBeUndefined();
    expect(parseHash256('abc')).toBeUndefined();
    expect(parseHash256(bytes.toString('hex') + '00')).toBeUndefined();
  });
  test('strict base64 bytes', () => {
    expect(parseBase64Bytes('')).toEqual(Buffer.alloc(0));
    expect(parseBase64Bytes('AAEC')).toEqual(Buffer.from([0, 1, 2]));
    expect(parseBase64Bytes('AAE')).toBeUndefined();
    expect(parseBase64Bytes('AA-_')).toBeUndefined();
  });
});
