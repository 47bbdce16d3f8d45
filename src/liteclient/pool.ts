import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import type { LiteEngine } from 'ton-lite-client';
import type { TLFunction } from 'ton-tl';
import type { AnswerCheck, BlockRef } from '../chain/session';
import { LiteServerError, LiteServerProofError, LiteServerTimeoutError, NoHealthyLiteServerError } from '../errors';
import { liteClientFunction, type LiteAnswerMap, type LiteQueryKind, type LiteQueryOf, type MasterchainInfo } from '../tl';
import { LiteTransportError, type LiteServerEndpoint } from './connection';
import { DEFAULT_ENGINE_OPTIONS, ServerEngine, type ServerEngineOptions } from './engine';
import { broadcastToServers, type BroadcastOutcome } from './fanout';
import { plainReason, unhealthyReason, type ServerState } from './health';
import { DEFAULT_HEAD_TRACKER_OPTIONS, HeadTracker, type HeadTrackerOptions } from './headTracker';
import type { HeadVerifier } from './headVerifier';
import type { LiteGateway, LiteSession, LiteSessionOptions } from './session';

export interface PooledServer extends LiteServerEndpoint {
  /** Keeps every block (answers old seqnos); toncenter routes `archival=true` only to these. */
  readonly archival: boolean;
  /** Relative share of the requests among healthy servers. */
  readonly weight: number;
}

export interface PoolOptions {
  /** Health probe period. */
  healthIntervalMs: number;
  /** Timeout of one health probe. */
  healthTimeoutMs: number;
  /** A server whose last masterchain seqno is more than this behind the best is taken out. */
  maxLagBlocks: number;
  engine: ServerEngineOptions;
  heads?: HeadTrackerOptions;
  /**
   * Proves every masterchain block the pool uses from the trust anchor (headVerifier.ts); absent
   * with `--trust-liteservers` (and in unit tests of scripted servers, which cannot prove).
   */
  verifier?: HeadVerifier;
  /** false (`--trust-liteservers`): answers are used without their proof checks. Default true. */
  checkProofs?: boolean;
  /** How long a server whose answer failed a proof check stays out of rotation. Default 60 000. */
  distrustMs?: number;
}

const DEFAULT_DISTRUST_MS = 60_000;

export const DEFAULT_POOL_OPTIONS: PoolOptions = {
  healthIntervalMs: 1000,
  healthTimeoutMs: 2000,
  maxLagBlocks: 3,
  engine: DEFAULT_ENGINE_OPTIONS,
};

interface ServerHealth {
  state: ServerState;
  seqno: number | undefined;
  latencyMs: number | undefined;
  lastError: string | undefined;
  checkedAt: number | undefined;
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

/** Emitted as 'probe' after every health probe (metrics). */
export interface ProbeEvent {
  server: number;
  ok: boolean;
  latencyMs: number;
}

class PoolMember {
  health: ServerHealth = { state: 'starting', seqno: undefined, latencyMs: undefined, lastError: undefined, checkedAt: undefined };
  probing = false;
  /** Whether its head is trusted (proven, when the pool verifies); set by the pool. */
  headTrusted: () => boolean = () => true;
  /** Until when (ms epoch) the server is out of rotation for a failed proof check, and why. */
  distrustedUntil = 0;
  distrustReason: string | undefined;

  constructor(
    readonly index: number,
    readonly server: PooledServer,
    readonly engine: ServerEngine,
  ) {}

  get healthy(): boolean {
    return this.health.state === 'up' && this.engine.isReady() && this.headTrusted() && !this.distrusted;
  }

