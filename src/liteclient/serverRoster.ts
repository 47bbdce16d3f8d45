import type { Logger } from 'pino';
import type { LiteServerProofError } from '../errors';
import type { ServerEngine } from './engine';
import { plainReason, unhealthyReason, type ServerState } from './health';
import type { HeadTracker } from './headTracker';
import type { LiteSessionOptions, PooledServer, ServerStatus } from './gateway';

/**
 * The pool's servers and their rotation state: health state per server (probes and failed
 * queries feed it, lag decides `lagging`), distrust after a failed proof check, the weighted
 * pick among usable servers and the status the health route shows. The pool (pool.ts) runs the
 * probes and timers and decides when to call these; this module only keeps the books, so the
 * rules of who is in rotation are in one place.
 */

interface ServerHealth {
  state: ServerState;
  seqno: number | undefined;
  latencyMs: number | undefined;
  lastError: string | undefined;
  checkedAt: number | undefined;
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

export class ServerRoster {
  /**
   * @param heads each server's proven head, for the `unverified` state and its reason
   * @param onStateChange called after any server's state changed (the pool emits 'health')
   */
  constructor(
    readonly members: readonly PoolMember[],
    private readonly heads: HeadTracker,
    private readonly logger: Logger,
    private readonly maxLagBlocks: number,
    private readonly onStateChange: () => void,
  ) {}

  /** Marks servers more than `maxLagBlocks` behind the best as lagging, and those back in line as up. */
  updateLag(): void {
    const best = this.bestSeqno();
    if (best === undefined) return;
    for (const member of this.members) {
      if (member.health.state === 'down' || member.health.state === 'starting' || member.health.seqno === undefined) continue;
      if (member.distrusted) continue;
      const lag = best - member.health.seqno;
      this.setState(member, lag > this.maxLagBlocks ? 'lagging' : 'up');
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

  setState(member: PoolMember, state: ServerState): void {
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
    this.onStateChange();
  }

  /** A server failed a real query: take it out now rather than at the next probe. */
  markFailed(member: PoolMember, reason: string): void {
    member.health.lastError = reason;
    this.setState(member, 'down');
  }

  /**
   * A server's answer failed a proof check: out of rotation for `distrustMs` whatever its probes
   * say (a liar answers probes fine).
   */
  distrust(member: PoolMember, error: LiteServerProofError, distrustMs: number): void {
    member.distrustedUntil = Date.now() + distrustMs;
    member.distrustReason = error.detail;
    member.health.lastError = error.message;
    this.logger.warn(
      { server: member.index, host: member.server.host, port: member.server.port, reason: error.detail },
      'lite server failed a proof check',
    );
    this.setState(member, 'down');
  }

  /**
   * Weighted random pick among healthy servers that match the archival filter. `archival=true`
   * takes archival servers only; `archival=false` means "need not be archival": non-archival
   * servers are preferred and any server is used when none is healthy (toncenter's Python
   * server's rule), so the request never waits for a kind of server the pool may not have.
   */
  pick(options: LiteSessionOptions, exclude: ReadonlySet<number>): PoolMember | undefined {
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

  noHealthyText(options: LiteSessionOptions): string {
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

  /** Whether any configured server (healthy or not) is archival. */
  hasArchival(): boolean {
    return this.members.some((member) => member.server.archival && member.server.weight > 0);
  }

  hasHealthy(): boolean {
    return this.members.some((member) => member.healthy);
  }
}
