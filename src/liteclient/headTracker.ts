import { EventEmitter } from 'node:events';
import { ApiError, LiteServerError } from '../errors';
import { encodeTl, liteClientFunction, waitMasterchainSeqnoCodec, type BlockIdExt, type MasterchainInfo } from '../tl';
import type { ServerEngine } from './engine';
import type { BlockProofQuery, HeadVerifier } from './headVerifier';

/**
 * Every lite server's newest masterchain block, known without asking per request. Each server is
 * long-polled with `liteServer.waitMasterchainSeqno(known + 1)` + `getMasterchainInfo`, so a new
 * block is seen as soon as the server has it; a server that answers the wait at once anyway (or
 * does not support it) is polled every `pollMs` instead. The pool's health probes feed it too.
 *
 * With a HeadVerifier (the default; not with `--trust-liteservers`) a reported head is only a
 * claim: it becomes the server's head once proven (headVerifier.ts), in the background, so no
 * request waits for it. A server whose head cannot be proven keeps no head and the reason is
 * kept for the health check (`proofFailure`); the pool does not use it.
 */

export interface TrackedServer {
  readonly index: number;
  readonly engine: ServerEngine;
}

export interface HeadTrackerOptions {
  /** How long one wait may park at the server. */
  waitMs: number;
  /** Poll period when waits come back without a newer block. */
  pollMs: number;
  /** Pause after a failed poll (the pool's probes decide health; this only avoids a hot loop). */
  retryMs: number;
}

export const DEFAULT_HEAD_TRACKER_OPTIONS: HeadTrackerOptions = { waitMs: 10_000, pollMs: 100, retryMs: 250 };

/** Masterchain blocks remembered by seqno, so explicit-seqno reads skip the lookupBlock round trip. */
const RECENT_BLOCKS = 1024;

const getMasterchainInfo = liteClientFunction('liteServer.getMasterchainInfo');
const getBlockProof = liteClientFunction('liteServer.getBlockProof');
const GET_MASTERCHAIN_INFO = { kind: 'liteServer.getMasterchainInfo' } as const;

/** getMasterchainInfo behind a waitMasterchainSeqno prefix whose timeout is ours, not the transport's. */
function waitThenGetMasterchainInfo(seqno: number, timeoutMs: number): typeof getMasterchainInfo {
  const prefix = encodeTl(waitMasterchainSeqnoCodec, { kind: 'liteServer.waitMasterchainSeqno', seqno, timeoutMs });
  return {
    encodeRequest(src, encoder) {
      // TL serialisations are 4-byte aligned; ton-tl's writer only appends words.
      for (let offset = 0; offset < prefix.length; offset += 4) encoder.writeUInt32(prefix.readUInt32LE(offset));
      getMasterchainInfo.encodeRequest(src, encoder);
    },
    decodeResponse: (decoder) => getMasterchainInfo.decodeResponse(decoder),
  };
}