  get distrusted(): boolean {
    return this.distrustedUntil > Date.now();
  }
}

/**
 * The lite-server pool every handler uses (through `ctx.lite()`): one engine per server, health
 * probes, weighted selection among healthy servers, request sessions sticky to one server, a
 * deadline per request, one retry elsewhere for transport failures and none for lite-server
 * errors.
 */
export class LitePool extends EventEmitter implements LiteGateway {
  private readonly members: PoolMember[];
  /** Each server's newest masterchain block (headTracker.ts); "latest" reads take their head from it. */
  readonly heads: HeadTracker;
  private healthTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    servers: readonly PooledServer[],
    private readonly logger: Logger,
    private readonly options: PoolOptions = DEFAULT_POOL_OPTIONS,
  ) {
    super();
    this.setMaxListeners(0);
    if (servers.length === 0) throw new Error('the lite-server pool needs at least one server');
    this.members = servers.map((server, index) => new PoolMember(index, server, new ServerEngine(server, options.engine)));
    this.heads = new HeadTracker(this.members, options.heads ?? DEFAULT_HEAD_TRACKER_OPTIONS, options.verifier ?? null, options.engine.queryTimeoutMs);
    for (const member of this.members) member.headTrusted = () => this.heads.trusted(member.index);
    // A head is the server's once proven (at once without a verifier): lag and health follow it.
    this.heads.on('head', (index: number, info: MasterchainInfo) => {
      const member = this.members[index];
      if (!member) return;
      member.health.seqno = info.last.seqno;
      this.updateLag();
      this.emit('health');
    });
    this.heads.on('proof', (index: number, reason: string | null) => {
      const member = this.members[index];
      if (!member) return;
      const { host, port } = member.server;
      if (reason) this.logger.warn({ server: index, host, port, reason }, 'lite server head not verified: not used');
      else this.logger.info({ server: index, host, port }, 'lite server head verified again');
      this.emit('health');
    });
  }

  /** Whether masterchain blocks are proven (off with `--trust-liteservers`). */
  get verifier(): HeadVerifier | undefined {
    return this.options.verifier;
  }

  /** Starts health probing; resolves after the first round of probes. */
  async start(): Promise<void> {
    await this.probeAll();
    this.heads.start();
    this.healthTimer = setInterval(() => void this.probeAll(), this.options.healthIntervalMs);
    this.healthTimer.unref();
  }

