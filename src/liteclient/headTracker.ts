import { EventEmitter } from 'node:events';
import { LiteServerError } from '../errors';
import { encodeTl, liteClientFunction, waitMasterchainSeqnoCodec, type BlockIdExt, type MasterchainInfo } from '../tl';
import type { ServerEngine } from './engine';

/**
 * Every lite server's newest masterchain block, known without asking per request. Each server is
 * long-polled with `liteServer.waitMasterchainSeqno(known + 1)` + `getMasterchainInfo`, so a new
 * block is seen as soon as the server has it; a server that answers the wait at once anyway (or
 * does not support it) is polled every `pollMs` instead. The pool's health probes feed it too.
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

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

export class HeadTracker extends EventEmitter {
  private readonly heads = new Map<number, MasterchainInfo>();
  private readonly recent = new Map<number, BlockIdExt>();
  private closed = false;
  private started = false;

  constructor(
    private readonly servers: readonly TrackedServer[],
    private readonly options: HeadTrackerOptions = DEFAULT_HEAD_TRACKER_OPTIONS,
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

  /** A masterchain block some server reported as its head, by seqno (recent ones only). */
  knownBlock(seqno: number): BlockIdExt | undefined {
    return this.recent.get(seqno);
  }

  /** Records what a server said its head is (from a poll, a probe or a request's own query). */
  observe(index: number, info: MasterchainInfo): void {
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
      const known = this.heads.get(server.index)?.last.seqno;
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
