import { ValidationError } from '../../errors';
import { toJettonBurnJson, toJettonMasterJson } from '../models/token';
import { parseGroup } from '../params/query';
import { readSingle, toAccount, toBool } from '../params/rules';
import { buildJettonTransfersStatement, buildJettonWalletsStatement, queryJettonBurns, queryJettonMasters } from '../sql/tokens';
import { bookAndMetadataOf, ltGroup, tokenListAnswer, ownerList, PAGING_PARAMETERS, pagingGroup, RANGE_PARAMETERS, raws, utimeGroup } from './common';
import { defineRoute } from './route';

/** GetJettonMasters. */
export const jettonMasters = defineRoute({
  path: '/jetton/masters',
  summary: 'Jetton masters by address or admin',
  parameters: [
    { name: 'address', type: 'string', list: true, description: 'Jetton master address in any form. Max: 1000.' },
    { name: 'admin_address', type: 'string', list: true, description: "Address of Jetton master's admin in any form. Max: 1000." },
    ...PAGING_PARAMETERS,
  ],
  parse: (query) => ({
    ...parseGroup((field) => ({ addresses: field(() => raws(query, 'address')) ?? [], admins: field(() => raws(query, 'admin_address')) ?? [] })),
    paging: pagingGroup(query),
  }),
  async run(context, { paging, ...filter }) {
    const rows = await queryJettonMasters(context.db, filter, paging);
    return {
      jetton_masters: rows.map(toJettonMasterJson),
      ...(await bookAndMetadataOf(context, rows.flatMap((r) => [r.address, r.admin_address]))),
    };
  },
});

/** GetJettonWallets; several jettons need exactly one owner (its 422). */
export const jettonWallets = defineRoute({
  path: '/jetton/wallets',
  summary: 'Jetton wallets by address, owner or jetton',
  parameters: [
    { name: 'address', type: 'string', list: true, description: 'Jetton wallet address in any form. Max: 1000.' },
    { name: 'owner_address', type: 'string', list: true, description: "Address of Jetton wallet's owner in any form. Max: 1000." },
    { name: 'jetton_address', type: 'string', list: true, description: 'Jetton Master in any form.' },
    { name: 'exclude_zero_balance', type: 'boolean', description: 'Exclude jetton wallets with 0 balance.' },
    ...PAGING_PARAMETERS,
  ],
  parse(query) {
    const request = parseGroup((field) => ({
      addresses: field(() => raws(query, 'address')) ?? [],
      owners: field(() => raws(query, 'owner_address')) ?? [],
      jettons: field(() => raws(query, 'jetton_address')) ?? [],
      excludeZeroBalance: field(() => readSingle(query, 'exclude_zero_balance', toBool)) ?? false,
    }));
    const paging = pagingGroup(query);
    if (request.jettons.length > 1 && request.owners.length !== 1) throw new ValidationError('exact one owner_address required for multiple jetton_address');
    return { ...request, paging };
  },
  run: (context, { paging, ...filter }) => tokenListAnswer(context, 'jetton_wallets', buildJettonWalletsStatement(filter, paging)),
});

const EVENT_FILTERS = [
  { name: 'owner_address', type: 'string', list: true, description: 'Address of jetton wallet owner in any form. Max 1000' },
  { name: 'jetton_wallet', type: 'string', list: true, description: 'Jetton wallet address in any form. Max: 1000.' },
  { name: 'jetton_master', type: 'string', description: 'Jetton master address in any form.' },
] as const;

/** GetJettonTransfers: `direction` in/out with an owner (`both` is none), newest first by default. */
export const jettonTransfers = defineRoute({
  path: '/jetton/transfers',
  summary: 'Jetton transfers by owner, wallet or master',
  parameters: [...EVENT_FILTERS, { name: 'direction', type: 'string', description: 'in, out (applied only with owner_address).' }, ...RANGE_PARAMETERS, ...PAGING_PARAMETERS],
  parse(query) {
    const request = parseGroup((field) => ({
      owners: field(() => ownerList(query)) ?? [],
      wallets: field(() => raws(query, 'jetton_wallet')) ?? [],
      master: field(() => readSingle(query, 'jetton_master', toAccount))?.raw,
    }));
    const direction = query.single('direction');
    return { ...request, direction: direction === 'both' ? undefined : direction, utime: utimeGroup(query), lt: ltGroup(query), paging: pagingGroup(query) };
  },
  run: (context, { utime, lt, paging, ...filter }) => tokenListAnswer(context, 'jetton_transfers', buildJettonTransfersStatement({ ...filter, ...utime, ...lt }, paging)),
});

/** GetJettonBurns. */
export const jettonBurns = defineRoute({
  path: '/jetton/burns',
  summary: 'Jetton burns by owner, wallet or master',
  parameters: [{ ...EVENT_FILTERS[0], name: 'address' }, ...EVENT_FILTERS.slice(1), ...RANGE_PARAMETERS, ...PAGING_PARAMETERS],
  parse(query) {
    const request = parseGroup((field) => ({
      owners: field(() => ownerList(query)) ?? [],
      wallets: field(() => raws(query, 'jetton_wallet')) ?? [],
      master: field(() => readSingle(query, 'jetton_master', toAccount))?.raw,
    }));
    return { ...request, utime: utimeGroup(query), lt: ltGroup(query), paging: pagingGroup(query) };
  },
  async run(context, { utime, lt, paging, ...filter }) {
    const rows = await queryJettonBurns(context.db, { ...filter, ...utime, ...lt }, paging);
    return {
      jetton_burns: rows.map(toJettonBurnJson),
      ...(await bookAndMetadataOf(context, rows.flatMap((r) => [r.owner, r.jetton_wallet_address, r.jetton_master_address, r.response_destination]))),
    };
  },
});