  /** Resolves when at least one server is healthy, or rejects after `timeoutMs`. */
  async waitHealthy(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.members.some((member) => member.healthy)) {
      if (Date.now() >= deadline) throw new NoHealthyLiteServerError(this.noHealthyText());
      await this.nextHealthChange(deadline - Date.now());
    }
  }

  private nextHealthChange(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, Math.max(0, timeoutMs));
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.once('health', done);
    });
  }

  private async probeAll(): Promise<void> {
    await Promise.all(this.members.map((member) => this.probe(member)));
    this.updateLag();
  }

  private async probe(member: PoolMember): Promise<void> {
    if (member.probing || this.closed) return;
    member.probing = true;
    const started = performance.now();
    try {
      const info = await member.engine.query(
        MASTERCHAIN_INFO,
        { kind: 'liteServer.getMasterchainInfo' },
        { timeout: this.options.healthTimeoutMs },
      );
      this.heads.observe(member.index, info);
      // Without a verifier the head is taken at once; with one, when proven (the 'head' event).
      member.health.seqno = this.heads.headOf(member.index)?.last.seqno;
      member.health.latencyMs = performance.now() - started;
      member.health.lastError = undefined;
      member.health.checkedAt = Date.now();
      this.emit('probe', { server: member.index, ok: true, latencyMs: member.health.latencyMs } satisfies ProbeEvent);
      // Lag is decided once every probe of the round is in (updateLag).
      if ((member.health.state === 'starting' || member.health.state === 'down') && !member.distrusted) this.setState(member, 'up');
    } catch (err) {
      member.health.lastError = err instanceof Error ? err.message : String(err);
      member.health.checkedAt = Date.now();
      this.emit('probe', { server: member.index, ok: false, latencyMs: performance.now() - started } satisfies ProbeEvent);
      this.setState(member, 'down');
    } finally {
      member.probing = false;
    }
  }

  private updateLag(): void {
    const best = this.bestSeqno();
    if (best === undefined) return;
    for (const member of this.members) {
      if (member.health.state === 'down' || member.health.state === 'starting' || member.health.seqno === undefined) continue;
      if (member.distrusted) continue;
      const lag = best - member.health.seqno;
      this.setState(member, lag > this.options.maxLagBlocks ? 'lagging' : 'up');
    }
  }

  private bestSeqno(): number | undefined {
    let best: number | undefined;
    for (const member of this.members) {
      if (member.health.state === 'down' || member.health.seqno === undefined) continue;
      if (best === undefined || member.health.seqno > best) best = member.health.seqno;
    }
    return best;
  }

  private setState(member: PoolMember, state: ServerState): void {
    if (member.health.state === state) return;
    const previous = member.health.state;
    member.health.state = state;
    const { host, port } = member.server;
    const details = {
      server: member.index,
      host,
      port,
      from: previous,
      to: state,
      seqno: member.health.seqno,
      error: member.health.lastError,
      reason: this.reasonOf(member),
    };
    if (state === 'up') this.logger.info(details, 'lite server is up');
    else this.logger.warn(details, `lite server is ${state}`);
    this.emit('health');
  }

  /** A server failed a real query: take it out now rather than at the next probe. */
  private markFailed(member: PoolMember, reason: string): void {
    member.health.lastError = reason;
    this.setState(member, 'down');
  }

  /**
   * Weighted random pick among healthy servers that match the archival filter. `archival=true`
   * takes archival servers only; `archival=false` means "need not be archival": non-archival
   * servers are preferred and any server is used when none is healthy (toncenter's Python
   * server's rule), so the request never waits for a kind of server the pool may not have.
   */
  pick(options: LiteSessionOptions, exclude: ReadonlySet<number> = new Set()): PoolMember | undefined {
    const usable = this.members.filter((member) => member.healthy && !exclude.has(member.index) && member.server.weight > 0);
    let candidates = options.archival === undefined ? usable : usable.filter((member) => member.server.archival === options.archival);
    if (candidates.length === 0 && options.archival === false) candidates = usable;
    const total = candidates.reduce((sum, member) => sum + member.server.weight, 0);
    let ticket = Math.random() * total;
    for (const member of candidates) {
      ticket -= member.server.weight;
      if (ticket < 0) return member;
    }
    return candidates[candidates.length - 1];
  }

  noHealthyText(options: LiteSessionOptions = {}): string {
    const kind = options.archival === true ? 'archival ' : options.archival === false ? 'non-archival ' : '';
    const states = this.members.map((member) => {
      const reason = this.reasonOf(member);
      return `#${member.index} ${this.stateOf(member)}${reason ? ` (${reason})` : ''}`;
    });
    return `no healthy ${kind}lite server: ${states.join(', ')}`;
  }

  /** The state shown: a server that answers but whose head is not proven is `unverified`. */
  private stateOf(member: PoolMember): ServerState {
    if (member.health.state === 'up' && !member.headTrusted()) return 'unverified';
    return member.health.state;
  }

  private reasonOf(member: PoolMember): string | null {
    if (member.distrusted) return `bad proof: ${member.distrustReason ?? 'unknown'}`;
    if (this.stateOf(member) === 'unverified') {
      return unhealthyReason({ state: 'unverified', lag: null, lastError: this.heads.proofFailure(member.index) });
    }
    const best = this.bestSeqno();
    const lag = best !== undefined && member.health.seqno !== undefined ? best - member.health.seqno : null;
    // Probed up but the connection just dropped: out of rotation until it reconnects, say why.
    if (member.health.state === 'up' && !member.engine.isReady()) return plainReason(member.engine.connectionError ?? 'not connected');
    return unhealthyReason({
      state: member.health.state,
      lag,
      lastError: member.health.lastError ?? member.engine.connectionError ?? null,
    });
  }

  /** Sends an external message to up to `fanout` healthy servers at once (src/liteclient/fanout.ts). */
  async broadcastMessage(boc: Buffer, fanout: number, deadline: number): Promise<BroadcastOutcome> {
    const outcome = await broadcastToServers(this, boc, fanout, deadline);
    await this.refreshHeadOf(outcome.acceptedBy, deadline);
    return outcome;
  }

  /**
   * After an accepted message: the server may have sealed a block with it already (the local chain
   * does before answering), so its head is re-read now; the client's next read sees its own send
   * instead of waiting for the tracker's poll. A failed refresh leaves the head to the tracker.
   */
  private async refreshHeadOf(index: number, deadline: number): Promise<void> {
    const member = this.members[index];
    if (!member) return;
    try {
      const timeout = Math.max(1, Math.min(this.options.healthTimeoutMs, deadline - Date.now()));
      const info = await member.engine.query(MASTERCHAIN_INFO, { kind: 'liteServer.getMasterchainInfo' }, { timeout });
      this.heads.observe(member.index, info);
      // Proven before the answer, so the client's next read is at that head (the proof is one query).
      await this.heads.settled(member.index);
    } catch {
      // The message was accepted; the answer stands.
    }
  }

  /**
   * Re-reads every server's head now (the local chain's controls: after a block is mined or the
   * chain is restored to a snapshot, the next request must see the new head, also a lower one).
   */
  async refreshHeads(deadline: number): Promise<void> {
    await Promise.all(this.members.map((member) => this.refreshHeadOf(member.index, deadline)));
  }

  chainRewound(seqno: number): void {
    this.options.verifier?.rewind(seqno);
  }

  openSession(options: LiteSessionOptions, deadline: number): PoolSession {
    return new PoolSession(this, options, deadline);
  }

  /** Whether sessions run the proof checks of answers (off with `--trust-liteservers`). */
  get checksProofs(): boolean {
    return this.options.checkProofs ?? true;
  }

  /**
   * A server's answer failed a proof check: out of rotation for `distrustMs` whatever its probes
   * say (a liar answers probes fine). Its connection is kept: nothing is wrong with the transport.
   */
  reportProofFailure(member: PoolMember, error: LiteServerProofError): void {
    member.distrustedUntil = Date.now() + (this.options.distrustMs ?? DEFAULT_DISTRUST_MS);
    member.distrustReason = error.detail;
    member.health.lastError = error.message;
    this.logger.warn(
      { server: member.index, host: member.server.host, port: member.server.port, reason: error.detail },
      'lite server failed a proof check',
    );
    this.setState(member, 'down');
    this.emit('queryFailure', member.index);
  }

  /** Called by sessions; not part of the gateway interface. */
  reportFailure(member: PoolMember, error: LiteTransportError): void {
    this.markFailed(member, error.message);
    this.emit('queryFailure', member.index);
    if (!error.timedOut) member.engine.dropConnection(error.message);
  }

  consensusSeqno(): number | undefined {
    let best: number | undefined;
    for (const member of this.members) {
      if (!member.healthy || member.health.seqno === undefined) continue;
      if (best === undefined || member.health.seqno > best) best = member.health.seqno;
    }
    return best;
  }

  status(): ServerStatus[] {
    const best = this.bestSeqno();
    return this.members.map((member) => ({
      index: member.index,
      host: member.server.host,
      port: member.server.port,
      archival: member.server.archival,
      weight: member.server.weight,
      state: this.stateOf(member),
      connected: member.engine.isReady(),
      seqno: member.health.seqno ?? null,
      lag: best !== undefined && member.health.seqno !== undefined ? best - member.health.seqno : null,
      latencyMs: member.health.latencyMs === undefined ? null : Math.round(member.health.latencyMs * 1000) / 1000,
      lastError: member.health.lastError ?? member.engine.connectionError ?? null,
      reason: this.reasonOf(member),
    }));
  }

  get queryTimeoutMs(): number {
    return this.options.engine.queryTimeoutMs;
  }

  /** Whether any configured server (healthy or not) is archival. */
  hasArchival(): boolean {
    return this.members.some((member) => member.server.archival && member.server.weight > 0);
  }

  hasHealthy(): boolean {
    return this.members.some((member) => member.healthy);
  }

  close(): void {
    this.closed = true;
    this.heads.close();
    clearInterval(this.healthTimer);
    for (const member of this.members) member.engine.close();
    this.emit('health');
  }
}

