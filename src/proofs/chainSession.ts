import type { LiteServerProofError } from '../errors';
import type { LiteAnswerMap, LiteQueryKind, LiteQueryOf, MasterchainInfo } from '../tl';

/**
 * What a chain read needs of a request: one lite-server conversation and the request's head.
 * Every read in src/chain takes one; the pool's request session implements it.
 */
export interface ChainSession {
  /**
   * Sends one lite function (src/tl codecs) to this request's lite server within its deadline.
   * `check` proves the answer against blocks already verified (src/chain/proofs); it throws
   * LiteServerProofError on a lie, and the session then distrusts the server and asks another
   * once. With `--trust-liteservers` the session skips it.
   */
  liteQuery<K extends LiteQueryKind>(query: LiteQueryOf<K>, check?: AnswerCheck<K>): Promise<LiteAnswerMap[K]>;
  /** false with `--trust-liteservers`: reads skip the queries they make only to prove something. */
  readonly checksAnswers?: boolean;
  /**
   * For a lie found across several answers (not by one answer's `check`): takes this request's
   * server out as a failed check does and unsticks the session. True when another server is
   * there to read again from.
   */
  distrust?(error: LiteServerProofError): boolean;
  /**
   * The masterchain head this request reads "latest" at: resolved once (from the head tracker,
   * without a round trip when it knows the server's newest block) and kept for every later query.
   */
  head(): Promise<MasterchainInfo>;
  /** A masterchain block already known by seqno (from the head tracker or this request), if any. */
  knownMasterchainBlock?(seqno: number): McBlock | undefined;
  /**
   * Proves a masterchain block the session's lite server named (a lookup by seqno) from the
   * verified chain and returns it; when that server lied, the block as another server names it,
   * proven too (one retry), else LiteServerProofError. Returns it as is with `--trust-liteservers`.
   */
  proveMasterchainBlock?(block: McBlock): Promise<McBlock>;
  /** Remembers a masterchain block this request looked up, for its later reads. */
  noteMasterchainBlock?(block: McBlock): void;
}

/**
 * Proves one answer of a lite function; throws (or rejects with) LiteServerProofError when it does
 * not hold. What it returns is ignored, awaited when a promise: the index's block checks wait for a
 * turn of the event loop of their own (src/indexer/blockFetcher.ts).
 */
export type AnswerCheck<K extends LiteQueryKind> = (answer: LiteAnswerMap[K]) => unknown;

/** Anything with a block's five identifying fields (a TL BlockIdExt and the like). */
export interface BlockRef {
  readonly workchain: number;
  readonly shard: string;
  readonly seqno: number;
  readonly rootHash: Buffer;
  readonly fileHash: Buffer;
}

/**
 * A masterchain block a read is made at. Verified: every McBlock handed to a src/chain read is
 * proven from the trust anchor (the request's head by the head tracker's forward proof chain, an
 * older block by a backward proof or membership in the chain already walked; see
 * src/liteclient/headVerifier.ts), unless the server runs with `--trust-liteservers`. Reads check
 * their answers against it and need not prove the block itself.
 */
export type McBlock = BlockRef;
