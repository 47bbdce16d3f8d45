import type { ClientBase } from 'pg';
import type { TraceEdgeRow, TraceRow } from '../indexdb';
import type { ParsedTransaction } from './parseBlock';

/**
 * Traces as toncenter's indexer builds them: a trace is the tree of transactions caused by one
 * external message (or by a transaction with no known parent: a tick-tock, or a message sent
 * before the index began), its id the hash of the root transaction. Every internal message is an
 * edge from the transaction that sent it to the one that received it; an edge whose receiver is
 * not indexed yet stays `incomplete` in trace_edges, across shards and masterchain blocks, and the
 * trace stays `pending` until it has none left. The pending edges live only in the database, so
 * a restart (or another writer) continues exactly where the last commit left them.
 */

interface Parent {
  readonly traceId: Buffer;
  readonly leftTx: Buffer;
}

export interface AssembledTraces {
  readonly traces: TraceRow[];
  readonly edges: TraceEdgeRow[];
}

const hex = (b: Buffer) => b.toString('hex');

/** Where the pending edges of earlier blocks are kept: the index's tables, or memory (no index). */
export interface TraceEdgeSource {
  /**
   * The incomplete edges (sent, not yet received) of these message hashes, and the rows of the
   * traces they belong to, as fresh objects (assembleTraces updates them).
   */
  pending(msgHashes: readonly Buffer[]): Promise<{
    readonly edges: readonly { trace_id: Buffer; msg_hash: Buffer; left_tx: Buffer }[];
    readonly traces: readonly TraceRow[];
  }>;
}

/** The index's pending edges and traces, read inside the caller's transaction. */
/** A pending edge with its trace's columns (null when the trace row is missing). */
type EdgeWithTrace = { edge_trace_id: Buffer; edge_msg_hash: Buffer; edge_left_tx: Buffer } & Record<keyof TraceRow, unknown>;

export function databaseTraceEdges(client: ClientBase): TraceEdgeSource {
  return {
    // One round trip for both (a block's commit holds its batch's transaction open across each of
    // them, and each waits for the pipeline's busy event loop): the edges with their trace's row.
    pending: async (msgHashes) => {
      const { rows } = await client.query<EdgeWithTrace>(
        `select e.trace_id as edge_trace_id, e.msg_hash as edge_msg_hash, e.left_tx as edge_left_tx, t.*
         from trace_edges e left join traces t on t.trace_id = e.trace_id
         where e.msg_hash = any($1::bytea[]) and e.incomplete`,
        [msgHashes],
      );
      const traces = new Map<string, TraceRow>();
      for (const row of rows) {
        if (row.trace_id === null || traces.has(hex(row.trace_id as Buffer))) continue;
        traces.set(hex(row.trace_id as Buffer), {
          trace_id: row.trace_id as Buffer,
          external_hash: row.external_hash as Buffer | null,
          external_hash_norm: row.external_hash_norm as Buffer | null,
          mc_seqno_start: Number(row.mc_seqno_start),
          mc_seqno_end: Number(row.mc_seqno_end),
          start_lt: BigInt(row.start_lt as string),
          start_utime: Number(row.start_utime),
          end_lt: BigInt(row.end_lt as string),
          end_utime: Number(row.end_utime),
          state: row.state as TraceRow['state'],
          pending_edges_: BigInt(row.pending_edges_ as string),
          edges_: BigInt(row.edges_ as string),
          nodes_: BigInt(row.nodes_ as string),
        });
      }
      return {
        edges: rows.map((row) => ({ trace_id: row.edge_trace_id, msg_hash: row.edge_msg_hash, left_tx: row.edge_left_tx })),
        traces: [...traces.values()],
      };
    },
  };
}

/**
 * The pending edges and traces without the index (the streaming API's live source): in memory,
 * bounded. An edge forgotten (over `maxEdges`, oldest first) makes its receiver the root of a new
 * trace, as a message sent before the index began does.
 */
export class MemoryTraceEdges implements TraceEdgeSource {
  private readonly edges = new Map<string, { trace_id: Buffer; msg_hash: Buffer; left_tx: Buffer }>();
  private readonly pendingTraces = new Map<string, TraceRow>();

  constructor(private readonly maxEdges = 100_000) {}

  async pending(msgHashes: readonly Buffer[]) {
    const edges = msgHashes.flatMap((hash) => {
      const edge = this.edges.get(hex(hash));
      return edge ? [edge] : [];
    });
    const ids = new Set(edges.map((edge) => hex(edge.trace_id)));
    const traces = [...ids].flatMap((id) => {
      const trace = this.pendingTraces.get(id);
      return trace ? [{ ...trace }] : [];
    });
    return { edges, traces };
  }

