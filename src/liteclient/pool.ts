import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import { type LiteServerProofError, NoHealthyLiteServerError } from '../errors';
import { liteClientFunction, type MasterchainInfo } from '../tl';
import type { LiteServerEndpoint, LiteTransportError } from './connection';
import { DEFAULT_ENGINE_OPTIONS, ServerEngine, type ServerEngineOptions } from './engine';
import { broadcastToServers, type BroadcastOutcome } from './fanout';
import { plainReason, unhealthyReason, type ServerState } from './health';
import { DEFAULT_HEAD_TRACKER_OPTIONS, HeadTracker, type HeadTrackerOptions } from './headTracker';
import type { HeadVerifier } from './headVerifier';
import { PoolSession } from './poolSession';
import type { LiteGateway, LiteSessionOptions } from './session';

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

/** One configured server: its engine and what the pool knows of its health. */
export class PoolMember {
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

const MASTERCHAIN_INFO = liteClientFunction('liteServer.getMasterchainInfo');
