import { Address, Cell } from '@ton/core';
import { randomBytes } from 'crypto';
import { EventEmitter } from 'events';
// Resolves in a later macrotask, after the I/O callbacks that are ready (see `exclusive`).
import { setImmediate as nextTurn } from 'node:timers/promises';
import { LocalnetLogger } from '../adnlServer/logger';
import { addRestoredRounds, ChainSnapshot, InFlightMessage, savedBlockOf, snapshotOf } from './chainSnapshot';
import { ChainClock } from './clock';
import { LocalConfig, localConfigFromRoot } from './config';
import { ChainStoppedError, ExternalMessageRejectedError } from './errors';
import { buildGenesis, deployFees, GenesisAccount, genesisMessage, parseInboundExternal, zeroStateOf } from './genesis';
import { GetMethodArgs, GetMethodRun, runGetMethodAt } from './getMethods';
import { accountPrefix, BASECHAIN, basechainShards, MASTERCHAIN, shardContains, shardCountOf, ShardCount } from './ids';
import { withLibrary } from './libraries';
import { captureState, ChainState, restoreState } from './memorySnapshot';
import { LiveChain, loadHeadAccounts, loadZeroStateAccounts, newLiveChain } from './liveChain';
import { applyAccountChanges } from './accountChanges';
import { BlockTimer } from './blockTimer';
import { createEmulator } from '../../tvm';
import { HeldMessage, SandboxEngine } from './sandboxAdapter';
import { sealBlocks, shardOfAccount } from './sealing';
import { DEFAULT_KEEP_BLOCKS, dropOutsideWindow } from './retention';
import { BlockStore, StoredBlock, ZeroState } from './store';
import { waitForSeqno } from './seqnoWaits';
import { TickTockRunner } from './tickTock';
import type { JournalRound } from './journal';

/** Where the chain records what it tells clients (chain/journal.ts); each resolves once on disk. */
export interface ChainJournal {
  append(round: JournalRound): Promise<void>;
  appendMessage(boc: Buffer): Promise<void>;
}
import { LocalValidator } from './validator';

export { accountLeaf } from './getMethods';
export { GLOBAL_BALANCE } from './sealing';
export type { GetMethodRun } from './getMethods';
export type { GenesisAccount } from './genesis';
export type { ChainSnapshot, InFlightMessage, SavedBlock } from './chainSnapshot';
export type { ChainState } from './memorySnapshot';

export interface LocalChainOptions {
  /** Seal an (often empty) block this often; 0 disables the timer. Default 1000. */
  blockIntervalMs?: number;
  /** 32-byte seed of the validator key that signs masterchain blocks. Default: random. */
  validatorSeed?: Buffer;
  /** Gas limit of get-methods run for runSmcMethod. Default 1 000 000. */
  getMethodGasLimit?: bigint;
  /** Basechain shards (1, 2, 4 or 8), split off the basechain zerostate in block 1. Default 2. */
  shards?: ShardCount;
  /** Masterchain blocks kept (with their shard blocks and states); older ones are dropped. 0 keeps all. Default DEFAULT_KEEP_BLOCKS. */
  keepBlocks?: number;
  /**
   * Rounds (blocks) a message from a client's cascade waits before it is delivered to an account
   * in another shard (masterchain or another basechain shard), as on a busy network; 0 delivers
   * the whole cascade in one round. Default 0.
   */
  crossShardDelay?: number;
  logger?: LocalnetLogger;
}

/** Each block advances lt by at least this much; sandbox steps by 1e6 per transaction. */
const LT_STEP = 1_000_000n;

/**
 * The embedded chain: @ton/sandbox executes messages; sealed blocks, states and proofs live in
 * an immutable block store that the lite-server handlers read. One masterchain and one
 * basechain shard (0x8000000000000000); every seal produces one block of each.
 *
 * This class owns the order of work (one operation at a time); its mutable state is one
 * LiveChain object (liveChain.ts), which genesis, sealing, get-methods, libraries and the
 * snapshots (memorySnapshot.ts, chainSnapshot.ts) read and replace from their own modules.
 */
