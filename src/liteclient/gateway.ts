import type { ChainSession, McBlock } from '../proofs';
import type { MasterchainInfo } from '../tl';
import type { LiteServerEndpoint } from './connection';
import type { ServerState } from './health';

// The pool's public types, in a leaf module: the pool's parts and the HTTP layer import them,
// and this module imports no part of the pool.

/**
 * What a handler sees of the lite-server pool: one session per HTTP request, sticky to one lite
 * server so that every query of the request sees the same chain view. The pool implements it.
 */
export interface LiteSessionOptions {
  /** true: archival servers only; false: non-archival only; undefined: any (toncenter's C++ rule). */
  archival?: boolean;
}

/**
 * Every query (`liteQuery`) goes to this request's lite server within the request's deadline;
 * transport failures are retried once on another server, `liteServer.error` answers are not.
 */
export interface LiteSession extends ChainSession {
  /** Indices of the lite servers this session has used, for `@extra`. */
  readonly usedServers: readonly number[];
}

/** A head known without a round trip: a server a session could choose now and that server's newest block. */
export interface TrackedHead {
  readonly server: number;
  readonly info: MasterchainInfo;
}

/** The pool as the HTTP layer needs it. */
export interface LiteGateway {
  openSession(options: LiteSessionOptions, deadline: number): LiteSession;
  /**
   * The head a session opened now would resolve without waiting or asking (a server picked as a
   * session picks one, and the head tracker's block of it); undefined when it would have to.
   */
  trackedHead?(options: LiteSessionOptions): TrackedHead | undefined;
  /** A masterchain block known by seqno without a round trip (recent heads; proven ones when verifying). */
  knownMasterchainBlock?(seqno: number): McBlock | undefined;
  /** Highest masterchain seqno that healthy servers agree on (getConsensusBlock). */
  consensusSeqno(): number | undefined;
  /**
   * Sends an external message to up to `fanout` healthy servers at once; resolves only when one
   * accepted it (src/liteclient/fanout.ts).
   */
  broadcastMessage(boc: Buffer, fanout: number, deadline: number): Promise<BroadcastOutcome>;
  /** A JSON-safe picture of every server's state for the health route. */
  status(): readonly ServerStatus[];
  /** Re-reads every server's head now instead of waiting for the head tracker (local-chain controls). */
  refreshHeads?(deadline: number): Promise<void>;
  /** The embedded chain went back to masterchain block `seqno` (a restored snapshot): forget what was proven above it. */
  chainRewound?(seqno: number): void;
}

export interface PooledServer extends LiteServerEndpoint {
  /** Keeps every block (answers old seqnos); toncenter routes `archival=true` only to these. */
  readonly archival: boolean;
  /** Relative share of the requests among healthy servers. */
  readonly weight: number;
}

export interface ServerStatus {
  index: number;
  host: string;
  port: number;
  archival: boolean;
  weight: number;
  state: ServerState;
  connected: boolean;
  seqno: number | null;
  lag: number | null;
  latencyMs: number | null;
  lastError: string | null;
  /** Why it is out of rotation, in plain words (`connection refused`, `lagging 12 blocks behind`); null when up. */
  reason: string | null;
}

/** What broadcastMessage reports (src/liteclient/fanout.ts). */
export interface BroadcastOutcome {
  /** Index of the first server that accepted. */
  readonly acceptedBy: number;
  /** Every server the message went to, in the order it was sent. */
  readonly sentTo: readonly number[];
}
