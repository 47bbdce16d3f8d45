import type { TraceMessage, TraceTransaction } from '../actions';
import type { TraceRow } from '../indexdb';
import type { ParsedMessage, ParsedTransaction } from './parseBlock';

/**
 * The classifier's view of the transactions a commit writes, made from the parsed rows instead of
 * reading them back: the same fields `readTraceInputs` (src/actions/indexing.ts) reads from the
 * rows just inserted (a signed int32 opcode read as unsigned, a missing flag as false), and the
 * body cell the row's BoC was made from.
 */

function messageOf(message: ParsedMessage): TraceMessage {
  const row = message.row;
  return {
    hash: row.msg_hash.toString('base64'),
    source: row.source,
    destination: row.destination,
    value: row.value,
    opcode: row.opcode === null ? null : row.opcode >>> 0,
    body: message.body,
    bounce: row.bounce ?? false,
    bounced: row.bounced ?? false,
  };
}

function transactionOf(tx: ParsedTransaction): TraceTransaction {
  const row = tx.row;
  return {
    hash: row.hash.toString('base64'),
    lt: row.lt,
    now: row.now,
    account: row.account,
    mcSeqno: row.mc_block_seqno,
    aborted: row.aborted ?? false,
    origStatus: row.orig_status,
    endStatus: row.end_status,
    tickTock: row.descr === 'tick_tock',
    inMsg: tx.inMessage ? messageOf(tx.inMessage) : null,
    outMsgs: tx.outMessages.map(messageOf),
  };
}

/**
 * The transactions of each trace in `traces` that began at masterchain block `firstSeqno` or
 * later, by trace id (hex), out of `written` (every transaction written from `firstSeqno` on, its
 * trace id set): such a trace has no transaction in an earlier block, so these are all of it.
 */
export function heldTraces(traces: Iterable<TraceRow>, firstSeqno: number, written: readonly ParsedTransaction[]): Map<string, TraceTransaction[]> {
  const held = new Map<string, TraceTransaction[]>();
  for (const trace of traces) if (trace.state === 'complete' && trace.mc_seqno_start >= firstSeqno) held.set(trace.trace_id.toString('hex'), []);
  if (held.size === 0) return held;
  for (const tx of written) {
    const list = tx.row.trace_id ? held.get(tx.row.trace_id.toString('hex')) : undefined;
    if (list) list.push(transactionOf(tx));
  }
  return held;
}
