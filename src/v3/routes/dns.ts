import { ValidationError } from '../../errors';
import { parseGroup } from '../params/query';
import { checkPaging, readSingle, toAccount, toInt32 } from '../params/rules';
import { queryDnsRecords } from '../sql/dns';
import { bookOf } from './common';
import { defineRoute } from './route';

/**
 * GetDNSRecords: the DNS items (.ton and .t.me, and the collections `--dns-collections` adds)
 * whose wallet record is `wallet`, or whose domain is `domain`; exactly one of the two. Only
 * `limit`/`offset` page it (ton-index-go reads no `sort` here).
 */
export const dnsRecords = defineRoute({
  path: '/dns/records',
  summary: 'DNS records by wallet or domain',
  parameters: [
    {
      name: 'wallet',
      type: 'string',
      description: 'Wallet address in any form. DNS records that contain this address in wallet category will be returned.',
    },
    { name: 'domain', type: 'string', description: 'Domain name to search for. DNS records with this exact domain name will be returned.' },
    { name: 'limit', type: 'integer', description: 'Rows to return, 1..1000 (default 100).' },
    { name: 'offset', type: 'integer', description: 'Rows to skip.' },
  ],
  parse(query) {
    const request = parseGroup((field) => ({
      wallet: field(() => readSingle(query, 'wallet', toAccount))?.raw,
      limit: field(() => readSingle(query, 'limit', toInt32)),
      offset: field(() => readSingle(query, 'offset', toInt32)),
    }));
    const domain = query.single('domain');
    const hasDomain = domain !== undefined && domain !== '';
    if (request.wallet === undefined && !hasDomain) throw new ValidationError('either wallet address or domain is required');
    if (request.wallet !== undefined && hasDomain) throw new ValidationError('provide either wallet address or domain, not both');
    const paging = checkPaging({ limit: request.limit, offset: request.offset });
    return { filter: request.wallet !== undefined ? { wallet: request.wallet } : { domain: domain! }, paging };
  },
  async run(context, { filter, paging }) {
    const rows = await queryDnsRecords(context.db, filter, paging);
    return {
      records: rows.map((r) => ({
        nft_item_address: r.nft_item_address,
        nft_item_owner: r.nft_item_owner,
        domain: r.domain,
        dns_next_resolver: r.dns_next_resolver,
        dns_wallet: r.dns_wallet,
        dns_site_adnl: r.dns_site_adnl,
        dns_storage_bag_id: r.dns_storage_bag_id,
      })),
      address_book: await bookOf(
        context,
        rows.flatMap((r) => [r.nft_item_address, r.nft_item_owner, r.dns_wallet]),
      ),
    };
  },
});
