/**
 * The developer controls of the embedded chain, as the `/localnet/*` routes call them: faucet,
 * mining, the clock, in-memory snapshots and the chain's status. Inputs arrive parsed; what a
 * client can still get wrong (time going back, an unknown snapshot) is an error of src/errors.
 */
import { Address } from '@ton/core';
import type { Localnet } from './localnet';
import { ChainState } from './ledger/LocalChain';
import { MAX_CHAIN_TIME } from './ledger/clock';
import { ControlRefusedError, refuseControl } from './ledger/errors';
import { FundResult } from './ledger/faucet';
import { BASECHAIN, MASTERCHAIN, shardToLong } from './ledger/ids';

/** In-memory snapshots kept; taking one more forgets the oldest. */
export const MAX_SNAPSHOTS = 16;

export type ClockChange = { readonly increase: number } | { readonly set: number };

export interface SnapshotInfo {
  id: string;
  /** Masterchain seqno of the snapshot's head. */
  seqno: number;
  /** Chain time when it was taken. */
  utime: number;
}

export interface LocalnetStatus {
  seqno: number;
  /** gen_utime of the head masterchain block. */
  utime: number;
  /** The chain clock: the time of the next block. */
  now: number;
  /** Seconds the chain clock is ahead of the wall clock. */
  clock_offset: number;
  block_interval_ms: number;
  shards: { workchain: number; shard: string; seqno: number }[];
  accounts: number;
  treasury: { address: string; balance: string };
  snapshots: SnapshotInfo[];
  max_snapshots: number;
}

/** What POST /localnet/fund answers (JSON as is). */
export interface FundAnswer {
  address: string;
  amount: string;
  seqno: number;
  transaction_id: { lt: string; hash: string };
  source: string;
  source_transaction_id: { lt: string; hash: string };
  message_hash: string;
}

/**
 * The controls as the `/localnet/*` routes use them: served by `LocalnetControls` on the chain's
 * own thread, and through a message channel when the chain runs in a worker thread
 * (thread/localnetThread.ts). Answers are plain data (they cross threads).
 */
export interface LocalnetControlApi {
  readonly globalConfigJson: string;
  fund(destination: Address, amount: bigint): Promise<FundAnswer>;
  mine(): Promise<{ seqno: number; utime: number }>;
  moveClock(change: ClockChange): { now: number; clock_offset: number } | Promise<{ now: number; clock_offset: number }>;
  snapshot(): Promise<SnapshotInfo>;
  restore(id: string): Promise<{ id: string; seqno: number; utime: number }>;
  status(): LocalnetStatus | Promise<LocalnetStatus>;
}

export class LocalnetControls implements LocalnetControlApi {
  private readonly snapshots = new Map<string, { info: SnapshotInfo; state: ChainState }>();
  private lastId = 0;

  constructor(private readonly localnet: Localnet) {}

  /** The chain's global config as `--config-out` writes it. */
  get globalConfigJson(): string {
    return this.localnet.globalConfigJson;
  }

  async fund(destination: Address, amount: bigint): Promise<FundAnswer> {
    return fundAnswer(await this.localnet.faucet.fund(destination, amount));
  }

  /** Seals a block round now; resolves with the new masterchain seqno. */
  async mine(): Promise<{ seqno: number; utime: number }> {
    const block = await this.localnet.chain.seal();
    return { seqno: block.id.seqno, utime: block.genUtime };
  }

  /** Moves the chain clock forward; seen by the next block and every execution from now on. */
  moveClock(change: ClockChange): { now: number; clock_offset: number } {
    const chain = this.localnet.chain;
    const now = chain.now;
    const target = 'increase' in change ? now + change.increase : change.set;
    if ('increase' in change && change.increase < 0) refuseControl('increase must not be negative: the chain clock only moves forward');
    if (target < now) refuseControl(`set ${target} is before the chain's time ${now}: the chain clock only moves forward`);
    if (target > MAX_CHAIN_TIME) refuseControl(`the chain clock cannot go beyond ${MAX_CHAIN_TIME}`);
    chain.clock.advance(target - chain.clock.now());
    return { now: chain.now, clock_offset: chain.clock.offsetSeconds };
  }

  async snapshot(): Promise<SnapshotInfo> {
    const state = await this.localnet.chain.captureState();
    const head = state.masterchain[state.masterchain.length - 1];
    const info: SnapshotInfo = { id: String(++this.lastId), seqno: head?.id.seqno ?? 0, utime: head?.genUtime ?? 0 };
    this.snapshots.set(info.id, { info, state });
    while (this.snapshots.size > MAX_SNAPSHOTS) this.snapshots.delete(this.snapshots.keys().next().value as string);
    return info;
  }

  /** Puts the chain back to snapshot `id` (which stays available for another restore). */
  async restore(id: string): Promise<{ id: string; seqno: number; utime: number }> {
    const saved = this.snapshots.get(id);
    if (!saved) throw new ControlRefusedError('notFound', `no snapshot with id '${id}' (ids kept: ${[...this.snapshots.keys()].join(', ') || 'none'})`);
    const head = await this.localnet.restore(saved.state);
    return { id, seqno: head.id.seqno, utime: head.genUtime };
  }

  status(): LocalnetStatus {
    const chain = this.localnet.chain;
    const head = chain.lastMasterchainBlock();
    const faucet = this.localnet.faucet;
    return {
      seqno: head.id.seqno,
      utime: head.genUtime,
      now: chain.now,
      clock_offset: chain.clock.offsetSeconds,
      block_interval_ms: chain.blockInterval,
      shards: chain
        .shardTopsOf(head)
        .map((top) => ({ workchain: top.id.workchain, shard: shardToLong(top.id.shard), seqno: top.id.seqno })),
      accounts: chain.accountCount(BASECHAIN) + chain.accountCount(MASTERCHAIN),
      treasury: { address: faucet.treasury.address.toRawString(), balance: faucet.balance().toString() },
      snapshots: [...this.snapshots.values()].map((s) => s.info),
      max_snapshots: MAX_SNAPSHOTS,
    };
  }
}

function fundAnswer(result: FundResult): FundAnswer {
  return {
    address: result.transaction.address.toRawString(),
    amount: result.amount.toString(),
    seqno: result.masterchainSeqno,
    transaction_id: { lt: result.transaction.lt.toString(), hash: result.transaction.hash.toString('base64') },
    source: result.sourceTransaction.address.toRawString(),
    source_transaction_id: { lt: result.sourceTransaction.lt.toString(), hash: result.sourceTransaction.hash.toString('base64') },
    message_hash: result.messageHash.toString('base64'),
  };
}
