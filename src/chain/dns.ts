import { createHash } from 'node:crypto';
import { Address, beginCell, Cell, Dictionary, DictionaryValue } from '@ton/core';
import { decodeDnsName, DnsResolvedJson, encodeDnsName, MAX_DNS_NAME_BYTES, toDnsEntry, toDnsResolved } from '../converters';
import { ApiError, ConflictError, invalid } from '../errors';
import { accountAt } from './accounts';
import { contractOf } from './getMethods';
import type { ChainSession, McBlock } from '../proofs';

/**
 * dnsResolve as tonlib's dns.resolve does it: `dnsresolve(name, 0)` on the resolver; a fully
 * resolved name yields every record of its dictionary, a partly resolved one the next resolver,
 * which is followed (with the rest of the name) while `ttl` allows. Every step reads its resolver
 * at the same masterchain block.
 */

/** Resolvers followed at most (`ttl`); a name of 127 bytes has far fewer components in practice. */
export const MAX_DNS_TTL = 16;

const NEXT_RESOLVER_CATEGORY = createHash('sha256').update('dns_next_resolver').digest();

const recordValue: DictionaryValue<Cell> = {
  serialize: (src, builder) => {
    builder.storeRef(src);
  },
  parse: (slice) => slice.loadRef(),
};

/** The records of `name` as resolved from resolver `root` at masterchain block `block`. */
export async function dnsResolveAt(
  session: ChainSession,
  block: McBlock,
  args: { root: Address; name: string; ttl: number; deadline: number },
): Promise<DnsResolvedJson> {
  const { root, name: fullName, ttl, deadline } = args;
  if (encodeDnsName(fullName).length > MAX_DNS_NAME_BYTES) invalid('name is too long');
  let read = await accountAt(session, block, root);
  let name = fullName;
  for (let hops = ttl; ; hops--) {
    const encoded = encodeDnsName(name);
    const contract = await contractOf(session, read, deadline);
    const outcome = await contract.run('dnsresolve', [
      { type: 'slice', cell: beginCell().storeBuffer(encoded).endCell() },
      { type: 'int', value: 0n },
    ]);
    // tonlib reports any failed run as "get method failed"; the contract is not a resolver, which
    // is the caller's choice of address, so a 409 as getTokenData gives for a non-token.
    if (outcome.exitCode !== 0) {
      throw new ConflictError(
        `Smart contract ${read.address.toString()} is not a DNS resolver: dnsresolve failed with exit code ${outcome.exitCode}`,
      );
    }
    if (outcome.stack.length === 0) return toDnsResolved([]);
    const [bitsItem, dataItem] = outcome.stack;
    if (outcome.stack.length !== 2 || bitsItem.type !== 'int') throw new ApiError('failed', 'dnsresolve returned an unexpected stack');
    if (dataItem.type !== 'cell' && dataItem.type !== 'slice') return toDnsResolved([]);
    const bits = bitsItem.value;
    if (bits < 0n || bits > BigInt(encoded.length * 8) || bits % 8n !== 0n)
      throw new ApiError('failed', `dnsresolve resolved an invalid prefix of ${bits} bits`);
    const prefix = Number(bits / 8n);
    const data = dataItem.cell;
    if (prefix < encoded.length) {
      const resolvedName = decodeDnsName(encoded.subarray(0, prefix));
      const entry = toDnsEntry(resolvedName, NEXT_RESOLVER_CATEGORY, data);
      const next = entry.entry;
      if (hops <= 0 || next['@type'] !== 'dns.entryDataNextResolver' || !name.endsWith(resolvedName)) return toDnsResolved([entry]);
      let rest = name.slice(0, name.length - resolvedName.length);
      if (rest.endsWith('.')) rest = rest.slice(0, -1);
      const resolver = Address.parse(next.resolver.account_address);
      read = await accountAt(session, read.block, resolver);
      name = rest;
      continue;
    }
    let records: Dictionary<Buffer, Cell>;
    try {
      records = Dictionary.loadDirect(Dictionary.Keys.Buffer(32), recordValue, data);
    } catch {
      throw new ApiError('failed', 'dnsresolve returned a record dictionary that does not parse');
    }
    return toDnsResolved([...records].map(([category, record]) => toDnsEntry(name, category, record)));
  }
}