function sameId(a: BlockIdExt, b: BlockIdExt): boolean {
  return a.seqno === b.seqno && a.rootHash.equals(b.rootHash) && a.fileHash.equals(b.fileHash);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

export class HeadTracker extends EventEmitter {
  private readonly heads = new Map<number, MasterchainInfo>();
  private readonly recent = new Map<number, BlockIdExt>();
  /** Heads servers reported and not yet proven (verifying trackers only). */
  private readonly claimed = new Map<number, MasterchainInfo>();
  /** The newest head each server reported, proven or not: what the long poll waits beyond. */
  private readonly reported = new Map<number, MasterchainInfo>();
  private readonly proving = new Map<number, Promise<void>>();
  /** Why a server's last reported head could not be proven, and which head that was. */
  private readonly failures = new Map<number, { reason: string; head: BlockIdExt }>();
  private closed = false;
  private started = false;

  constructor(
    private readonly servers: readonly TrackedServer[],
    private readonly options: HeadTrackerOptions = DEFAULT_HEAD_TRACKER_OPTIONS,
    readonly verifier: HeadVerifier | null = null,
    /** Timeout of one getBlockProof of a head proof. */
    private readonly proofTimeoutMs = 5000,
  ) {
    super();
    this.setMaxListeners(0);
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    for (const server of this.servers) void this.watch(server);
  }

  close(): void {
    this.closed = true;
  }

  /** The newest masterchain state server `index` has reported, if any. */
  headOf(index: number): MasterchainInfo | undefined {
    return this.heads.get(index);
  }

  /** A masterchain block some server reported as its head, by seqno (recent ones; proven ones when verifying). */
  knownBlock(seqno: number): BlockIdExt | undefined {
    return this.verifier ? this.verifier.provenBlock(seqno) : this.recent.get(seqno);
  }

  /** Whether server `index` may be used: it has a head, proven when verifying. */
  trusted(index: number): boolean {
    return this.heads.has(index) && !this.failures.has(index);
  }

  /** Why server `index`'s head is not trusted (null when it is, or nothing was reported yet). */
  proofFailure(index: number): string | null {
    return this.failures.get(index)?.reason ?? null;
  }

  /**
   * Records what a server said its head is (from a poll, a probe or a request's own query). When
   * verifying, it only starts the proof (in the background); `settled(index)` resolves when it is done.
   */
  observe(index: number, info: MasterchainInfo): void {
    this.reported.set(index, info);
    if (!this.verifier) {
      this.accept(index, info);
      return;
    }
    const current = this.heads.get(index);
    if (current && sameId(current.last, info.last) && !this.failures.has(index)) return;
    const failed = this.failures.get(index);
    // The same unprovable head again: the answer would be the same.
    if (failed && sameId(failed.head, info.last)) return;
    this.claimed.set(index, info);
    if (!this.proving.has(index)) {
      const run = this.proveClaims(index).finally(() => this.proving.delete(index));
      this.proving.set(index, run);
    }
  }

  /** Resolves once every head reported so far by server `index` is proven or refused. */
  async settled(index: number): Promise<void> {
    while (this.proving.has(index)) await this.proving.get(index);
  }

  private async proveClaims(index: number): Promise<void> {
    const verifier = this.verifier!;
    const server = this.servers.find((s) => s.index === index);
    if (!server) return;
    const query: BlockProofQuery = (q) => server.engine.query(getBlockProof, q, { timeout: this.proofTimeoutMs });
    for (let info = this.claimed.get(index); info && !this.closed; info = this.claimed.get(index)) {
      this.claimed.delete(index);
      try {
        await verifier.proveHead(query, info.last);
        if (this.failures.delete(index)) this.emit('proof', index, null);
        this.accept(index, info);
      } catch (err) {
        // A transport failure says nothing of the head: the pool's probes handle the server.
        if (!(err instanceof ApiError)) continue;
        const reason = err instanceof LiteServerError ? `the server cannot prove its head from our trusted block: ${err.liteMessage}` : err.message;
        this.failures.set(index, { reason, head: info.last });
        this.heads.delete(index);
        this.emit('proof', index, reason);
      }
    }
  }

  private accept(index: number, info: MasterchainInfo): void {
    const previous = this.heads.get(index);
    if (previous && previous.last.seqno > info.last.seqno) {
      // The server went back (a restarted or reset chain): what we remember may be another chain.
      this.recent.clear();
    }
    const same = this.recent.get(info.last.seqno);
    if (same && !same.rootHash.equals(info.last.rootHash)) this.recent.clear();
    this.heads.set(index, info);
    this.recent.set(info.last.seqno, info.last);
    if (this.recent.size > RECENT_BLOCKS) this.recent.delete(this.recent.keys().next().value as number);
    if (!previous || previous.last.seqno !== info.last.seqno || !previous.last.rootHash.equals(info.last.rootHash)) {
      this.emit('head', index, info);
    }
  }

  private async watch(server: TrackedServer): Promise<void> {
    const { waitMs, pollMs, retryMs } = this.options;
    while (!this.closed && !server.engine.isClosed()) {
      if (!server.engine.isReady()) {
        await sleep(retryMs);
        continue;
      }
      const known = this.reported.get(server.index)?.last.seqno;
      const started = Date.now();
      try {
        const info =
          known === undefined
            ? await server.engine.query(getMasterchainInfo, GET_MASTERCHAIN_INFO, { timeout: retryMs * 8 })
            : await server.engine.query(waitThenGetMasterchainInfo(known + 1, waitMs), GET_MASTERCHAIN_INFO, { timeout: waitMs + 2000 });
        if (this.closed) return;
        this.observe(server.index, info);
        // A wait that came back quickly without a newer block: the server does not wait; poll.
        if (known !== undefined && info.last.seqno <= known && Date.now() - started < pollMs) await sleep(pollMs);
      } catch (err) {
        // A wait that timed out at the server is a normal answer: ask again at once.
        if (!(err instanceof LiteServerError)) await sleep(retryMs);
        else if (Date.now() - started < pollMs) await sleep(pollMs);
      }
    }
  }
}
