import { LITE_ERROR } from '../constants';
import { EventEmitter } from 'node:events';
import type { LiteEngine } from 'ton-lite-client';
import type { TLFunction } from 'ton-tl';
import type { AnswerCheck, BlockRef } from '../proofs';
import { LiteServerError, LiteServerProofError, LiteServerTimeoutError, NoHealthyLiteServerError } from '../errors';
import { liteClientFunction, type LiteAnswerMap, type LiteQueryKind, type LiteQueryOf, type MasterchainInfo } from '../tl';
import { LiteTransportError } from './connection';
import type { SessionPool } from './sessionPool';
import type { PoolMember } from './serverRoster';
import type { LiteSession, LiteSessionOptions } from './gateway';

const MASTERCHAIN_INFO = liteClientFunction('liteServer.getMasterchainInfo');
const GET_BLOCK_PROOF = liteClientFunction('liteServer.getBlockProof');

/**
 * One HTTP request's view of the pool: sticky to the first server it picks, bounded by the
 * request deadline. The server reads through `liteQuery` (src/tl codecs); the session also keeps
 * ton-lite-client's `LiteEngine` shape, so tests and benchmarks can drive it with an unmodified
 * `LiteClient` as a reference client (the server itself never builds one).
 */
export class PoolSession extends EventEmitter implements LiteSession, LiteEngine {
  private member: PoolMember | undefined;
  private readonly used: number[] = [];
  /** The masterchain head this request reads "latest" at, fixed on first use. */
  private resolvedHead: Promise<MasterchainInfo> | undefined;
  private readonly lookedUp = new Map<number, BlockRef>();

  constructor(
    private readonly pool: SessionPool,
    private readonly options: LiteSessionOptions,
    private readonly deadline: number,
  ) {
    super();
  }

  get usedServers(): readonly number[] {
    return this.used;
  }

  get checksAnswers(): boolean {
    return this.pool.checksProofs;
  }

  distrust(error: LiteServerProofError): boolean {
    const member = this.member;
    if (!member) return false;
    this.pool.reportProofFailure(member, error);
    this.member = undefined;
    return this.remaining() > 0 && this.pool.pick({ archival: this.options.archival }) !== undefined;
  }

  isClosed(): boolean {
    return false;
  }

  isReady(): boolean {
    return true;
  }

  close(): void {}

  private remaining(): number {
    return this.deadline - Date.now();
  }

