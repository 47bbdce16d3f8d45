import { param } from '../../params';
import { atSeqno, defineHandler, invalid } from '../define';
import { str, arrayOf, tagged, hash } from '../resultSchema';
import { dnsResolveAt, masterchainBlockAt, MAX_DNS_TTL } from '../../chain';
import { encodeDnsName, MAX_DNS_NAME_BYTES } from '../../converters';
import { READ_VERBS } from '../types';
import { positiveSeqno } from '../validation';

export default defineHandler({
  name: 'dnsResolve',
  category: 'accounts',
  verbs: READ_VERBS,
  summary: 'Resolves a TON DNS name through a resolver contract.',
  cache: 'seqno',
  session: atSeqno,
  result: tagged('dns.resolved', {
    entries: arrayOf(tagged('dns.entry', { name: str(), category: hash, entry: { type: 'object', required: ['@type'] } })),
  }),
  params: {
    address: param.address(),
    name: param.string().optional(),
    category: param.string().optional(),
    ttl: param.strictInt32().optional(),
    seqno: param.strictInt32().optional(),
  },
  validate: (p) => {
    positiveSeqno(p.seqno);
    if (p.ttl !== undefined && p.ttl < 0) invalid('ttl should be non-negative');
    if (p.ttl !== undefined && p.ttl > MAX_DNS_TTL) invalid(`ttl should be at most ${MAX_DNS_TTL}`);
    if (encodeDnsName(p.name ?? '').length > MAX_DNS_NAME_BYTES) invalid('name is too long');
  },
  // `category` is accepted and ignored, as toncenter does: every record of the name is returned.
  run: async (ctx, p) => {
    const session = ctx.lite();
    const block = await masterchainBlockAt(session, p.seqno);
    return dnsResolveAt(session, block, { root: p.address.address, name: p.name ?? '', ttl: p.ttl ?? 0, deadline: ctx.deadline });
  },
});
