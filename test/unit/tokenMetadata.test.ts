import { beginCell } from '@ton/core';
import { dnsRootsFor, fullDomain, readDnsRecords, tonDomain } from '../../src/indexer/dns';
import { tokenMetadata } from '../../src/v3/models/metadata';

/**
 * The metadata rules on their own (toncenter's metadata fetcher): on-chain content read at once,
 * too little of it is `valid: false`, a URI waits for its document, a failed fetch falls back to
 * the on-chain fields; and the DNS readings: `.ton` and `.t.me` domains, an empty record set.
 */
describe('token metadata rules', () => {
  it('answers on-chain content at once, valid only with what toncenter requires of the type', () => {
    expect(tokenMetadata('jetton_masters', { name: 'No symbol' }, null, undefined)).toEqual({ info: { valid: false, type: 'jetton_masters' }, indexed: true });
    expect(tokenMetadata('jetton_masters', { symbol: 'S', decimals: '9' }, null, undefined)).toEqual({
      info: { valid: true, type: 'jetton_masters', symbol: 'S', is_nsfw: false, is_scam: false, extra: { decimals: '9' } },
      indexed: true,
    });
    expect(tokenMetadata('nft_items', { description: 'no name' }, '5', undefined)).toEqual({ info: { valid: false, type: 'nft_items', nft_index: '5' }, indexed: true });
    expect(tokenMetadata('nft_items', { domain: 'a.ton' }, '5', undefined).info).toMatchObject({ valid: true, extra: { domain: 'a.ton' } });
    expect(tokenMetadata('nft_collections', { image: 'i' }, null, undefined).info).toMatchObject({ valid: true, image: 'i' });
  });

  it('waits for the document of a URI, then merges it under the on-chain fields; a failure falls back', () => {
    const content = { uri: 'https://x/1.json', name: 'on-chain' };
    expect(tokenMetadata('nft_collections', content, null, undefined)).toEqual({ info: { type: 'nft_collections' }, indexed: false });
    const fetched = { valid: true, content: { name: 'off-chain', description: 'd', count: 3 }, expires_at: 0 };
    expect(tokenMetadata('nft_collections', content, null, fetched).info).toEqual({
      valid: true,
      type: 'nft_collections',
      name: 'on-chain',
      description: 'd',
      is_nsfw: false,
      is_scam: false,
      extra: { count: 3, uri: 'https://x/1.json' },
    });
    const failed = { valid: false, content: null, expires_at: 0 };
    expect(tokenMetadata('nft_collections', content, null, failed).info).toMatchObject({ valid: true, name: 'on-chain' });
    expect(tokenMetadata('jetton_masters', { uri: 'https://x/j.json' }, null, failed)).toEqual({ info: { valid: false, type: 'jetton_masters' }, indexed: true });
  });

  it('reads .ton and .t.me domains and an item without records', () => {
    const slice = (bytes: Buffer) => ({ exitCode: 0, gasUsed: 0, stack: [{ type: 'slice' as const, cell: beginCell().storeBuffer(bytes).endCell() }] });
    expect(tonDomain(slice(Buffer.from('alice')))).toBe('alice.ton');
    expect(fullDomain(slice(Buffer.from('me\0t\0durov\0')))).toBe('durov.t.me');
    expect(tonDomain({ exitCode: 11, gasUsed: 0, stack: [] })).toBeUndefined();
    expect(readDnsRecords({ exitCode: 0, gasUsed: 0, stack: [{ type: 'int', value: 8n }, { type: 'null' }] })).toEqual({
      wallet: null,
      siteAdnl: null,
      storageBagId: null,
      nextResolver: null,
    });
    // Not resolved to the item itself (other than 8 bits): not a DNS entry.
    expect(readDnsRecords({ exitCode: 0, gasUsed: 0, stack: [{ type: 'int', value: 0n }, { type: 'null' }] })).toBeUndefined();
  });
});

describe('DNS roots', () => {
  it("are toncenter's of the network plus --dns-collections; a mistyped one is refused with its text", () => {
    expect([...dnsRootsFor('mainnet').values()]).toEqual(['get_domain', 'get_full_domain']);
    expect([...dnsRootsFor('testnet').keys()]).toEqual(['0:E33ED33A42EB2032059F97D90C706F8400BB256D32139CA707F1564AD699C7DD']);
    const local = dnsRootsFor('local', ['0:' + 'ab'.repeat(32)]);
    expect(local.get('0:' + 'AB'.repeat(32))).toBe('either');
    expect(() => dnsRootsFor('local', ['nope'])).toThrow('--dns-collections: "nope" is not an address');
  });
});