export class LocalChain {
  readonly getMethodGasLimit: bigint;
  private readonly events = new EventEmitter();
  /** Basechain shards, left to right. */
  readonly shards: readonly bigint[];
  /** The mutable state (blocks, history, accounts, pending work); snapshots capture and replace it. */
  private readonly live: LiveChain;
  /** Operations waiting for their turn, in order, except the timed seal, which goes first (sealAtSlot). */
  private readonly waiting: (() => Promise<void>)[] = [];
  private draining = false;
  /** Settles when every operation queued so far has run (what stop() waits for). */
  private drained: Promise<void> = Promise.resolve();
  private readonly tickTock: TickTockRunner;
  private readonly timer: BlockTimer;
  private stopped = false;
  private readonly keepBlocks: number;
  /** The journal's flushed appends: each sealed round before any reader sees it, each accepted message before its answer. */
  private journal: ChainJournal | null = null;
  /** Set when a round could not be journaled: the emulator ran past the store, nothing more is safe. */
  private broken: Error | null = null;
  /** Rounds a message to another shard waits (0: the whole cascade lands in one round). */
  private readonly crossShardDelay: number;
  /** Messages between shards held back by the cross-shard delay, with the round they land in. */
  private inFlight: { message: HeldMessage; dueRound: number }[] = [];

  private constructor(
    private readonly engine: SandboxEngine,
    readonly validator: LocalValidator,
    private readonly configValue: LocalConfig,
    zeroStates: { masterchain: ZeroState; basechain: ZeroState },
    shards: readonly bigint[],
    private readonly blockIntervalMs: number,
    lastUtime: number,
    getMethodGasLimit: bigint,
    keepBlocks: number,
    private readonly logger: LocalnetLogger | undefined,
    /** The chain's time: gen_utime and the emulator's `now` follow it (POST /localnet/time moves it). */
    readonly clock: ChainClock,
    crossShardDelay = 0,
  ) {
    this.crossShardDelay = crossShardDelay;
    this.crossShardHold = crossShardDelay > 0 ? (from, to) => this.shardChainOf(from) !== this.shardChainOf(to) : undefined;
    this.getMethodGasLimit = getMethodGasLimit;
    this.keepBlocks = keepBlocks;
    this.events.setMaxListeners(0);
    this.shards = shards;
    this.tickTock = new TickTockRunner(engine);
    this.timer = new BlockTimer(this.blockIntervalMs, () => this.sealAtSlot(), this.logger);
    this.live = newLiveChain({ engine, tickTock: this.tickTock, config: configValue, shards, clock, zeroStates, lastUtime });
  }

  /** Builds both zerostates. No block exists until the first `seal()`. */
  static async create(opts: LocalChainOptions = {}): Promise<LocalChain> {
    // The wasm compiles on V8's background threads while this thread builds the zerostates.
    const emulator = createEmulator();
    emulator.catch(() => undefined); // awaited below; a genesis failure must not leave it unhandled
    const validator = new LocalValidator(opts.validatorSeed ?? randomBytes(32));
    const clock = new ChainClock();
    const now = clock.now();
    const genesis = buildGenesis(validator, now);
    const engine = await SandboxEngine.create(genesis.config.root, await emulator);
    const chain = new LocalChain(
      engine,
      validator,
      genesis.config,
      genesis,
      basechainShards(shardCountOf(opts.shards)),
      opts.blockIntervalMs ?? 1000,
      now,
      opts.getMethodGasLimit ?? 1_000_000n,
      opts.keepBlocks ?? DEFAULT_KEEP_BLOCKS,
      opts.logger,
      clock,
      opts.crossShardDelay,
    );
    await loadZeroStateAccounts(chain.live);
    return chain;
  }

  get store(): BlockStore {
    return this.live.store;
  }

  /** Block interval in ms; 0 = blocks only on messages and `seal()` (POST /localnet/mine). */
  get blockInterval(): number {
    return this.blockIntervalMs;
  }

  /** Unix time of the next execution and block: the clock, never behind the last block. */
  get now(): number {
    return this.executionTime();
  }

  get config(): LocalConfig {
    return this.configValue;
  }

  get globalId(): number {
    return this.configValue.globalId;
  }

  get configBase64(): string {
    return this.engine.configBase64;
  }

  /** The masterchain zerostate id (`init` of getMasterchainInfo). */
  get zeroState(): ZeroState {
    return this.store.zeroState(MASTERCHAIN);
  }

  lastMasterchainBlock(): StoredBlock {
    const last = this.store.last(MASTERCHAIN);
    if (!last) throw new Error('the chain has no blocks yet');
    return last;
  }

  /** The basechain blocks registered by a masterchain block (its shard tops), in shard order. */
  shardTopsOf(mcBlock: StoredBlock): StoredBlock[] {
    if (mcBlock.id.workchain !== MASTERCHAIN) throw new Error('not a masterchain block');
    return mcBlock.shardTops.map((id) => {
      const top = this.store.byId(id);
      if (!top) throw new Error('shard top block missing from the store');
      return top;
    });
  }

