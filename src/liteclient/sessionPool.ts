import type { LiteServerProofError } from '../errors';
import type { BlockIdExt } from '../tl';
import type { LiteTransportError } from './connection';
import type { LiteSessionOptions, TrackedHead } from './gateway';
import type { HeadTracker } from './headTracker';
import type { HeadVerifier } from './headVerifier';
import type { PoolMember } from './serverRoster';

/**
 * What a request's session (poolSession.ts) and the broadcast (fanout.ts) need of the pool: the
 * pool (pool.ts) implements it and builds both, so they depend on this interface, not on the pool.
 */
export interface SessionPool {
  /** Whether sessions run the proof checks of answers (off with `--trust-liteservers`). */
  readonly checksProofs: boolean;
  /** Whether masterchain blocks are proven (off with `--trust-liteservers`). */
  readonly verifier: HeadVerifier | undefined;
  readonly heads: HeadTracker;
  readonly queryTimeoutMs: number;
  /** A usable server by the pool's rotation rules, not one of `exclude`. */
  pick(options: LiteSessionOptions, exclude?: ReadonlySet<number>): PoolMember | undefined;
  hasArchival(): boolean;
  hasHealthy(): boolean;
  noHealthyText(options?: LiteSessionOptions): string;
  trackedHeadOf(index: number): TrackedHead | undefined;
  knownMasterchainBlock(seqno: number): BlockIdExt | undefined;
  reportFailure(member: PoolMember, error: LiteTransportError): void;
  reportProofFailure(member: PoolMember, error: LiteServerProofError): void;
  /** 'health' fires when a server's health changes (a session waiting for a usable server listens). */
  on(event: 'health', listener: () => void): unknown;
  once(event: 'health', listener: () => void): unknown;
  off(event: 'health', listener: () => void): unknown;
}
