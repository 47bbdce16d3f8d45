import { createHash } from 'node:crypto';
import { Address, beginCell, Dictionary, type Cell, type DictionaryValue } from '@ton/core';
import { rawAddressUpper, stackCell, stackInt } from '../converters';
import type { GetMethodOutcome } from '../chain';
import { IndexStoreError } from '../indexdb';

/**
 * TEP-81 DNS items as toncenter's index reads them (NftItemDetectorR): an NFT item counts as a
 * DNS item only when its (confirmed) collection is a known DNS root, since any contract can answer
 * `dnsresolve` and name itself `wallet.ton`. Its domain comes from `get_domain` (`.ton`: the
 * name, ".ton" appended) or `get_full_domain` (`.t.me`: "me\0t\0name\0" read backwards), its
 * records from `dnsresolve("\0", 0)`: the whole record dictionary, of which the wallet, site
 * (ADNL), storage bag and next resolver are kept.
 */

/** How a root's items name their domain. */
export type DomainMethod = 'get_domain' | 'get_full_domain';

/** toncenter's DNS roots (the .ton root on each network, .t.me on mainnet only). */
const MAINNET_ROOTS: readonly (readonly [string, DomainMethod])[] = [
  ['0:B774D95EB20543F186C06B371AB88AD704F7E256130CAF96189368A7D0CB6CCF', 'get_domain'],
  ['0:80D78A35F955A14B679FAA887FF4CD5BFC0F43B4A4EEA2A7E6927F3701B273C2', 'get_full_domain'],
];
const TESTNET_ROOTS: readonly (readonly [string, DomainMethod])[] = [
  ['0:E33ED33A42EB2032059F97D90C706F8400BB256D32139CA707F1564AD699C7DD', 'get_domain'],
];

/**
 * The DNS collections of a network (raw address → how its items name their domain) with the ones
 * `--dns-collections` adds (a local chain's own root: its items are asked `get_domain` first).
 */
export function dnsRootsFor(network: string, extra: readonly string[] = []): ReadonlyMap<string, DomainMethod | 'either'> {
  const roots = new Map<string, DomainMethod | 'either'>(network === 'testnet' ? TESTNET_ROOTS : MAINNET_ROOTS);
  for (const text of extra) {
    let address: Address;
    try {
      address = Address.parse(text);
    } catch {
      throw new IndexStoreError(`--dns-collections: ${JSON.stringify(text)} is not an address`);
    }
    roots.set(rawAddressUpper(address), 'either');
  }
  return roots;
}

/** The parts of a DNS entry the records give. */
export interface DnsRecords {
  readonly wallet: string | null;
  readonly siteAdnl: string | null;
  readonly storageBagId: string | null;
  readonly nextResolver: string | null;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest();
const CATEGORY = { wallet: sha256('wallet'), site: sha256('site'), storage: sha256('storage'), next: sha256('dns_next_resolver') };

const refValue: DictionaryValue<Cell> = {
  serialize: (src, builder) => builder.storeRef(src),
  parse: (slice) => slice.loadRef(),
};

/** One record of a tag, read as `read` says; null when absent or not of that tag (toncenter logs and skips it). */
function record<T>(records: Dictionary<Buffer, Cell>, key: Buffer, tag: number, read: (cell: Cell) => T): T | null {
  const cell = records.get(key);
  if (!cell) return null;
  try {
    const slice = cell.beginParse();
    if (slice.loadUint(16) !== tag) return null;
    return read(cell);
  } catch {
    return null;
  }
}

function addressAfterTag(cell: Cell): string | null {
  const address = cell.beginParse().skip(16).loadAddress();
  return rawAddressUpper(address);
}

function bitsAfterTag(cell: Cell): string {
  return cell.beginParse().skip(16).loadBuffer(32).toString('base64');
}

/** The `dnsresolve("\0", 0)` arguments: one zero byte (the item itself), category 0 (all records). */
export function dnsResolveAll(): [{ type: 'slice'; cell: Cell }, { type: 'int'; value: bigint }] {
  return [
    { type: 'slice', cell: beginCell().storeUint(0, 8).endCell() },
    { type: 'int', value: 0n },
  ];
}

/** The records of a `dnsresolve("\0", 0)` outcome; undefined when it is not a resolved item (toncenter's checks). */
export function readDnsRecords(outcome: GetMethodOutcome): DnsRecords | undefined {
  if (outcome.exitCode !== 0 || outcome.stack.length !== 2) return undefined;
  if (stackInt(outcome.stack[0]) !== 8n) return undefined;
  const root = outcome.stack[1]!.type === 'null' ? null : stackCell(outcome.stack[1]);
  if (root === undefined) return undefined;
  if (root === null) return { wallet: null, siteAdnl: null, storageBagId: null, nextResolver: null };
  let records: Dictionary<Buffer, Cell>;
  try {
    records = Dictionary.loadDirect(Dictionary.Keys.Buffer(32), refValue, root);
  } catch {
    return undefined;
  }
  return {
    wallet: record(records, CATEGORY.wallet, 0x9fd3, addressAfterTag),
    siteAdnl: record(records, CATEGORY.site, 0xad01, bitsAfterTag),
    storageBagId: record(records, CATEGORY.storage, 0x7473, bitsAfterTag),
    nextResolver: record(records, CATEGORY.next, 0xba93, addressAfterTag),
  };
}

/** The bytes of a get-method's slice answer (whole bytes only, as toncenter reads them). */
function sliceBytes(outcome: GetMethodOutcome): Buffer | undefined {
  if (outcome.exitCode !== 0 || outcome.stack.length !== 1) return undefined;
  const cell = stackCell(outcome.stack[0]);
  if (!cell || cell.bits.length % 8 !== 0) return undefined;
  return cell.beginParse().loadBuffer(cell.bits.length / 8);
}

/** `get_domain`: "name" → "name.ton". */
export function tonDomain(outcome: GetMethodOutcome): string | undefined {
  const bytes = sliceBytes(outcome);
  return bytes && `${bytes.toString('utf8')}.ton`;
}

/** `get_full_domain`: "me\0t\0name\0" → "name.t.me" (the parts between zero bytes, last first). */
export function fullDomain(outcome: GetMethodOutcome): string | undefined {
  const bytes = sliceBytes(outcome);
  if (!bytes) return undefined;
  const parts: string[] = [];
  let current = '';
  for (const char of bytes.toString('utf8')) {
    if (char === '\0') {
      parts.push(current);
      current = '';
    } else current += char;
  }
  return parts.reverse().join('.');
}
