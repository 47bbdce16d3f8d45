import type { ClientBase } from 'pg';
import { MULTISIG_VESTING_STATE_TABLES } from './multisigVesting';

/**
 * Removes every masterchain block above `mcSeqno` (inside the caller's transaction) and puts the
 * checkpoint there: what the index does when the embedded chain was rewound (a restored snapshot,
 * a restart from an older save). The latest account states of the accounts those blocks touched
 * are rebuilt from their last remaining transaction, and the traces they touched from the
 * transactions and messages that remain. Below the first indexed block, the index is emptied.
 */
export async function rollbackTo(client: ClientBase, mcSeqno: number): Promise<void> {
  const { rows } = await client.query<{ first_mc_seqno: number }>('select first_mc_seqno from index_checkpoint where id = 1 for update');
  const first = rows[0]?.first_mc_seqno;
  if (first === undefined) return;
  if (mcSeqno < first) {
    await client.query(
      'truncate blocks, shard_state, transactions, messages, message_contents, account_states, latest_account_states, traces, trace_edges, index_checkpoint, ' +
        'jetton_masters, jetton_wallets, nft_collections, nft_items, jetton_transfers, jetton_burns, nft_transfers, multisig, multisig_orders, ' +
        'vesting_contracts, vesting_whitelist, dns_entries cascade',
    );
    return;
  }
  await client.query('create temp table _rollback_accounts on commit drop as select distinct account from transactions where mc_block_seqno > $1', [mcSeqno]);
  await client.query(
    'create temp table _rollback_traces on commit drop as select distinct trace_id from transactions where mc_block_seqno > $1 and trace_id is not null',
    [mcSeqno],
  );
  // Through their transactions: messages have no index on mc_seqno (migration 7).
  await client.query('delete from messages m using transactions t where t.mc_block_seqno > $1 and m.tx_hash = t.hash and m.tx_lt = t.lt', [mcSeqno]);
  await client.query('delete from transactions where mc_block_seqno > $1', [mcSeqno]);
  await client.query('delete from blocks where mc_block_seqno > $1', [mcSeqno]);
  await client.query('delete from shard_state where mc_seqno > $1', [mcSeqno]);

  await client.query('delete from latest_account_states where account in (select account from _rollback_accounts)');
  // Token states of those accounts describe a state that is gone: they are dropped and come back
  // with the next state the detection sees (transfers and burns go with their transactions).
  for (const table of ['jetton_masters', 'jetton_wallets', 'nft_collections', 'nft_items', ...MULTISIG_VESTING_STATE_TABLES]) {
    await client.query(`delete from ${table} where address in (select account from _rollback_accounts)`);
  }
  await client.query('delete from vesting_whitelist where vesting_contract_address in (select account from _rollback_accounts)');
  await client.query('delete from dns_entries where nft_item_address in (select account from _rollback_accounts)');
  await client.query(`
    insert into latest_account_states (account, hash, balance, balance_extra_currencies, account_status, frozen_hash, data_hash, code_hash,
                                       timestamp, last_trans_hash, last_trans_lt)
    select distinct on (t.account) t.account, s.hash, s.balance, s.balance_extra_currencies, s.account_status, s.frozen_hash, s.data_hash,
           s.code_hash, t.now, t.hash, t.lt
    from transactions t
    join _rollback_accounts a on a.account = t.account
    join account_states s on s.hash = t.account_state_hash_after
    order by t.account, t.lt desc`);

  await client.query('delete from trace_edges where trace_id in (select trace_id from _rollback_traces)');
  await client.query('delete from traces where trace_id in (select trace_id from _rollback_traces)');
  // Edges: internal messages (sent by one transaction, received by another) of the surviving part.
  await client.query(`
    insert into trace_edges (trace_id, msg_hash, left_tx, right_tx, incomplete, broken)
    select m.trace_id, m.msg_hash,
           (array_agg(m.tx_hash) filter (where m.direction = 'out'))[1],
           (array_agg(m.tx_hash) filter (where m.direction = 'in'))[1],
           bool_and(m.direction = 'out'), false
    from messages m
    where m.trace_id in (select trace_id from _rollback_traces)
      and ((m.direction = 'out' and m.destination is not null) or (m.direction = 'in' and m.source is not null))
    group by m.trace_id, m.msg_hash`);
  await client.query(`
    insert into traces (trace_id, external_hash, external_hash_norm, mc_seqno_start, mc_seqno_end, start_lt, start_utime, end_lt, end_utime,
                        state, pending_edges_, edges_, nodes_)
    select t.trace_id, root.msg_hash, root.msg_hash_norm, min(t.mc_block_seqno), max(t.mc_block_seqno), min(t.lt), min(t.now), max(t.lt), max(t.now),
           case when coalesce(e.pending, 0) = 0 then 'complete'::trace_state else 'pending'::trace_state end,
           coalesce(e.pending, 0), coalesce(e.total, 0), count(*)
    from transactions t
    left join messages root on root.tx_hash = t.trace_id and root.direction = 'in' and root.source is null
    left join (select trace_id, count(*) filter (where incomplete) as pending, count(*) as total from trace_edges
               where trace_id in (select trace_id from _rollback_traces) group by trace_id) e on e.trace_id = t.trace_id
    where t.trace_id in (select trace_id from _rollback_traces)
    group by t.trace_id, root.msg_hash, root.msg_hash_norm, e.pending, e.total`);

  await client.query(
    `update index_checkpoint c set mc_seqno = b.seqno, root_hash = b.root_hash, file_hash = b.file_hash, gen_utime = b.gen_utime, committed_at = now()
     from blocks b where c.id = 1 and b.workchain = -1 and b.seqno = $1`,
    [mcSeqno],
  );
}

/**
 * Deletes whole masterchain blocks generated before `beforeUtime` (`--index-retention`), at most
 * `maxBlocks` per call so each transaction stays short; moves `first_mc_seqno` up. Bodies and
 * account states (shared by hash) and the latest account states stay. Returns the blocks removed.
 */
export async function pruneBefore(client: ClientBase, beforeUtime: number, maxBlocks: number): Promise<number> {
  const { rows } = await client.query<{ first_mc_seqno: number; mc_seqno: number }>('select first_mc_seqno, mc_seqno from index_checkpoint where id = 1 for update');
  const checkpoint = rows[0];
  if (!checkpoint) return 0;
  const { rows: old } = await client.query<{ last: number | null }>(
    'select max(seqno) as last from blocks where workchain = -1 and seqno between $1 and $2 and gen_utime < $3',
    [checkpoint.first_mc_seqno, Math.min(checkpoint.first_mc_seqno + maxBlocks - 1, checkpoint.mc_seqno - 1), beforeUtime],
  );
  const last = old[0]?.last;
  if (last === null || last === undefined) return 0;
  await client.query('delete from trace_edges where trace_id in (select trace_id from traces where mc_seqno_end <= $1)', [last]);
  await client.query('delete from traces where mc_seqno_end <= $1', [last]);
  await client.query('delete from messages m using transactions t where t.mc_block_seqno <= $1 and m.tx_hash = t.hash and m.tx_lt = t.lt', [last]);
  await client.query('delete from transactions where mc_block_seqno <= $1', [last]);
  await client.query('delete from blocks where mc_block_seqno <= $1', [last]);
  await client.query('delete from shard_state where mc_seqno <= $1', [last]);
  await client.query('update index_checkpoint set first_mc_seqno = $1 where id = 1', [last + 1]);
  return last - checkpoint.first_mc_seqno + 1;
}
