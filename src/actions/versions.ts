/**
 * Action type sets by version and topic (ton-index-go's ActionTypeShortcuts): a client's
 * `supported_action_types` (or `X-Actions-Version`) names types and shortcuts; v1 is always in.
 */

const V1 = [
  'call_contract', 'contract_deploy', 'ton_transfer', 'stake_deposit', 'stake_withdrawal', 'stake_withdrawal_request',
  'dex_deposit_liquidity', 'jetton_transfer', 'nft_transfer', 'nft_mint', 'jetton_burn', 'jetton_mint', 'jetton_swap',
  'change_dns', 'delete_dns', 'renew_dns', 'subscribe', 'dex_withdraw_liquidity', 'unsubscribe', 'election_deposit',
  'election_recover', 'auction_bid', 'tick_tock',
];

const V2_ADDED = [
  'multisig_create_order', 'multisig_approve', 'multisig_execute', 'vesting_send_message', 'vesting_add_whitelist',
  'evaa_supply', 'evaa_withdraw', 'evaa_liquidate', 'jvault_stake', 'jvault_unstake', 'jvault_claim', 'jvault_unstake_request',
  'nft_discovery', 'tonco_deploy_pool', 'coffee_create_vault', 'coffee_create_pool_creator', 'coffee_create_pool',
  'coffee_mev_protect_hold_funds', 'coffee_mev_protect_failed_swap', 'coffee_staking_claim_rewards', 'coffee_staking_deposit',
  'coffee_staking_withdraw', 'unknown',
];

const SHORTCUTS: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>([
  ['v1', V1],
  ['v2', [...V1, ...V2_ADDED]],
  [
    'v3',
    [
      'v2', 'nft_put_on_sale', 'nft_put_on_auction', 'auction_outbid', 'nft_cancel_sale', 'nft_purchase', 'nft_cancel_auction',
      'nft_finish_auction', 'teleitem_start_auction', 'teleitem_cancel_auction', 'nft_update_sale', 'dns_purchase', 'dns_release',
      'layerzero_send', 'layerzero_send_tokens', 'layerzero_receive', 'layerzero_commit_packet', 'layerzero_dvn_verify',
    ],
  ],
  [
    'v4',
    [
      'v3', 'cocoon_worker_payout', 'cocoon_proxy_payout', 'cocoon_proxy_charge', 'cocoon_client_top_up', 'cocoon_register_proxy',
      'cocoon_unregister_proxy', 'cocoon_client_register', 'cocoon_client_change_secret_hash', 'cocoon_client_request_refund',
      'cocoon_grant_refund', 'cocoon_client_increase_stake', 'cocoon_client_withdraw',
    ],
  ],
  ['latest', ['v4']],
  ['jettons', ['jetton_transfer', 'jetton_burn', 'jetton_mint']],
  ['nft', ['nft_transfer', 'nft_mint', 'auction_bid']],
  ['dns', ['change_dns', 'delete_dns', 'renew_dns', 'dns_purchase', 'dns_release']],
  ['multisig', ['multisig_create_order', 'multisig_approve', 'multisig_execute']],
  ['vesting', ['vesting_send_message', 'vesting_add_whitelist']],
  ['staking', ['stake_deposit', 'stake_withdrawal', 'stake_withdrawal_request']],
]);

/** Nesting bound of shortcut expansion (the table is acyclic; the bound guards edits). */
const MAX_DEPTH = 10;

function expandInto(name: string, out: Set<string>, seen: Set<string>, depth: number): void {
  if (depth > MAX_DEPTH || seen.has(name)) return;
  const members = SHORTCUTS.get(name);
  if (!members) {
    out.add(name);
    return;
  }
  seen.add(name);
  for (const member of members) expandInto(member, out, seen, depth + 1);
  seen.delete(name);
}

/** The action types a client accepts: its names and shortcuts expanded, v1 always included. */
export function expandActionTypes(names: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const name of [...names, 'v1']) expandInto(name, out, new Set(), 0);
  return out;
}

/** toncenter's v1 types: a typed action of any other type also lists its steps (with `ancestor_type`). */
export const V1_ACTION_TYPES: ReadonlySet<string> = new Set(V1);

/** The types with a basic (generic) meaning: what a classified action falls back to. */
export const BASIC_ACTION_TYPES: ReadonlySet<string> = new Set(['call_contract', 'contract_deploy', 'tick_tock', 'ton_transfer']);