const BLOCK_NOT_FOUND = 651;
const MASTERCHAIN_INFO = liteClientFunction('liteServer.getMasterchainInfo');
const GET_BLOCK_PROOF = liteClientFunction('liteServer.getBlockProof');

/**
 * One HTTP request's view of the pool: sticky to the first server it picks, bounded by the
 * request deadline. The server reads through `liteQuery` (src/tl codecs); the session also keeps
 * ton-lite-client's `LiteEngine` shape, so tests and benchmarks can drive it with an unmodified
 * `LiteClient` as a reference client (the server itself never builds one).
 */
export class PoolSession extends EventEmitter implements LiteSession, LiteEngine {
  private member: ReturnType<LitePool['pick']>;
  private readonly used: number[] = [];
  /** The masterchain head this request reads "latest" at, fixed on first use. */
  private resolvedHead: Promise<MasterchainInfo> | undefined;
  private readonly lookedUp = new Map<number, BlockRef>();

  constructor(
    private readonly pool: LitePool,
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
          if (err.liteCode === BLOCK_NOT_FOUND && !rerouted && !member.server.archival && this.options.archival === undefined) {
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
          check(answer);
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
      const tracked = this.pool.heads.headOf(this.member.index);
      if (tracked) return tracked;
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
    return this.lookedUp.get(seqno) ?? this.pool.heads.knownBlock(seqno);
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
