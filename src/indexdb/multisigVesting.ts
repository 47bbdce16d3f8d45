import type { ClientBase } from 'pg';

/**
 * Multisig v2 wallets and orders and vesting contracts (toncenter's tables, migration 4): the
 * detected state of each such contract a masterchain block touched, written inside the block's
 * transaction with the token states. A row is replaced only by a newer state
 * (`last_transaction_lt`), and a vesting's whitelist with its row.
 */

export interface MultisigRow {
  address: string;
  next_order_seqno: string;
  threshold: number;
  signers: string[];
  proposers: string[];
  last_transaction_lt: bigint;
  code_hash: Buffer;
  data_hash: Buffer;
}

export interface MultisigOrderRow {
  address: string;
  multisig_address: string;
  order_seqno: string;
  threshold: number;
  sent_for_execution: boolean;
  approvals_mask: string;
  approvals_num: number;
  expiration_date: string;
  /** base64 BoC of the order's actions dictionary, as toncenter keeps it. */
  order_boc: string;
  signers: string[];
  last_transaction_lt: bigint;
  code_hash: Buffer;
  data_hash: Buffer;
}

export interface VestingRow {
  address: string;
  vesting_start_time: number;
  vesting_total_duration: number;
  unlock_period: number;
  cliff_duration: number;
  vesting_total_amount: string;
  vesting_sender_address: string;
  owner_address: string;
  whitelist: string[];
  last_transaction_lt: bigint;
  code_hash: Buffer;
  data_hash: Buffer;
}

export interface MultisigVestingRows {
  multisigs: MultisigRow[];
  multisigOrders: MultisigOrderRow[];
  vestings: VestingRow[];
}

/** The tables of these contracts' states (a rollback deletes the rows of the accounts it rewinds). */
export const MULTISIG_VESTING_STATE_TABLES = ['multisig', 'multisig_orders', 'vesting_contracts'] as const;

const newer = (table: string) => `where ${table}.last_transaction_lt is null or excluded.last_transaction_lt >= ${table}.last_transaction_lt`;

function lastPer<T extends { address: string }>(rows: readonly T[]): T[] {
  return [...new Map(rows.map((row) => [row.address, row])).values()];
}

