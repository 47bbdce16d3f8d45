import type { ActionDetails, ActionJson } from '../../actions';
import { b64, type Bytes } from './format';

/**
 * An `actions` row as the converters read it; `B` how its bytea columns come (format.ts's Bytes:
 * the driver's Buffers, or the base64 text of the JSON rows an answer thread parses).
 */
export interface ActionRow<B extends Bytes = Buffer> {
  trace_id: B;
  action_id: B;
  type: string;
  tx_hashes: B[];
  start_lt: string;
  end_lt: string;
  start_utime: number;
  end_utime: number;
  trace_end_lt: string;
  trace_end_utime: number;
  trace_mc_seqno_end: number;
  trace_external_hash: B | null;
  success: boolean;
  accounts: string[];
  details: ActionDetails;
  /** Absent: none (the JSON rows leave it out: it is never printed, and the statement already selected by it). */
  ancestor_type?: string[];
}

/** The action of a row (src/actions' shape, `ancestor_type` kept for selectActions). */
export function toActionJson<B extends Bytes>(row: ActionRow<B>): ActionJson {
  const action: ActionJson = {
    trace_id: b64(row.trace_id),
    action_id: b64(row.action_id),
    start_lt: row.start_lt,
    end_lt: row.end_lt,
    start_utime: row.start_utime,
    end_utime: row.end_utime,
    trace_end_lt: row.trace_end_lt,
    trace_end_utime: row.trace_end_utime,
    trace_mc_seqno_end: row.trace_mc_seqno_end,
    transactions: row.tx_hashes.map((h) => b64(h)),
    success: row.success,
    type: row.type,
    details: row.details,
    accounts: row.accounts,
    finality: 'finalized',
  };
  if (row.trace_external_hash) action.trace_external_hash = b64(row.trace_external_hash);
  if (row.ancestor_type && row.ancestor_type.length > 0) action.ancestor_type = row.ancestor_type;
  return action;
}

/** One action as ton-index-go answers it: `accounts` only when asked for, never `ancestor_type`. */
export type ActionAnswer = Omit<ActionJson, 'accounts' | 'ancestor_type'> & { accounts?: string[] };

/** The shape of one action as ton-index-go answers it: `accounts` only when asked for, never `ancestor_type`. */
export function toActionAnswer(action: ActionJson, includeAccounts: boolean): ActionAnswer {
  // A copy without the fields not printed, keys in their order.
  const answer: Partial<ActionJson> = { ...action };
  delete answer.ancestor_type;
  if (!includeAccounts) delete answer.accounts;
  return answer as ActionAnswer;
}
