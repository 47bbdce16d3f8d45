import { createHash } from 'node:crypto';
import type { Cell } from '@ton/core';
import { decodeAuthenticatedBoc } from '../cells';
import type { Logger } from 'pino';
import { sameBlock, tlBlockId, type BlockRef } from '../proofs';
import { ApiError, LiteServerError, LiteServerProofError } from '../errors';
import type { LitePool } from '../liteclient';
import type { BlockData } from '../tl';
import { indexMetrics } from '../metrics';
import { blockWorkTurns } from './turns';

/** Longest one getBlock attempt may take (a full block of a busy shard is megabytes). */
const ATTEMPT_MS = 15_000;
/** Pause between rounds of attempts while a block cannot be had (not yet there, no server), ms. */
const RETRY_MS = 500;

function blockName(id: BlockRef): string {
  return `(${id.workchain},${BigInt.asUintN(64, BigInt(id.shard)).toString(16)},${id.seqno})`;
}

/**
 * The root cell of `answer` if it is block `id` exactly: the id answered is the one asked and the
 * file hash is the SHA-256 of the BoC. Else LiteServerProofError: the server lied (or sent
 * garbage), and the pool distrusts it.
 *
 * The file hash authenticates every byte: the id comes from a verified masterchain block (its
 * shard descriptors, its prev links), whose validators signed both hashes of the very bytes they
 * checked, and SHA-256 admits no other bytes. So the root hash is not recomputed here: that would
 * hash every cell of the block, most of which (the state update's old side, the message and
 * account dictionaries) the index never reads, and it was ~40 % of decoding a block. The cells
 * hash themselves when asked (decodeAuthenticatedBoc): transactions, messages, changed accounts.
 */
export function verifiedBlockRoot(id: BlockRef, answer: BlockData): Cell {
  if (!sameBlock(answer.id, id)) throw new LiteServerProofError(`getBlock ${blockName(id)}: the answer is about another block`);
  const fileHash = createHash('sha256').update(answer.data).digest();
  if (!fileHash.equals(id.fileHash)) throw new LiteServerProofError(`getBlock ${blockName(id)}: the BoC's SHA-256 is not the block's file hash`);
  let roots: Cell[];
  try {
    roots = decodeAuthenticatedBoc(answer.data);
  } catch (err) {
    throw new LiteServerProofError(`getBlock ${blockName(id)}: the BoC does not decode (${(err as Error).message})`);
  }
  if (roots.length !== 1) throw new LiteServerProofError(`getBlock ${blockName(id)}: the BoC has ${roots.length} roots`);
  return roots[0]!;
}

/**
 * Blocks by id through the pool, each checked (verifiedBlockRoot) against an id that links to a
 * verified masterchain block (the caller's business). A server whose block fails the check is
 * reported as for any proof failure (out of rotation) and the block is asked of another server;
 * the fetch keeps trying until it has the block or `stopped()` says to give up.
 */
export class BlockFetcher {
  constructor(
    private readonly pool: LitePool,
    private readonly logger: Logger,
    private readonly stopped: () => boolean,
    /** The pool's choice of servers (the backfill asks archival ones when there are any). */
    private readonly archival?: boolean,
  ) {}

  async fetch(id: BlockRef): Promise<Cell> {
    for (let round = 0; ; round++) {
      if (this.stopped()) throw new FetchStoppedError();
      let root: Cell | undefined;
      const session = this.pool.openSession(this.archival === undefined ? {} : { archival: this.archival }, Date.now() + ATTEMPT_MS);
      try {
        const answer = await session.liteQuery({ kind: 'liteServer.getBlock', id: tlBlockId(id) }, async (sent) => {
          // The decode (every cell hashed) is long: on a turn of its own, not chained to the others' (turns.ts).
          await blockWorkTurns.next();
          try {
            root = verifiedBlockRoot(id, sent);
          } catch (err) {
            if (err instanceof LiteServerProofError) {
              indexMetrics.refusedBlocks.inc();
              this.logger.warn({ block: blockName(id), servers: session.usedServers, reason: err.detail }, 'block refused: fetching it from another server');
            }
            throw err;
          }
        });
        // With --trust-liteservers the session skips checks; the index checks its blocks anyway.
        if (root) return root;
        await blockWorkTurns.next();
        return verifiedBlockRoot(id, answer);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        if (err instanceof LiteServerProofError && !this.pool.checksProofs) {
          indexMetrics.refusedBlocks.inc();
          this.logger.warn({ block: blockName(id), reason: err.detail }, 'block refused');
        }
        if (round % 20 === 19) this.logger.warn({ block: blockName(id), err: err.message }, 'block still not fetched; retrying');
        // 651 (not yet / no longer there) and the rest: wait and ask again.
        if (err instanceof LiteServerError && err.liteCode === 651 && round >= 40) throw new BlockUnavailableError(id, err.liteMessage);
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS).unref());
      }
    }
  }
}

export class FetchStoppedError extends Error {
  constructor() {
    super('the indexer is stopping');
    this.name = 'FetchStoppedError';
  }
}

/** Every server says it does not have the block (below a non-archival server's window). */
export class BlockUnavailableError extends Error {
  constructor(
    readonly id: BlockRef,
    detail: string,
  ) {
    super(`block ${blockName(id)} is not available from the lite servers: ${detail}`);
    this.name = 'BlockUnavailableError';
  }
}
