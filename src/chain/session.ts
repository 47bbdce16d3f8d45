import type { LiteAnswerMap, LiteQueryKind, LiteQueryOf, MasterchainInfo } from '../tl';

/**
 * What a chain read needs of a request: one lite-server conversation and the request's head.
 * Every read in src/chain takes one; the pool's request session implements it.
 */
export interface ChainSession {
  /** Sends one lite function (src/tl codecs) to this request's lite server within its deadline. */
  liteQuery<K extends LiteQueryKind>(query: LiteQueryOf<K>): Promise<LiteAnswerMap[K]>;
  /**
   * The masterchain head this request reads "latest" at: resolved once (from the head tracker,
   * without a round trip when it knows the server's newest block) and kept for every later query.
   */
  head(): Promise<MasterchainInfo>;
  /** A masterchain block already known by seqno (from the head tracker or this request), if any. */
  knownMasterchainBlock?(seqno: number): McBlock | undefined;
  /** Remembers a masterchain block this request looked up, for its later reads. */
  noteMasterchainBlock?(block: McBlock): void;
}

/** Anything with a block's five identifying fields (a TL BlockIdExt and the like). */
export interface BlockRef {
  readonly workchain: number;
  readonly shard: string;
  readonly seqno: number;
  readonly rootHash: Buffer;
  readonly fileHash: Buffer;
}

/** A masterchain block a read is made at. */
export type McBlock = BlockRef;
