import { createHash } from 'node:crypto';
import { ADNLAddress, Address, beginCell, Cell } from '@ton/core';
import { bocBase64 } from '../../src/cells/bocWriter';
import { adnlAddressText, decodeDnsName, encodeDnsName, toDnsEntry, toDnsEntryData, toDnsResolved } from '../../src/converters/dns';

describe('TON DNS names and records (dnsResolve)', () => {
  test('names are encoded components-reversed with zero terminators, and decoded back', () => {
    expect(encodeDnsName('foo.ton').toString('latin1')).toBe('ton\0foo\0');
    expect(encodeDnsName('a.b.c').toString('latin1')).toBe('c\0b\0a\0');
    expect(encodeDnsName('')).toEqual(Buffer.from([0]));
    expect(encodeDnsName('.')).toEqual(Buffer.from([0]));
    expect(decodeDnsName(Buffer.from('ton\0foo\0', 'latin1'))).toBe('foo.ton');
    expect(decodeDnsName(Buffer.from('ton\0', 'latin1'))).toBe('ton');
    expect(decodeDnsName(Buffer.from([0]))).toBe('');
  });

  test('every record kind tonlib prints, and unknown ones as their BoC', () => {
    const address = new Address(0, Buffer.alloc(32, 3));
    const account = { '@type': 'accountAddress', account_address: address.toString() };
    expect(toDnsEntryData(beginCell().storeUint(0xba93, 16).storeAddress(address).endCell())).toEqual({
      '@type': 'dns.entryDataNextResolver',
      resolver: account,
    });
    expect(toDnsEntryData(beginCell().storeUint(0x9fd3, 16).storeAddress(address).storeUint(0, 8).endCell())).toEqual({
      '@type': 'dns.entryDataSmcAddress',
      smc_address: account,
    });
    const adnl = Buffer.alloc(32, 0x5c);
    expect(toDnsEntryData(beginCell().storeUint(0xad01, 16).storeBuffer(adnl).storeUint(0, 8).endCell())).toEqual({
      '@type': 'dns.entryDataAdnlAddress',
      adnl_address: { '@type': 'adnlAddress', adnl_address: adnlAddressText(adnl) },
    });
    expect(toDnsEntryData(beginCell().storeUint(0x7473, 16).storeBuffer(Buffer.alloc(32, 0xee)).endCell())).toEqual({
      '@type': 'dns.entryDataStorageAddress',
      bag_id: 'ee'.repeat(32),
    });
    // dns_text: chunk count, then length-prefixed chunks linked by references.
    const text = beginCell()
      .storeUint(0x1eda, 16)
      .storeUint(2, 8)
      .storeUint(5, 8)
      .storeBuffer(Buffer.from('hello'))
      .storeRef(beginCell().storeUint(6, 8).storeBuffer(Buffer.from(' world')).endCell())
      .endCell();
    expect(toDnsEntryData(text)).toEqual({ '@type': 'dns.entryDataText', text: 'hello world' });
    const unknown = beginCell().storeUint(0xabcd, 16).storeUint(1, 1).endCell();
    expect(toDnsEntryData(unknown)).toEqual({ '@type': 'dns.entryDataUnknown', bytes: bocBase64(unknown) });
    expect(toDnsEntryData(Cell.EMPTY)).toEqual({ '@type': 'dns.entryDataUnknown', bytes: bocBase64(Cell.EMPTY) });
  });

  test('ADNL addresses in their 55-character form round-trip through @ton/core', () => {
    const id = createHash('sha256').update('adnl').digest();
    const text = adnlAddressText(id);
    expect(text).toHaveLength(55);
    expect(text).toMatch(/^[a-z2-7]+$/);
    expect(ADNLAddress.parseFriendly(text).address.equals(id)).toBe(true);
  });

  test('dns.resolved wraps dns.entry objects with base64 categories', () => {
    const category = createHash('sha256').update('wallet').digest();
    const record = beginCell().storeUint(0x7473, 16).storeBuffer(Buffer.alloc(32)).endCell();
    expect(toDnsResolved([toDnsEntry('foo.ton', category, record)])).toEqual({
      '@type': 'dns.resolved',
      entries: [
        {
          '@type': 'dns.entry',
          name: 'foo.ton',
          category: category.toString('base64'),
          entry: { '@type': 'dns.entryDataStorageAddress', bag_id: '00'.repeat(32) },
        },
      ],
    });
  });
});