  private async choose(exclude: ReadonlySet<number>, archival = this.options.archival): Promise<PoolMember> {
    // Waiting for a server the configuration does not have would only hold the request.
    if (archival === true && !this.pool.hasArchival()) throw new NoHealthyLiteServerError('no archival lite server is configured');
    for (;;) {
      const member = this.pool.pick({ archival }, exclude);
      if (member) {
        if (!this.used.includes(member.index)) this.used.push(member.index);
        return member;
      }
      // Nothing healthy right now: wait for a probe to bring a server back, up to the deadline.
      if (this.remaining() <= 0) throw this.expiryError();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.min(this.remaining(), 250));
        const pool = this.pool;
        function done() {
          clearTimeout(timer);
          pool.off('health', done);
          resolve();
        }
        pool.once('health', done);
      });
      if (this.remaining() <= 0) throw this.expiryError();
    }
  }

  async query<REQ, RES>(f: TLFunction<REQ, RES>, req: REQ, args?: { timeout?: number; awaitSeqno?: number }): Promise<RES> {
    const tried = new Set<number>();
    let rerouted = false;
    for (let attempt = 0; ; attempt++) {
      if (this.remaining() <= 0) throw new LiteServerTimeoutError();
      this.member ??= await this.choose(tried);
      const member = this.member;
      // An attempt gets its own timeout so that a mute server leaves time for the retry.
      const timeout = Math.max(1, Math.min(args?.timeout ?? this.pool.queryTimeoutMs, this.remaining()));
      try {
        return await member.engine.query(f, req, { ...args, timeout });
      } catch (err) {
        tried.add(member.index);
        if (err instanceof LiteServerError) {
          // An old block a non-archival server no longer has may still be on an archival one.
          if (err.liteCode === LITE_ERROR.notReady && !rerouted && !member.server.archival && this.options.archival === undefined) {
            rerouted = true;
            const archivalMember = this.pool.pick({ archival: true }, tried);
            if (archivalMember) {
              this.member = archivalMember;
              if (!this.used.includes(archivalMember.index)) this.used.push(archivalMember.index);
              continue;
            }
          }
          throw err;
        }
        if (!(err instanceof LiteTransportError)) throw err;
        this.pool.reportFailure(member, err);
        this.member = undefined;
        // One retry on another server, inside the deadline; a second failure ends the request.
        if (attempt >= 1 || this.remaining() <= 0) {
          if (this.remaining() <= 0 || err.timedOut) throw new LiteServerTimeoutError();
          throw new NoHealthyLiteServerError(`lite server failed: ${err.message}`);
        }
      }
    }
  }

  /**
   * One lite function through this session (sticky server, deadline, one transport retry). An
   * answer failing `check` takes its server out of rotation and is asked once of another server.
   */
  async liteQuery<K extends LiteQueryKind>(query: LiteQueryOf<K>, check?: AnswerCheck<K>): Promise<LiteAnswerMap[K]> {
    for (let attempt = 0; ; attempt++) {
      const answer = await this.query(liteClientFunction(query.kind as K), query);
      const member = this.member;
      if (check && member && this.pool.checksProofs) {
        try {
          await check(answer);
        } catch (err) {
          if (!(err instanceof LiteServerProofError)) throw err;
          this.pool.reportProofFailure(member, err);
          this.member = undefined;
          // One retry, and only on a server that is there now: waiting for one would turn the
          // proof failure into a timeout.
          if (attempt >= 1 || this.remaining() <= 0 || !this.pool.pick({ archival: this.options.archival })) throw err;
          continue;
        }
      }
      if (query.kind === 'liteServer.sendMessage') await this.refreshHead();
      return answer;
    }
  }

  /**
   * After an accepted message: the server may have sealed a block with it already (the local chain
   * does before answering), so its head is re-read now; the client's next read sees its own send
   * instead of waiting for the tracker's poll.
   */
  private async refreshHead(): Promise<void> {
    try {
      const info = await this.query(MASTERCHAIN_INFO, { kind: 'liteServer.getMasterchainInfo' });
      if (this.member) {
        this.pool.heads.observe(this.member.index, info);
        await this.pool.heads.settled(this.member.index);
      }
    } catch {
      // The message was accepted; a failed refresh only leaves the head to the tracker.
    }
  }

  /**
   * The request's head: the newest block the tracker has seen on this session's server, without
   * a round trip; asked of the server only when the tracker knows nothing of it yet.
   */
  head(): Promise<MasterchainInfo> {
    this.resolvedHead ??= (async () => {
      this.member ??= await this.choose(new Set());
      const tracked = this.pool.trackedHeadOf(this.member.index);
      if (tracked) return tracked.info;
      const info = await this.liteQuery({ kind: 'liteServer.getMasterchainInfo' });
      if (!this.member) return info;
      const index = this.member.index;
      this.pool.heads.observe(index, info);
      if (!this.pool.verifier) return info;
      // A head is used only once proven (without a verifier, observe took it as it is).
      await this.pool.heads.settled(index);
      const proven = this.pool.heads.headOf(index);
      if (!proven) throw new LiteServerProofError(this.pool.heads.proofFailure(index) ?? 'the server head is not proven');
      return proven;
    })();
    return this.resolvedHead;
  }

  /**
   * Proves a masterchain block this request looked up (src/chain/blockRefs.ts) before any read
   * uses it: known to the verifier, or a getBlockProof from the request's proven head (backward)
   * or from the newest proven key block (a block newer than the head). A proof that fails takes
   * the server out of rotation; the caller asks again once, on another server.
   */
  async proveMasterchainBlock(block: BlockRef): Promise<BlockRef> {
    const verifier = this.pool.verifier;
    if (!verifier) return block;
    const head = (await this.head()).last;
    const prove = async (target: BlockRef) => {
      try {
        await verifier.prove((query) => this.query(GET_BLOCK_PROOF, query), target.seqno < head.seqno ? head : verifier.keyBlock, target);
      } catch (err) {
        // The server named the block itself: not proving it is as bad as a wrong proof.
        if (err instanceof LiteServerError) throw new LiteServerProofError(`cannot prove masterchain block ${target.seqno}: ${err.liteMessage}`);
        throw err;
      }
    };
    const member = this.member;
    try {
      await prove(block);
      return block;
    } catch (err) {
      if (!(err instanceof LiteServerProofError) || !member) throw err;
      this.pool.reportProofFailure(member, err);
      if (this.member === member) this.member = undefined;
      // One retry, and only on a server that is there now (waiting would turn this into a timeout).
      if (this.remaining() <= 0 || !this.pool.pick({ archival: this.options.archival })) throw err;
    }
    const { id } = await this.liteQuery({
      kind: 'liteServer.lookupBlock',
      mode: 1,
      id: { kind: 'tonNode.blockId', workchain: block.workchain, shard: block.shard, seqno: block.seqno },
      lt: null,
      utime: null,
    });
    const second = this.member;
    try {
      if (id.seqno !== block.seqno || id.workchain !== block.workchain) throw new LiteServerProofError('lookupBlock answered another block');
      await prove(id);
      return id;
    } catch (err) {
      if (err instanceof LiteServerProofError && second) this.pool.reportProofFailure(second, err);
      throw err;
    }
  }

  knownMasterchainBlock(seqno: number): BlockRef | undefined {
    return this.lookedUp.get(seqno) ?? this.pool.knownMasterchainBlock(seqno);
  }

  noteMasterchainBlock(block: BlockRef): void {
    this.lookedUp.set(block.seqno, block);
  }

  /**
   * At the deadline: 503 if no server was ever available to this request, else 504 (a server
   * took the request and did not answer in time, even if none is healthy now).
   */
  private expiryError(): Error {
    if (this.used.length === 0) return new NoHealthyLiteServerError(this.pool.noHealthyText(this.options));
    return new LiteServerTimeoutError();
  }
}
