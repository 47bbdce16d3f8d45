import { ValidationError } from '../../errors';
import { parseOrderActions, toMultisigJson, toMultisigOrderJson, type MultisigOrderJson } from '../models/multisigVesting';
import { parseGroup } from '../params/query';
import { readSingle, toBool } from '../params/rules';
import { queryMultisigOrders, queryMultisigs, queryOrdersOfMultisigs } from '../sql/multisigVesting';
import { bookOf, PAGING_PARAMETERS, pagingGroup, raws } from './common';
import { defineRoute } from './route';

/** GetMultisigs: wallets by address or by a signer/proposer, each with its orders unless `include_orders=false`. */
export const multisigWallets = defineRoute({
  path: '/multisig/wallets',
  summary: 'Multisig v2 wallets with their orders',
  parameters: [
    { name: 'address', type: 'string', list: true, description: 'Multisig contract address in any form. Max: 1024.' },
    { name: 'wallet_address', type: 'string', list: true, description: 'Address of signer or proposer wallet in any form. Max: 1024.' },
    { name: 'include_orders', type: 'boolean', description: 'Gather multisig orders (default true).' },
    ...PAGING_PARAMETERS,
  ],
  parse(query) {
    const request = parseGroup((field) => ({
      addresses: field(() => raws(query, 'address')) ?? [],
      wallets: field(() => raws(query, 'wallet_address')) ?? [],
      includeOrders: field(() => readSingle(query, 'include_orders', toBool)) ?? true,
    }));
    const paging = pagingGroup(query);
    if (request.addresses.length === 0 && request.wallets.length === 0) throw new ValidationError('At least one of address or wallet_address should be specified');
    return { ...request, paging };
  },
  async run(context, { paging, includeOrders, ...filter }) {
    const rows = await queryMultisigs(context.db, filter, paging);
    const orders = new Map<string, MultisigOrderJson[]>();
    if (includeOrders) {
      for (const order of await queryOrdersOfMultisigs(context.db, rows.map((r) => r.address))) {
        orders.set(order.multisig_address, [...(orders.get(order.multisig_address) ?? []), toMultisigOrderJson(order, null)]);
      }
    }
    const multisigs = rows.map((row) => toMultisigJson(row, includeOrders ? (orders.get(row.address) ?? null) : []));
    const named = multisigs.flatMap((m) => [m.address, ...(m.signers ?? []), ...(m.proposers ?? []), ...(m.orders ?? []).flatMap((o) => [o.address, ...(o.signers ?? [])])]);
    return { multisigs, address_book: await bookOf(context, named) };
  },
});

/** GetMultisigOrders: orders by address or multisig; `parse_actions` reads each order's actions. */
export const multisigOrders = defineRoute({
  path: '/multisig/orders',
  summary: 'Multisig v2 orders',
  parameters: [
    { name: 'address', type: 'string', list: true, description: 'Order address in any form. Max: 1024.' },
    { name: 'multisig_address', type: 'string', list: true, description: 'Address of corresponding multisig. Max: 1024.' },
    { name: 'parse_actions', type: 'boolean', description: 'Parse order actions (default false).' },
    ...PAGING_PARAMETERS,
  ],
  parse(query) {
    const request = parseGroup((field) => ({
      addresses: field(() => raws(query, 'address')) ?? [],
      multisigs: field(() => raws(query, 'multisig_address')) ?? [],
      parseActions: field(() => readSingle(query, 'parse_actions', toBool)) ?? false,
    }));
    const paging = pagingGroup(query);
    if (request.addresses.length === 0 && request.multisigs.length === 0) throw new ValidationError('At least one of address or multisig_address should be specified');
    return { ...request, paging };
  },
  async run(context, { paging, parseActions, ...filter }) {
    const rows = await queryMultisigOrders(context.db, filter, paging);
    const orders = rows.map((row) => toMultisigOrderJson(row, parseActions && row.order_boc ? parseOrderActions(row.order_boc) : null));
    const named = orders.flatMap((o) => [o.address, o.multisig_address, ...(o.signers ?? []), ...(o.actions ?? []).flatMap((a) => [a.destination, ...((a.parsed_body?.['new_signers'] as string[] | null) ?? []), ...((a.parsed_body?.['new_proposers'] as string[] | null) ?? [])])]);
    return { orders, address_book: await bookOf(context, named) };
  },
});
