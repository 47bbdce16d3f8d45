import { ADNLAddress, Address, Cell, Slice } from '@ton/core';
import { AccountAddressJson, tonlibAddress, toAccountAddress } from './address';
import { bocBase64 } from '../cells';

/**
 * dnsResolve (`dns.resolved`): TON DNS names in the `dnsresolve` get-method's encoding and the
 * records it returns, as tonlib's dns.resolve prints them.
 */

export type DnsEntryDataJson =
  | { '@type': 'dns.entryDataUnknown'; bytes: string }
  | { '@type': 'dns.entryDataText'; text: string }
  | { '@type': 'dns.entryDataNextResolver'; resolver: AccountAddressJson }
  | { '@type': 'dns.entryDataSmcAddress'; smc_address: AccountAddressJson }
  | { '@type': 'dns.entryDataAdnlAddress'; adnl_address: { '@type': 'adnlAddress'; adnl_address: string } }
  | { '@type': 'dns.entryDataStorageAddress'; bag_id: string };

export interface DnsEntryJson {
  '@type': 'dns.entry';
  name: string;
  /** base64 of the 256-bit category. */
  category: string;
  entry: DnsEntryDataJson;
}

export interface DnsResolvedJson {
  '@type': 'dns.resolved';
  entries: DnsEntryJson[];
}

/** Longest encoded name tonlib sends to `dnsresolve`. */
export const MAX_DNS_NAME_BYTES = 128;

/** `"foo.ton"` → `"ton\0foo\0"`: components reversed, each ended by a zero byte; "" and "." are the root. */
export function encodeDnsName(name: string): Buffer {
  if (name === '' || name === '.') return Buffer.from([0]);
  const parts = name.split('.').reverse();
  return Buffer.concat(parts.map((part) => Buffer.concat([Buffer.from(part, 'utf8'), Buffer.from([0])])));
}

/** The inverse of encodeDnsName for a resolved prefix. */
export function decodeDnsName(encoded: Buffer): string {
  let bytes = encoded;
  if (bytes.length > 0 && bytes[bytes.length - 1] === 0) bytes = bytes.subarray(0, bytes.length - 1);
  if (bytes.length === 0) return '';
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i === bytes.length || bytes[i] === 0) {
      parts.push(bytes.subarray(start, i).toString('utf8'));
      start = i + 1;
    }
  }
  return parts.reverse().join('.');
}

const DNS_TEXT = 0x1eda;
const DNS_NEXT_RESOLVER = 0xba93;
const DNS_ADNL_ADDRESS = 0xad01;
const DNS_SMC_ADDRESS = 0x9fd3;
const DNS_STORAGE_ADDRESS = 0x7473;

/** `text$_ chunks:(## 8) rest:(TextChunks chunks)`: length-prefixed chunks linked by references. */
function loadDnsText(slice: Slice): string {
  const chunks = slice.loadUint(8);
  const parts: Buffer[] = [];
  let current = slice;
  for (let i = 0; i < chunks; i++) {
    const length = current.loadUint(8);
    parts.push(current.loadBuffer(length));
    if (i + 1 < chunks) current = current.loadRef().beginParse();
  }
  return Buffer.concat(parts).toString('utf8');
}

/** The 55-character base32 form of an ADNL address (tonlib's adnl_id_encode, lowercase). */
export function adnlAddressText(id: Buffer): string {
  return new ADNLAddress(id).toString();
}

function addressEntry(address: Address): AccountAddressJson {
  return toAccountAddress(tonlibAddress(address));
}

/** One DNSRecord cell; records tonlib does not know become `dns.entryDataUnknown` with their BoC. */
export function toDnsEntryData(record: Cell): DnsEntryDataJson {
  try {
    const slice = record.beginParse();
    switch (slice.loadUint(16)) {
      case DNS_TEXT:
        return { '@type': 'dns.entryDataText', text: loadDnsText(slice) };
      case DNS_NEXT_RESOLVER:
        return { '@type': 'dns.entryDataNextResolver', resolver: addressEntry(slice.loadAddress()) };
      case DNS_SMC_ADDRESS:
        return { '@type': 'dns.entryDataSmcAddress', smc_address: addressEntry(slice.loadAddress()) };
      case DNS_ADNL_ADDRESS:
        return {
          '@type': 'dns.entryDataAdnlAddress',
          adnl_address: { '@type': 'adnlAddress', adnl_address: adnlAddressText(slice.loadBuffer(32)) },
        };
      case DNS_STORAGE_ADDRESS:
        return { '@type': 'dns.entryDataStorageAddress', bag_id: slice.loadBuffer(32).toString('hex') };
    }
  } catch {
    // an unparsable record is reported as unknown
  }
  return { '@type': 'dns.entryDataUnknown', bytes: bocBase64(record) };
}

export function toDnsEntry(name: string, category: Buffer, record: Cell): DnsEntryJson {
  return { '@type': 'dns.entry', name, category: category.toString('base64'), entry: toDnsEntryData(record) };
}

export function toDnsResolved(entries: DnsEntryJson[]): DnsResolvedJson {
  return { '@type': 'dns.resolved', entries };
}
