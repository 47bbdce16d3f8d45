import type {
  AccountStateRow as IndexAccountStateRow,
  MessageContentRow,
  MessageRow as IndexMessageRow,
  TransactionRow as IndexTransactionRow,
} from '../../indexdb';
import type { LoadedTransactions } from '../sql/transactions';
import type { MessageRow } from './message';
import type { AccountStateRow, TransactionRow } from './transaction';

/**
 * The rows the index writes (bigints, jsonb as JSON text), as v3 reads them back from PostgreSQL
 * (64-bit numbers as text, jsonb parsed, bodies joined): so events built from a block that was
 * never stored (the streaming API without the index) go through the same converters, and a
 * transaction there is what /api/v3/transactions would answer for it.
 */

type Read<T> = { [K in keyof T]: T[K] extends bigint ? string : T[K] extends bigint | null ? string | null : T[K] };

/** pg's text of bigint columns; everything else as it is. */
function asRead<T extends object>(row: T): Read<T> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) out[key] = typeof value === 'bigint' ? value.toString() : value;
  return out as Read<T>;
}

const json = (text: string | null): Record<string, string> | null => (text === null ? null : (JSON.parse(text) as Record<string, string>));

export function transactionReadRow(row: IndexTransactionRow): TransactionRow {
  return {
    ...asRead(row),
    total_fees_extra_currencies: json(row.total_fees_extra_currencies),
    credit_extra_currencies: json(row.credit_extra_currencies),
  };
}

export function accountStateReadRow(row: IndexAccountStateRow): AccountStateRow {
  return {
    hash: row.hash,
    account: row.account,
    balance: row.balance.toString(),
    balance_extra_currencies: json(row.balance_extra_currencies),
    account_status: row.account_status,
    frozen_hash: row.frozen_hash,
    data_hash: row.data_hash,
    code_hash: row.code_hash,
  };
}

function messageReadRow(row: IndexMessageRow, contents: ReadonlyMap<string, Buffer>): MessageRow {
  const body = contents.get(row.body_hash.toString('hex'));
  const init = row.init_state_hash ? contents.get(row.init_state_hash.toString('hex')) : undefined;
  return {
    tx_hash: row.tx_hash,
    tx_lt: row.tx_lt.toString(),
    msg_hash: row.msg_hash,
    direction: row.direction,
    trace_id: row.trace_id,
    source: row.source,
    destination: row.destination,
    value: row.value === null ? null : row.value.toString(),
    value_extra_currencies: json(row.value_extra_currencies),
    fwd_fee: row.fwd_fee === null ? null : row.fwd_fee.toString(),
    ihr_fee: row.ihr_fee === null ? null : row.ihr_fee.toString(),
    extra_flags: row.extra_flags === null ? null : row.extra_flags.toString(),
    created_lt: row.created_lt === null ? null : row.created_lt.toString(),
    created_at: row.created_at === null ? null : String(row.created_at),
    opcode: row.opcode,
    ihr_disabled: row.ihr_disabled,
    bounce: row.bounce,
    bounced: row.bounced,
    import_fee: row.import_fee === null ? null : row.import_fee.toString(),
    body_hash: row.body_hash,
    init_state_hash: row.init_state_hash,
    msg_hash_norm: row.msg_hash_norm,
    // As the left joins on message_contents: the content's hash and BoC when it is there.
    body_content_hash: body ? row.body_hash : null,
    body: body ?? null,
    init_content_hash: init ? row.init_state_hash : null,
    init_body: init ?? null,
  };
}

/**
 * LoadedTransactions (what queryTransactions gives v3's converters) out of the index's rows of
 * blocks held in memory: `states` are the account states known (a state not among them gives the
 * hash alone, as a state the index does not hold does).
 */
export function loadedFromIndexRows(
  transactions: readonly IndexTransactionRow[],
  messages: readonly IndexMessageRow[],
  contents: readonly MessageContentRow[],
  states: ReadonlyMap<string, IndexAccountStateRow>,
): LoadedTransactions {
  const bodies = new Map(contents.map((c) => [c.hash.toString('hex'), c.body]));
  const rows = transactions.map(transactionReadRow);
  const byTransaction = new Map<string, MessageRow[]>();
  for (const message of messages) {
    const key = `${message.tx_hash.toString('hex')}:${message.tx_lt}`;
    const list = byTransaction.get(key) ?? [];
    list.push(messageReadRow(message, bodies));
    byTransaction.set(key, list);
  }
  const readStates = new Map<string, AccountStateRow>();
  for (const row of transactions) {
    for (const hash of [row.account_state_hash_before, row.account_state_hash_after]) {
      const state = states.get(hash.toString('hex'));
      if (state) readStates.set(hash.toString('hex'), accountStateReadRow(state));
    }
  }
  return { rows, messages: byTransaction, states: readStates };
}
