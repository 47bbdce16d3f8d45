import type { V3Database } from '../db';
import type { Paging } from '../params/rules';
import { matchAny, SqlParams, whereClause } from './builder';

/**
 * The multisig and vesting tables (migration 4) read as ton-index-go's crud_multisig.go and
 * crud_vesting.go read them: the same filters and ORDER BY, LIMIT/OFFSET, parameterized.
 */

export interface MultisigDbRow {
  id: string;
  address: string;
  next_order_seqno: string | null;
  threshold: string | null;
  signers: string[] | null;
  proposers: string[] | null;
  last_transaction_lt: string;
  code_hash: Buffer | null;
  data_hash: Buffer | null;
}

export interface MultisigOrderDbRow {
  address: string;
  multisig_address: string;
  order_seqno: string | null;
  threshold: string | null;
  sent_for_execution: boolean | null;
  approvals_mask: string | null;
  approvals_num: string | null;
  expiration_date: string | null;
  order_boc: string | null;
  signers: string[] | null;
  last_transaction_lt: string;
  code_hash: Buffer | null;
  data_hash: Buffer | null;
}

export interface VestingDbRow {
  address: string;
  vesting_start_time: number | null;
  vesting_total_duration: number | null;
  unlock_period: number | null;
  cliff_duration: number | null;
  vesting_sender_address: string | null;
  owner_address: string | null;
  vesting_total_amount: string | null;
}

function page(p: SqlParams, paging: Paging): string {
  return ` limit ${p.bind(paging.limit)} offset ${p.bind(paging.offset)}`;
}

const ORDER_COLUMNS = `address, multisig_address, order_seqno::text as order_seqno, threshold, sent_for_execution, approvals_mask::text as approvals_mask,
  approvals_num, expiration_date, order_boc, signers, last_transaction_lt, code_hash, data_hash`;

/** buildMultisigQuery: by address, or by a wallet among the signers or proposers; by id (desc unless asked). */
export async function queryMultisigs(db: V3Database, filter: { addresses: string[]; wallets: string[] }, paging: Paging): Promise<MultisigDbRow[]> {
  const p = new SqlParams();
  const where: string[] = [];
  if (filter.addresses.length > 0) where.push(matchAny(p, 'M.address', filter.addresses));
  if (filter.wallets.length > 0) {
    const wallets = p.bind(filter.wallets);
    where.push(`(M.signers && ${wallets}::text[] or M.proposers && ${wallets}::text[])`);
  }
  return db.query(
    `select M.id, M.address, M.next_order_seqno::text as next_order_seqno, M.threshold, M.signers, M.proposers, M.last_transaction_lt,
       M.code_hash, M.data_hash from multisig as M${whereClause(where)} order by M.id ${paging.sort ?? 'desc'}${page(p, paging)}`,
    p.values,
  );
}

/** The orders of these multisigs, by id (QueryMultisigs' second query). */
export async function queryOrdersOfMultisigs(db: V3Database, multisigs: readonly string[]): Promise<MultisigOrderDbRow[]> {
  if (multisigs.length === 0) return [];
  return db.query(`select ${ORDER_COLUMNS} from multisig_orders where multisig_address = any($1) order by id`, [multisigs]);
}

/** buildMultisigOrderQuery: by address and/or multisig; by id (desc unless asked). */
export async function queryMultisigOrders(db: V3Database, filter: { addresses: string[]; multisigs: string[] }, paging: Paging): Promise<MultisigOrderDbRow[]> {
  const p = new SqlParams();
  const where: string[] = [];
  if (filter.addresses.length > 0) where.push(matchAny(p, 'address', filter.addresses));
  if (filter.multisigs.length > 0) where.push(`multisig_address = any(${p.bind(filter.multisigs)})`);
  return db.query(`select ${ORDER_COLUMNS} from multisig_orders${whereClause(where)} order by id ${paging.sort ?? 'desc'}${page(p, paging)}`, p.values);
}

/** buildVestingContractsQuery: by contract, or by a wallet as owner or sender (or in the whitelist with check_whitelist); by id. */
export async function queryVestingContracts(
  db: V3Database,
  filter: { contracts: string[]; wallets: string[]; checkWhitelist: boolean },
  paging: Paging,
): Promise<VestingDbRow[]> {
  const p = new SqlParams();
  const where: string[] = [];
  if (filter.contracts.length > 0) where.push(matchAny(p, 'V.address', filter.contracts));
  if (filter.wallets.length > 0) {
    const any = [matchAny(p, 'V.owner_address', filter.wallets), matchAny(p, 'V.vesting_sender_address', filter.wallets)];
    if (filter.checkWhitelist) {
      any.push(`exists (select 1 from vesting_whitelist W where W.vesting_contract_address = V.address and ${matchAny(p, 'W.wallet_address', filter.wallets)})`);
    }
    where.push(`(${any.join(' or ')})`);
  }
  return db.query(
    `select V.address, V.vesting_start_time, V.vesting_total_duration, V.unlock_period, V.cliff_duration, V.vesting_sender_address,
       V.owner_address, V.vesting_total_amount::text as vesting_total_amount
     from vesting_contracts V${whereClause(where)} order by V.id asc${page(p, paging)}`,
    p.values,
  );
}

/** Each contract's whitelist, ordered as ton-index-go's query orders it. */
export async function queryVestingWhitelists(db: V3Database, contracts: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (contracts.length === 0) return out;
  const rows = await db.query<{ vesting_contract_address: string; wallet_address: string }>(
    'select vesting_contract_address, wallet_address from vesting_whitelist where vesting_contract_address = any($1) order by vesting_contract_address, wallet_address',
    [contracts],
  );
  for (const row of rows) out.set(row.vesting_contract_address, [...(out.get(row.vesting_contract_address) ?? []), row.wallet_address]);
  return out;
}