  /** The shard top of a masterchain block that holds `shard` (an exact shard or a prefix inside one). */
  shardTopOf(mcBlock: StoredBlock, shard: bigint): StoredBlock {
    const top = this.shardTopsOf(mcBlock).find((b) => b.id.shard === shard || shardContains(b.id.shard, shard));
    if (!top) throw new Error('no shard top holds the shard');
    return top;
  }

  /** The shard top of a masterchain block whose state holds a basechain account. */
  accountShardTop(mcBlock: StoredBlock, address: Address): StoredBlock {
    return this.shardTopOf(mcBlock, accountPrefix(address.hash) | 1n);
  }

  /** Public libraries known to the latest masterchain state, by hex hash. */
  get libraries(): ReadonlyMap<string, Cell> {
    return this.live.libraryIndex.byHash;
  }

  /** Starts the block timer (no-op when blockIntervalMs is 0). */
  start(): void {
    if (!this.stopped) this.timer.start();
  }

  /** Stops the timer, ends the waits for blocks (none will come) and waits for queued work. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.timer.stop();
    this.events.emit('stop');
    await this.drained;
  }

  /**
   * Makes every sealed round wait for the journal (its append and fsync) before it is added to
   * the store: until then no lite-server answer, waiter or caller of seal/sendExternalMessage
   * learns of it; and a message submitted to wait for the next block is journaled before
   * `submitExternalMessage` resolves. A journal that fails stops the chain (every later operation
   * fails with its error): the emulator would be ahead of what is on disk.
   */
  setJournal(journal: ChainJournal | null): void {
    this.journal = journal;
  }

  onBlock(listener: (block: StoredBlock) => void): () => void {
    this.events.on('block', listener);
    return () => this.events.off('block', listener);
  }

  /** Resolves once the masterchain reaches `seqno` or the chain is restored to a snapshot; rejects with WaitTimeoutError after `timeoutMs`. */
  waitForMasterchainSeqno(seqno: number, timeoutMs: number): Promise<void> {
    if (this.stopped) return Promise.reject(new ChainStoppedError());
    return waitForSeqno(this.events, this.store.height(MASTERCHAIN), seqno, timeoutMs);
  }

  /**
   * Deploys accounts with exact balances (fees of the deploying internal message are added on
   * top, measured by a dry run). They land in the next sealed block.
   */
  async deployGenesis(entries: readonly GenesisAccount[]): Promise<void> {
    await this.exclusive(async () => {
      this.engine.now = this.executionTime();
      const feeOf = await deployFees(this.engine, entries);
      for (const entry of entries) {
        const fee = feeOf(entry);
        await this.openBlock();
        const txs = await this.engine.sendInternal(genesisMessage(entry, entry.balance + fee));
        this.live.pending.push(...txs);
      }
    });
  }

  /**
   * Executes an inbound external message at once and seals a block with its whole cascade.
   * Throws InvalidExternalMessageError or ExternalMessageRejectedError (nothing changed then).
   */
  async sendExternalMessage(boc: Buffer): Promise<StoredBlock> {
    const cell = parseInboundExternal(boc);
    return this.exclusive(async () => {
      await this.executeExternal(cell, false);
      return this.sealLocked();
    });
  }

  /**
   * An external message a client sent (liteServer.sendMessage). It is executed at once, so a
   * message its destination does not accept is refused now, as a lite server refuses it
   * (ExternalMessageRejectedError, nothing changed); its transactions go into the next block: one
   * sealed now with a block interval of 0, else the next timed block (or POST /localnet/mine), so
   * the client gets its answer before the block exists, as on a network.
   */
  async submitExternalMessage(boc: Buffer): Promise<void> {
    const cell = parseInboundExternal(boc);
    const journaled = await this.exclusive(async () => {
      await this.executeExternal(cell, true);
      if (this.blockIntervalMs <= 0) {
        await this.sealLocked();
        return null;
      }
      // The record takes its place in the journal now (records are written in the order of the
      // calls, so before the round that seals it), and its flush is awaited outside the queue: an
      // fsync (1-30 ms on a busy disk) held every later message and the timed seal behind it, ~15 %
      // of the queue's time at 50 messages a second with the chain's thread free meanwhile.
      // Wrapped, as an async function's result would be awaited here.
      return this.journal ? { written: this.journalMessage(this.journal, boc) } : null;
    });
    if (journaled) await journaled.written;
  }