export async function insertMultisigVestingStates(client: ClientBase, rows: MultisigVestingRows): Promise<void> {
  const multisigs = lastPer(rows.multisigs);
  if (multisigs.length > 0) {
    await client.query(
      `insert into multisig (address, next_order_seqno, threshold, signers, proposers, last_transaction_lt, code_hash, data_hash)
       select u.address, u.next_order_seqno, u.threshold, array(select jsonb_array_elements_text(u.signers::jsonb)),
              array(select jsonb_array_elements_text(u.proposers::jsonb)), u.lt, u.code_hash, u.data_hash
         from unnest($1::text[], $2::numeric[], $3::int8[], $4::text[], $5::text[], $6::int8[], $7::bytea[], $8::bytea[])
           as u(address, next_order_seqno, threshold, signers, proposers, lt, code_hash, data_hash)
       on conflict (address) do update set next_order_seqno = excluded.next_order_seqno, threshold = excluded.threshold,
         signers = excluded.signers, proposers = excluded.proposers, last_transaction_lt = excluded.last_transaction_lt,
         code_hash = excluded.code_hash, data_hash = excluded.data_hash ${newer('multisig')}`,
      [
        multisigs.map((r) => r.address),
        multisigs.map((r) => r.next_order_seqno),
        multisigs.map((r) => r.threshold),
        multisigs.map((r) => JSON.stringify(r.signers)),
        multisigs.map((r) => JSON.stringify(r.proposers)),
        multisigs.map((r) => r.last_transaction_lt),
        multisigs.map((r) => r.code_hash),
        multisigs.map((r) => r.data_hash),
      ],
    );
  }
  const orders = lastPer(rows.multisigOrders);
  if (orders.length > 0) {
    await client.query(
      `insert into multisig_orders (address, multisig_address, order_seqno, threshold, sent_for_execution, approvals_mask, approvals_num,
                                    expiration_date, order_boc, signers, last_transaction_lt, code_hash, data_hash)
       select u.address, u.multisig_address, u.order_seqno, u.threshold, u.sent, u.mask, u.num, u.expiration, u.order_boc,
              array(select jsonb_array_elements_text(u.signers::jsonb)), u.lt, u.code_hash, u.data_hash
         from unnest($1::text[], $2::text[], $3::numeric[], $4::int8[], $5::bool[], $6::numeric[], $7::int8[], $8::int8[], $9::text[],
                     $10::text[], $11::int8[], $12::bytea[], $13::bytea[])
           as u(address, multisig_address, order_seqno, threshold, sent, mask, num, expiration, order_boc, signers, lt, code_hash, data_hash)
       on conflict (address) do update set multisig_address = excluded.multisig_address, order_seqno = excluded.order_seqno,
         threshold = excluded.threshold, sent_for_execution = excluded.sent_for_execution, approvals_mask = excluded.approvals_mask,
         approvals_num = excluded.approvals_num, expiration_date = excluded.expiration_date, order_boc = excluded.order_boc,
         signers = excluded.signers, last_transaction_lt = excluded.last_transaction_lt, code_hash = excluded.code_hash,
         data_hash = excluded.data_hash ${newer('multisig_orders')}`,
      [
        orders.map((r) => r.address),
        orders.map((r) => r.multisig_address),
        orders.map((r) => r.order_seqno),
        orders.map((r) => r.threshold),
        orders.map((r) => r.sent_for_execution),
        orders.map((r) => r.approvals_mask),
        orders.map((r) => r.approvals_num),
        orders.map((r) => r.expiration_date),
        orders.map((r) => r.order_boc),
        orders.map((r) => JSON.stringify(r.signers)),
        orders.map((r) => r.last_transaction_lt),
        orders.map((r) => r.code_hash),
        orders.map((r) => r.data_hash),
      ],
    );
  }
  const vestings = lastPer(rows.vestings);
  if (vestings.length > 0) {
    const { rows: written } = await client.query<{ address: string }>(
      `insert into vesting_contracts (address, vesting_start_time, vesting_total_duration, unlock_period, cliff_duration, vesting_total_amount,
                                      vesting_sender_address, owner_address, last_transaction_lt, code_hash, data_hash)
       select * from unnest($1::text[], $2::int4[], $3::int4[], $4::int4[], $5::int4[], $6::numeric[], $7::text[], $8::text[], $9::int8[],
                            $10::bytea[], $11::bytea[])
       on conflict (address) do update set vesting_start_time = excluded.vesting_start_time,
         vesting_total_duration = excluded.vesting_total_duration, unlock_period = excluded.unlock_period,
         cliff_duration = excluded.cliff_duration, vesting_total_amount = excluded.vesting_total_amount,
         vesting_sender_address = excluded.vesting_sender_address, owner_address = excluded.owner_address,
         last_transaction_lt = excluded.last_transaction_lt, code_hash = excluded.code_hash, data_hash = excluded.data_hash
         ${newer('vesting_contracts')}
       returning address`,
      [
        vestings.map((r) => r.address),
        vestings.map((r) => r.vesting_start_time),
        vestings.map((r) => r.vesting_total_duration),
        vestings.map((r) => r.unlock_period),
        vestings.map((r) => r.cliff_duration),
        vestings.map((r) => r.vesting_total_amount),
        vestings.map((r) => r.vesting_sender_address),
        vestings.map((r) => r.owner_address),
        vestings.map((r) => r.last_transaction_lt),
        vestings.map((r) => r.code_hash),
        vestings.map((r) => r.data_hash),
      ],
    );
    // The whitelist of each state written replaces the one it had (an older state changed nothing).
    const replaced = new Set(written.map((r) => r.address));
    const entries = vestings.filter((v) => replaced.has(v.address)).flatMap((v) => v.whitelist.map((w) => [v.address, w] as const));
    await client.query('delete from vesting_whitelist where vesting_contract_address = any($1)', [[...replaced]]);
    if (entries.length > 0) {
      await client.query(
        `insert into vesting_whitelist (vesting_contract_address, wallet_address)
         select * from unnest($1::text[], $2::text[]) on conflict do nothing`,
        [entries.map((e) => e[0]), entries.map((e) => e[1])],
      );
    }
  }
}
