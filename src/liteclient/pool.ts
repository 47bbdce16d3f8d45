import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import { type LiteServerProofError, NoHealthyLiteServerError } from '../errors';
import { liteClientFunction, type BlockIdExt, type MasterchainInfo } from '../tl';
import type { LiteTransportError } from './connection';
import { DEFAULT_ENGINE_OPTIONS, ServerEngine, type ServerEngineOptions } from './engine';
import { broadcastToServers } from './fanout';
import { DEFAULT_HEAD_TRACKER_OPTIONS, HeadTracker, type HeadTrackerOptions } from './headTracker';
import type { HeadVerifier } from './headVerifier';
import { PoolSession } from './poolSession';
import type { BroadcastOutcome, LiteGateway, LiteSessionOptions, PooledServer, ServerStatus, TrackedHead } from './gateway';
import { PoolMember, ServerRoster } from './serverRoster';
import type { SessionPool } from './sessionPool';

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
const MASTERCHAIN_INFO = liteClientFunction('liteServer.getMasterchainInfo');

export const DEFAULT_POOL_OPTIONS: PoolOptions = {
  healthIntervalMs: 1000,
  healthTimeoutMs: 2000,
  maxLagBlocks: 3,
  engine: DEFAULT_ENGINE_OPTIONS,
};

/** Emitted as 'probe' after every health probe (metrics). */
export interface ProbeEvent {
  server: number;
  ok: boolean;
  latencyMs: number;
}

/**
 * The lite-server pool every handler uses (through `ctx.lite()`): one engine per server, health
 * probes, weighted selection among healthy servers, request sessions sticky to one server, a
 * deadline per request, one retry elsewhere for transport failures and none for lite-server
 * errors.
 */
export class LitePool extends EventEmitter implements LiteGateway, SessionPool {
  private readonly members: PoolMember[];
  /** Who is in rotation and why (serverRoster.ts); the pool feeds it probes and failures. */
  private readonly roster: ServerRoster;
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
    this.roster = new ServerRoster(this.members, this.heads, logger, options.maxLagBlocks, () => this.emit('health'));
    // A head is the server's once proven (at once without a verifier): lag and health follow it.
    this.heads.on('head', (index: number, info: MasterchainInfo) => {
      const member = this.members[index];
      if (!member) return;
      member.health.seqno = info.last.seqno;
      this.roster.updateLag();
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
    while (!this.roster.hasHealthy()) {
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
    this.roster.updateLag();
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
      if ((member.health.state === 'starting' || member.health.state === 'down') && !member.distrusted) this.roster.setState(member, 'up');
    } catch (err) {
      member.health.lastError = err instanceof Error ? err.message : String(err);
      member.health.checkedAt = Date.now();
      this.emit('probe', { server: member.index, ok: false, latencyMs: performance.now() - started } satisfies ProbeEvent);
      this.roster.setState(member, 'down');
    } finally {
      member.probing = false;
    }
  }

  /**
   * Weighted random pick among healthy servers that match the archival filter (serverRoster.ts);
   * sessions and the message fan-out choose their servers through it.
   */
  pick(options: LiteSessionOptions, exclude: ReadonlySet<number> = new Set()): PoolMember | undefined {
    return this.roster.pick(options, exclude);
  }

  noHealthyText(options: LiteSessionOptions = {}): string {
    return this.roster.noHealthyText(options);
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

  trackedHead(options: LiteSessionOptions): TrackedHead | undefined {
    const member = this.pick(options);
    return member && this.trackedHeadOf(member.index);
  }

  /** The head tracker's block of server `index`, if it has one (proven when verifying). */
  trackedHeadOf(index: number): TrackedHead | undefined {
    const info = this.heads.headOf(index);
    return info && { server: index, info };
  }

  knownMasterchainBlock(seqno: number): BlockIdExt | undefined {
    return this.heads.knownBlock(seqno);
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
    this.roster.distrust(member, error, this.options.distrustMs ?? DEFAULT_DISTRUST_MS);
    this.emit('queryFailure', member.index);
  }

  /** Called by sessions; not part of the gateway interface. */
  reportFailure(member: PoolMember, error: LiteTransportError): void {
    this.roster.markFailed(member, error.message);
    this.emit('queryFailure', member.index);
    if (!error.timedOut) member.engine.dropConnection(error.message);
  }

  consensusSeqno(): number | undefined {
    return this.roster.consensusSeqno();
  }

  status(): ServerStatus[] {
    return this.roster.status();
  }

  get queryTimeoutMs(): number {
    return this.options.engine.queryTimeoutMs;
  }

  /** Whether any configured server (healthy or not) is archival. */
  hasArchival(): boolean {
    return this.roster.hasArchival();
  }

  hasHealthy(): boolean {
    return this.roster.hasHealthy();
  }

  close(): void {
    this.closed = true;
    this.heads.close();
    clearInterval(this.healthTimer);
    for (const member of this.members) member.engine.close();
    this.emit('health');
  }
}