  /** Appends an accepted message to the journal; a failure stops the chain (the emulator ran past the disk). */
  private journalMessage(journal: ChainJournal, boc: Buffer): Promise<void> {
    return journal.appendMessage(boc).catch((err: unknown) => {
      this.broken ??= new Error(
        `the local chain stopped: an accepted message could not be journaled (${err instanceof Error ? err.message : String(err)})`,
      );
      this.logger?.error({ err: this.broken.message }, 'localnet: journal append failed');
      throw this.broken;
    });
  }

  /**
   * Executes messages accepted before a crash (the journal's, after its last round) again; they
   * land in the next block. One a destination no longer accepts (expired, replaced) is dropped,
   * as a network drops it. Returns how many were accepted.
   */
  async resubmitExternalMessages(bocs: readonly Buffer[]): Promise<number> {
    let accepted = 0;
    for (const boc of bocs) {
      const ok = await this.exclusive(async () => {
        await this.executeExternal(parseInboundExternal(boc), true);
        return true;
      }).catch(() => false);
      if (ok) accepted++;
    }
    return accepted;
  }

  /** Adds a public library to the masterchain state (visible after the next seal). */
  async addLibrary(code: Cell): Promise<void> {
    await this.exclusive(async () => {
      this.engine.libs = withLibrary(this.engine.libs, code);
    });
  }

  /** Seals one basechain block and one masterchain block with everything executed since the last seal. */
  seal(): Promise<StoredBlock> {
    return this.exclusive(() => this.sealLocked(false));
  }

  /**
   * The block timer's seal: it runs as soon as the operation running now ends, ahead of the ones
   * waiting, as a collator takes the messages it has at its slot and leaves later ones to the next
   * block. Behind a backlog of sends (each ~15-20 ms of emulation at 10 000 accounts) a seal in
   * line came hundreds of ms late and, its timer's next tick skipped, the next one 800 ms after the
   * last: a block of twice the transactions, read by the index from a thread still busy with the
   * backlog (issue 22's live figure). POST /localnet/mine keeps `seal()`: everything sent before it lands.
   */
  sealAtSlot(): Promise<StoredBlock> {
    return this.exclusive(() => this.sealLocked(false), true);
  }

  /**
   * Seals the next masterchain block as a key block: it publishes the configuration and starts a
   * new proof epoch (getBlockProof chains step through it). TON makes one when the configuration or
   * the validator set changes; neither changes on this chain by itself, so this is how a key block
   * after genesis is made (tests of proof walks, a config editor).
   */
  sealKeyBlock(): Promise<StoredBlock> {
    return this.exclusive(() => this.sealLocked(true));
  }

  /** Runs a get-method against the account as of `args.state` (a ShardStateUnsplit of a sealed block). */
  runGetMethod(args: GetMethodArgs): Promise<GetMethodRun> {
    return runGetMethodAt(this.engine, this.getMethodGasLimit, this.live.history.prevBlocksInfo(this.store, args.mcSeqno), args);
  }

  /** The shard chain an account lives in: the masterchain, or its basechain shard. */
  private shardChainOf(address: Address): string {
    if (address.workChain === MASTERCHAIN) return 'mc';
    return shardOfAccount(this.shards, address.hash).toString();
  }

  /** Unix time for the next execution: the chain clock, never behind the last block. */
  private executionTime(): number {
    return Math.max(this.live.lastUtime, this.clock.now());
  }