  /** What one masterchain block's assembly returned: received edges leave, sent ones wait. */
  apply({ traces, edges }: AssembledTraces): void {
    for (const edge of edges) {
      const key = hex(edge.msg_hash);
      if (edge.incomplete && edge.left_tx) this.edges.set(key, { trace_id: edge.trace_id, msg_hash: edge.msg_hash, left_tx: edge.left_tx });
      else this.edges.delete(key);
    }
    for (const trace of traces) {
      if (trace.state === 'pending') this.pendingTraces.set(hex(trace.trace_id), { ...trace });
      else this.pendingTraces.delete(hex(trace.trace_id));
    }
    while (this.edges.size > this.maxEdges) this.edges.delete(this.edges.keys().next().value!);
    while (this.pendingTraces.size > this.maxEdges) this.pendingTraces.delete(this.pendingTraces.keys().next().value!);
  }

  clear(): void {
    this.edges.clear();
    this.pendingTraces.clear();
  }
}

/**
 * Sets `trace_id` on the transactions (and their messages) of one masterchain block, given in lt
 * order, and returns the trace and edge rows to upsert. Reads pending edges and the traces they
 * belong to from `source` (the index: inside the caller's transaction).
 */
export async function assembleTraces(source: TraceEdgeSource, transactions: readonly ParsedTransaction[], mcSeqno: number): Promise<AssembledTraces> {
  // Receivers of messages sent in an earlier block: their pending edges, one query.
  const incoming = transactions.filter((tx) => tx.inMessage?.internal).map((tx) => tx.inMessage!.row.msg_hash);
  const pending = new Map<string, Parent>();
  const traces = new Map<string, TraceRow>();
  if (incoming.length > 0) {
    const found = await source.pending(incoming);
    for (const row of found.edges) pending.set(hex(row.msg_hash), { traceId: row.trace_id, leftTx: row.left_tx });
    for (const row of found.traces) traces.set(hex(row.trace_id), row);
  }
  const sentHere = new Map<string, Parent>();
  const edges = new Map<string, TraceEdgeRow>();
  for (const tx of transactions) {
    const inMessage = tx.inMessage;
    const key = inMessage ? hex(inMessage.row.msg_hash) : '';
    const parent = inMessage?.internal ? (sentHere.get(key) ?? pending.get(key)) : undefined;
    let trace: TraceRow | undefined;
    if (parent) {
      trace = traces.get(hex(parent.traceId));
      const edgeKey = `${hex(parent.traceId)}:${key}`;
      edges.set(edgeKey, { trace_id: parent.traceId, msg_hash: inMessage!.row.msg_hash, left_tx: parent.leftTx, right_tx: tx.row.hash, incomplete: false, broken: false });
      sentHere.delete(key);
      pending.delete(key);
      if (trace) trace.pending_edges_ -= 1n;
    }
    if (!trace) {
      // A root: an external message, no message (tick-tock), or a parent the index never saw.
      const external = inMessage && !inMessage.internal ? inMessage.row : null;
      trace = {
        trace_id: parent ? parent.traceId : tx.row.hash,
        external_hash: external ? external.msg_hash : null,
        external_hash_norm: external ? external.msg_hash_norm : null,
        mc_seqno_start: mcSeqno,
        mc_seqno_end: mcSeqno,
        start_lt: tx.row.lt,
        start_utime: tx.row.now,
        end_lt: tx.row.lt,
        end_utime: tx.row.now,
        state: 'complete',
        pending_edges_: 0n,
        edges_: 0n,
        nodes_: 0n,
      };
      traces.set(hex(trace.trace_id), trace);
    }
    trace.nodes_ += 1n;
    if (tx.row.lt > trace.end_lt) trace.end_lt = tx.row.lt;
    if (tx.row.now > trace.end_utime) trace.end_utime = tx.row.now;
    trace.mc_seqno_end = mcSeqno;
    tx.row.trace_id = trace.trace_id;
    if (inMessage) inMessage.row.trace_id = trace.trace_id;
    for (const out of tx.outMessages) {
      out.row.trace_id = trace.trace_id;
      if (!out.internal) continue;
      const msgKey = hex(out.row.msg_hash);
      sentHere.set(msgKey, { traceId: trace.trace_id, leftTx: tx.row.hash });
      edges.set(`${hex(trace.trace_id)}:${msgKey}`, { trace_id: trace.trace_id, msg_hash: out.row.msg_hash, left_tx: tx.row.hash, right_tx: null, incomplete: true, broken: false });
      trace.edges_ += 1n;
      trace.pending_edges_ += 1n;
    }
  }
  for (const trace of traces.values()) trace.state = trace.pending_edges_ === 0n ? 'complete' : 'pending';
  return { traces: [...traces.values()], edges: [...edges.values()] };
}
