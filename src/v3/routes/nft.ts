import { ValidationError } from '../../errors';
import { toNftCollectionJson } from '../models/token';
import { parseGroup, type V3Query } from '../params/query';
import { readSingle, toAccount, toBool } from '../params/rules';
import { buildNftItemsStatement, buildNftTransfersStatement, queryNftCollections } from '../sql/tokens';
import { bookAndMetadataOf, ltGroup, ownerList, tokenListAnswer, PAGING_PARAMETERS, pagingGroup, RANGE_PARAMETERS, raws, utimeGroup } from './common';
import { defineRoute } from './route';

/** GetNFTCollections. */
export const nftCollections = defineRoute({
  path: '/nft/collections',
  summary: 'NFT collections by address or owner',
  parameters: [
    { name: 'collection_address', type: 'string', list: true, description: 'Collection address in any form. Max: 1000.' },
    { name: 'owner_address', type: 'string', list: true, description: 'Address of NFT collection owner in any form. Max: 1000.' },
    ...PAGING_PARAMETERS,
  ],
  parse: (query) => ({
    ...parseGroup((field) => ({ addresses: field(() => raws(query, 'collection_address')) ?? [], owners: field(() => raws(query, 'owner_address')) ?? [] })),
    paging: pagingGroup(query),
  }),
  async run(context, { paging, ...filter }) {
    const rows = await queryNftCollections(context.db, filter, paging);
    return {
      nft_collections: rows.map(toNftCollectionJson),
      ...(await bookAndMetadataOf(context, rows.flatMap((r) => [r.address, r.owner_address]))),
    };
  },
});

/** validateNFTItemIndex: digits only (empty values are skipped). */
function indexList(query: V3Query): string[] {
  const values = query.list('index').filter((v) => v !== '');
  if (values.some((v) => !/^[0-9]+$/.test(v))) throw new ValidationError('index should contain digits only');
  return values;
}

/** GetNFTItems. */
export const nftItems = defineRoute({
  path: '/nft/items',
  summary: 'NFT items by address, owner, collection or index',
  parameters: [
    { name: 'address', type: 'string', list: true, description: 'NFT item address in any form. Max: 1000.' },
    { name: 'owner_address', type: 'string', list: true, description: 'Address of NFT item owner in any form. Max: 1000.' },
    { name: 'collection_address', type: 'string', list: true, description: 'Collection address in any form.' },
    { name: 'index', type: 'string', list: true, description: 'Index of item for given collection. Max: 1000.' },
    { name: 'include_on_sale', type: 'boolean', description: 'Include items on sale (sales are not indexed: the owner as it is).' },
    { name: 'sort_by_last_transaction_lt', type: 'boolean', description: 'Newest last transaction first.' },
    ...PAGING_PARAMETERS,
  ],
  parse(query) {
    const request = parseGroup((field) => ({
      addresses: field(() => raws(query, 'address')) ?? [],
      owners: field(() => raws(query, 'owner_address')) ?? [],
      collections: field(() => raws(query, 'collection_address')) ?? [],
      includeOnSale: field(() => readSingle(query, 'include_on_sale', toBool)) ?? false,
      sortByLastTransactionLt: field(() => readSingle(query, 'sort_by_last_transaction_lt', toBool)) ?? false,
    }));
    const paging = pagingGroup(query);
    const indexes = indexList(query);
    if (request.collections.length > 1 && request.owners.length !== 1) throw new ValidationError('exact one owner_address required for multiple collection_address');
    if (query.list('index').length > 0 && request.collections.length === 0) throw new ValidationError('index parameter is not allowed without the collection_address');
    return { ...request, indexes, paging };
  },
  async run(context, { paging, includeOnSale: _includeOnSale, ...filter }) {
    void _includeOnSale;
    return tokenListAnswer(context, 'nft_items', buildNftItemsStatement(filter, paging));
  },
});

/** GetNFTTransfers: `direction` in/out with an owner (`both` is none), newest first by default. */
export const nftTransfers = defineRoute({
  path: '/nft/transfers',
  summary: 'NFT transfers by owner, item or collection',
  parameters: [
    { name: 'owner_address', type: 'string', list: true, description: 'Address of NFT owner in any form. Max 1000' },
    { name: 'item_address', type: 'string', list: true, description: 'Address of NFT item in any form. Max: 1000.' },
    { name: 'collection_address', type: 'string', description: 'Collection address in any form.' },
    { name: 'direction', type: 'string', description: 'in, out (applied only with owner_address).' },
    ...RANGE_PARAMETERS,
    ...PAGING_PARAMETERS,
  ],
  parse(query) {
    const request = parseGroup((field) => ({
      owners: field(() => ownerList(query)) ?? [],
      items: field(() => raws(query, 'item_address')) ?? [],
      collection: field(() => readSingle(query, 'collection_address', toAccount))?.raw,
    }));
    const direction = query.single('direction');
    return { ...request, direction: direction === 'both' ? undefined : direction, utime: utimeGroup(query), lt: ltGroup(query), paging: pagingGroup(query) };
  },
  run: (context, { utime, lt, paging, ...filter }) => tokenListAnswer(context, 'nft_transfers', buildNftTransfersStatement({ ...filter, ...utime, ...lt }, paging)),
});