  /**
   * Runs `fn` after every operation queued before it (`first`: after the one running now, ahead
   * of those waiting: the timed seal). Each operation starts in a macrotask of its
   * own (`setImmediate`): the emulator runs synchronously, so a queue of operations chained by
   * promises alone ran back to back in microtasks, and at 50 sends a second the lite queries that
   * arrived meanwhile (the index's getBlock after a seal) waited for the whole backlog, the seal
   * included, before the thread read its sockets. Between operations the thread now serves them.
   */
  private exclusive<T>(fn: () => Promise<T>, first = false): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const run = async (): Promise<void> => {
        try {
          if (this.broken) throw this.broken;
          resolve(await fn());
        } catch (err) {
          reject(err);
        }
      };
      if (first) this.waiting.unshift(run);
      else this.waiting.push(run);
      if (!this.draining) this.drained = this.drain();
    });
  }

  /** Runs the waiting operations one at a time, each in a macrotask of its own (exclusive's comment). */
  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.waiting.length > 0) {
        await nextTurn();
        // Taken after the turn: a timed seal queued meanwhile runs before the sends waiting.
        await this.waiting.shift()!();
      }
    } finally {
      this.draining = false;
    }
  }

  /**
   * Executes an external message into the block being filled (ExternalMessageRejectedError when
   * it is not accepted). `delayCrossShard`: a client's message, whose messages to other shards
   * go through the cross-shard delay (the faucet's credit lands in its own round).
   */
  private async executeExternal(cell: Cell, delayCrossShard: boolean): Promise<void> {
    await this.openBlock();
    this.engine.now = this.executionTime();
    const hold = delayCrossShard ? this.crossShardHold : undefined;
    const result = await this.engine.sendExternal(cell, hold);
    this.holdInFlight();
    if (!result.accepted) throw new ExternalMessageRejectedError(result.reason, result.exitCode);
    this.live.pending.push(...result.transactions);
  }

  /**
   * `--cross-shard-delay`: whether a message from `from` to `to` crosses shards (masterchain to
   * basechain, or between basechain shards) and so waits for a later round. Undefined when off.
   */
  private readonly crossShardHold: ((from: Address, to: Address) => boolean) | undefined;

  /** Takes the messages the engine held back into the in-flight list, due `crossShardDelay` rounds after this one. */
  private holdInFlight(): void {
    const dueRound = this.store.height(MASTERCHAIN) + 1 + this.crossShardDelay;
    for (const message of this.engine.takeHeld()) this.inFlight.push({ message, dueRound });
  }

  /** The in-flight messages as cells (what snapshots and the journal keep). */
  private inFlightCells(): InFlightMessage[] {
    return this.inFlight.map(({ message, dueRound }) => ({
      message: this.engine.heldMessageCell(message),
      dueRound,
    }));
  }

  /** Delivers the in-flight messages due in the round being sealed, into it (their cascades too). */
  private async deliverDue(): Promise<void> {
    const round = this.store.height(MASTERCHAIN) + 1;
    const due = this.inFlight.filter((m) => m.dueRound <= round);
    if (due.length === 0) return;
    this.inFlight = this.inFlight.filter((m) => m.dueRound > round);
    await this.openBlock();
    this.engine.now = this.executionTime();
    this.live.pending.push(
      ...(await this.engine.deliverHeld(
        due.map((m) => m.message),
        this.crossShardHold,
      )),
    );
    this.holdInFlight();
  }

  /** Starts filling a block: its tick transactions precede everything else in it. */
  private async openBlock(): Promise<void> {
    this.engine.now = this.executionTime();
    this.live.pending.push(...(await this.tickTock.open()));
  }

  private async sealLocked(keyBlock = false): Promise<StoredBlock> {
    await this.deliverDue();
    this.engine.now = this.executionTime();
    this.live.pending.push(...(await this.tickTock.close()));
    const txs = this.live.pending;
    this.live.pending = [];
    await applyAccountChanges(this.engine, this.shards, this.live.accounts, txs);
    this.live.libraryIndex.refresh(this.engine.libs, this.configValue.configAddr);

    const startLt = this.live.lastEndLt;
    const engineLt = this.engine.lt;
    const sealed = sealBlocks({
      store: this.store,
      validator: this.validator,
      config: this.configValue,
      history: this.live.history,
      shards: this.shards,
      accounts: this.live.accounts,
      librariesRoot: this.live.libraryIndex.stateRoot,
      txs,
      keyBlock,
      genUtime: Math.max(this.live.lastUtime, this.clock.now(), ...txs.map((t) => t.now)),
      startLt,
      endLt: (engineLt > startLt ? engineLt : startLt) + LT_STEP,
    });
    const mc = sealed.masterchain;
    if (this.journal) {
      const saved = savedBlockOf;
      try {
        await this.journal.append({
          masterchain: saved(mc),
          basechain: sealed.shards.map((b) => ({ shard: b.id.shard, block: saved(b) })),
          libs: this.engine.libs ?? null,
          lastUtime: mc.genUtime,
          inFlight: this.inFlightCells(),
        });
      } catch (err) {
        this.broken = new Error(
          `the local chain stopped: block ${mc.id.seqno} could not be journaled (${err instanceof Error ? err.message : String(err)})`,
        );
        this.logger?.error({ err: this.broken.message }, 'localnet: journal append failed');
        throw this.broken;
      }
      // A message of this round whose own record failed meanwhile (its flush is awaited outside
      // the queue): the chain stopped, the round stays unseen.
      if (this.broken) throw this.broken;
    }
    for (const block of sealed.shards) this.store.add(block);
    this.store.add(mc);
    this.live.history.record(mc.id, mc.endLt, mc.keyBlock);
    dropOutsideWindow(this.store, this.live.history, this.keepBlocks);
    this.live.lastUtime = mc.genUtime;
    this.live.lastEndLt = mc.endLt;
    this.engine.advanceLtTo(mc.endLt);
    this.engine.prevBlocks = this.live.history.prevBlocksInfo(this.store, mc.id.seqno);
    this.events.emit('block', mc);
    return mc;
  }

  /**
   * Everything needed to resume this chain: blocks and states (cells), the configuration and
   * libraries, and the validator key. Seals first if executed transactions are waiting.
   */
  snapshot(onCaptured?: (snap: ChainSnapshot) => Promise<void>): Promise<ChainSnapshot> {
    return this.exclusive(async () => {
      if (this.live.pending.length > 0) await this.sealLocked();
      const snap: ChainSnapshot = { ...snapshotOf(this.live, this.validator.seed), inFlight: this.inFlightCells() };
      // Before any later block: a save starts its journal exactly at the snapshot's head.
      await onCaptured?.(snap);
      return snap;
    });
  }

  /** Resumes a chain from `snapshot()`: same blocks, states, keys and accounts. */
  static async restore(snap: ChainSnapshot, opts: LocalChainOptions = {}): Promise<LocalChain> {
    const emulator = createEmulator();
    emulator.catch(() => undefined); // awaited below; a failure meanwhile must not leave it unhandled
    const validator = new LocalValidator(snap.validatorSeed);
    const config = localConfigFromRoot(snap.config);
    const engine = await SandboxEngine.create(config.root, await emulator);
    const chain = new LocalChain(
      engine,
      validator,
      config,
      {
        masterchain: zeroStateOf(MASTERCHAIN, snap.zeroStates.masterchain),
        basechain: zeroStateOf(BASECHAIN, snap.zeroStates.basechain),
      },
      snap.basechain.map((chain) => chain.shard),
      opts.blockIntervalMs ?? 1000,
      snap.lastUtime,
      opts.getMethodGasLimit ?? 1_000_000n,
      opts.keepBlocks ?? DEFAULT_KEEP_BLOCKS,
      opts.logger,
      ChainClock.resumingAt(snap.lastUtime),
      opts.crossShardDelay,
    );
    addRestoredRounds(chain.live, snap, validator);
    chain.inFlight = (snap.inFlight ?? []).map(({ message, dueRound }) => ({
      message: chain.engine.restoreHeldMessage(message),
      dueRound,
    }));
    dropOutsideWindow(chain.store, chain.live.history, chain.keepBlocks);
    await loadHeadAccounts(chain.live, snap.libs ?? undefined);
    return chain;
  }

  /**
   * An in-memory snapshot (POST /localnet/snapshot): references to the sealed blocks and the
   * history, so it costs little. Seals first if executed transactions are waiting.
   */
  captureState(): Promise<ChainState> {
    return this.exclusive(async () => {
      if (this.live.pending.length > 0) await this.sealLocked();
      return captureState(this.live);
    });
  }

  /**
   * Puts the chain back to a `captureState()` in place, while the lite server goes on serving
   * (see restoreState in memorySnapshot.ts); waiters learn of it through the 'rewind' event.
   */
  restoreState(state: ChainState, onRestored?: (snap: ChainSnapshot) => Promise<void>): Promise<StoredBlock> {
    return this.exclusive(async () => {
      await restoreState(this.live, state);
      // Messages in flight belong to the forgotten blocks' cascades.
      this.inFlight = [];
      this.engine.takeHeld();
      // The rewound chain is made durable (a new save) before anything can be sealed on it.
      try {
        await onRestored?.(snapshotOf(this.live, this.validator.seed));
      } catch (err) {
        this.broken = new Error(
          `the local chain stopped: its restored state could not be saved (${err instanceof Error ? err.message : String(err)})`,
        );
        throw this.broken;
      }
      const head = this.lastMasterchainBlock();
      this.events.emit('rewind', head);
      return head;
    });
  }

  /** Test/bench hook: account leaf count per workchain. */
  accountCount(workchain: number): number {
    let count = 0;
    for (const [key, dict] of this.live.accounts) if (key.startsWith(`${workchain}:`)) count += dict.size;
    return count;
  }
}
