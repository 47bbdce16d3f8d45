import type { ClientBase } from 'pg';
import {
  insertMcBlockRows,
  insertTokenEvents,
  insertTokenStates,
  type CheckpointMove,
  type McBlockRows,
  type TokenEventRows,
  type TraceRow,
  type WrittenRows,
} from '../indexdb';
import { messageRowsOf, transactionsInOrder, type PreparedMcBlock } from './mcBlockSource';
import type { ParsedTransaction } from './parseBlock';
import { assembleTraces, databaseTraceEdges } from './traces';
import { tokenEvents } from './tokenEvents';

/** What writing one masterchain block put in the index. */
export interface WrittenBlock {
  readonly rows: McBlockRows;
  readonly counts: WrittenRows;
  readonly events: TokenEventRows;
  readonly traces: readonly TraceRow[];
  /** The block's transactions as written (their trace ids set), in lt order. */
  readonly transactions: readonly ParsedTransaction[];
}

/**
 * Writes masterchain block `block`'s rows inside the caller's transaction: its blocks,
 * transactions, messages, states, traces (pending edges of earlier blocks are read here), then the
 * token contracts' states and the block's transfers and burns, never apart from the block. With
 * `move`, the checkpoint moves in the rows' very statement (the live lane); without, the caller
 * moves its own mark (the backfill).
 */
export async function writeMcBlock(client: ClientBase, block: PreparedMcBlock, move?: CheckpointMove): Promise<WrittenBlock> {
  const transactions = transactionsInOrder(block);
  const { messages, messageContents } = messageRowsOf(transactions);
  const { traces, edges } = await assembleTraces(databaseTraceEdges(client), transactions, block.seqno);
  const rows: McBlockRows = {
    blocks: [block.mc.row, ...block.shardBlocks.map((b) => b.row)],
    shardState: block.mc.shardTops.map((top) => ({ mc_seqno: block.seqno, workchain: top.workchain, shard: BigInt(top.shard), seqno: top.seqno })),
    transactions: transactions.map((tx) => tx.row),
    messages,
    messageContents,
    accountStates: block.accounts,
    latestAccountStates: block.accounts,
    traces,
    traceEdges: edges,
  };
  const counts = await insertMcBlockRows(client, rows, move);
  await insertTokenStates(client, block.tokens.states);
  const events = tokenEvents(transactions, block.tokens, block.seqno);
  await insertTokenEvents(client, events);
  return { rows, counts, events, traces, transactions };
}
