import {
  Address,
  beginCell,
  Cell,
  CurrencyCollection,
  Dictionary,
  loadMessage,
  loadShardAccount,
  loadTransaction,
  Message,
  parseTuple,
  StateInit,
  TupleItem,
} from '@ton/core';
import { defaultConfig, PrevBlocksInfo } from '@ton/sandbox';
import { randomBytes } from 'crypto';
import { EventEmitter } from 'events';
import { LocalnetLogger } from '../adnl/logger';
import { dictLookupPath, forEachDictLeaf, serializeBoc } from '../cells';
import { ExtBlkRef, loadBlockInfo, loadCurrencyCollection, McStateExtra } from '../../tlb';
import {
  AccountsDict,
  buildAccountBlocks,
  buildBlock,
  buildLibraries,
  buildShardHashes,
  buildState,
  EMPTY_SHARD_FEES,
  emptyAccounts,
  emptyPrevBlocks,
  PrevBlocksDict,
  sha256,
  shardAccountBalance,
  shardDescrFor,
} from './builder';
import { buildLocalConfig, LocalConfig, localConfigFromRoot, withBasechainZeroState } from './config';
import { ExternalMessageRejectedError, InvalidExternalMessageError, WaitTimeoutError } from './errors';
import { BASECHAIN, BlockId, extBlkRef, FULL_SHARD, MASTERCHAIN } from './ids';
import { ExecutedTransaction, SandboxEngine } from './sandboxAdapter';
import { BlockStore, StoredBlock, StoredTransaction, ZeroState } from './store';
import { LocalValidator } from './validator';

export interface LocalChainOptions {
  /** Seal an (often empty) block this often; 0 disables the timer. Default 1000. */
  blockIntervalMs?: number;
  /** 32-byte seed of the validator key that signs masterchain blocks. Default: random. */
  validatorSeed?: Buffer;
  /** Gas limit of get-methods run for runSmcMethod. Default 1 000 000. */
  getMethodGasLimit?: bigint;
  logger?: LocalnetLogger;
}

/** A genesis account deployed by an internal message from the zero address. */
export interface GenesisAccount {
  address: Address;
  init: StateInit;
  balance: bigint;
}

export interface GetMethodRun {
  exitCode: number;
  /** Serialized result VmStack (BoC), null when the account has no code to run. */
  stack: Buffer | null;
  gasUsed: bigint;
}

/**
 * Global balance reported in McStateExtra. ton-lite-client's `getConfig` can only parse it in
 * [2^56, 2^62) nanotons (a @ton/core parser defect), so it is a fixed 5e17 rather than a sum.
 */
export const GLOBAL_BALANCE = 500_000_000_000_000_000n;
/** Each block advances lt by at least this much; sandbox steps by 1e6 per transaction. */
const LT_STEP = 1_000_000n;
const GENESIS_SOURCE = new Address(MASTERCHAIN, Buffer.alloc(32));

/**
 * The embedded chain: @ton/sandbox executes messages; sealed blocks, states and proofs live in
 * an immutable block store that the lite-server handlers read. One masterchain and one
 * basechain shard (0x8000000000000000); every seal produces one block of each.
 */
export class LocalChain {
  readonly store = new BlockStore();
  readonly getMethodGasLimit: bigint;
  private readonly events = new EventEmitter();
  private accounts = new Map<number, AccountsDict>();
  private prevBlocks: PrevBlocksDict = emptyPrevBlocks();
  private pending: ExecutedTransaction[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  private lastUtime: number;
  private lastEndLt = 0n;
  private lastKeyBlock: { seqno: number; ref: ExtBlkRef; id: BlockId };
  private libsHash = '';
  private librariesRoot: Cell | null = null;
  private libraryMap = new Map<string, Cell>();
  private timer: NodeJS.Timeout | null = null;
  private sealQueued = false;
  private stopped = false;

  private constructor(
    private readonly engine: SandboxEngine,
    readonly validator: LocalValidator,
    private configValue: LocalConfig,
    private readonly blockIntervalMs: number,
    genesisUtime: number,
    getMethodGasLimit: bigint,
    private readonly logger: LocalnetLogger | undefined,
  ) {
    this.lastUtime = genesisUtime;
    this.getMethodGasLimit = getMethodGasLimit;
    this.events.setMaxListeners(0);
    this.lastKeyBlock = {
      seqno: 0,
      ref: { endLt: 0n, seqno: 0, rootHash: Buffer.alloc(32), fileHash: Buffer.alloc(32) },
      id: {} as BlockId,
    };
  }

  /** Builds both zerostates. No block exists until the first `seal()`. */
  static async create(opts: LocalChainOptions = {}): Promise<LocalChain> {
    const validator = new LocalValidator(opts.validatorSeed ?? randomBytes(32));
    const now = unixNow();
    let config = buildLocalConfig(Cell.fromBase64(defaultConfig), validator, now);
    const engine = await SandboxEngine.create(config.root);
    const chain = new LocalChain(
      engine,
      validator,
      config,
      opts.blockIntervalMs ?? 1000,
      now,
      opts.getMethodGasLimit ?? 1_000_000n,
      opts.logger,
    );
    chain.accounts.set(BASECHAIN, emptyAccounts());
    chain.accounts.set(MASTERCHAIN, emptyAccounts());

    const basechainState = buildState({
      globalId: config.globalId,
      workchain: BASECHAIN,
      seqno: 0,
      genUtime: now,
      genLt: 0n,
      minRefMcSeqno: 0,
      accounts: emptyAccounts(),
      libraries: null,
      masterRef: null,
      mcExtra: null,
    });
    const basechainZero = zeroStateOf(BASECHAIN, basechainState);
    chain.store.setZeroState(basechainZero);

    config = withBasechainZeroState(config, basechainZero.id.rootHash, basechainZero.id.fileHash);
    chain.configValue = config;
    engine.setConfig(config.root);

    const mcState = buildState({
      globalId: config.globalId,
      workchain: MASTERCHAIN,
      seqno: 0,
      genUtime: now,
      genLt: 0n,
      minRefMcSeqno: 0,
      accounts: emptyAccounts(),
      libraries: null,
      masterRef: null,
      mcExtra: chain.mcStateExtra(
        buildShardHashes(shardDescrFor(basechainZero.id, { startLt: 0n, endLt: 0n, genUtime: now, minRefMcSeqno: 0 }, 0)),
        true,
        null,
      ),
    });
    const mcZero = zeroStateOf(MASTERCHAIN, mcState);
    chain.store.setZeroState(mcZero);
    const zeroRef = extBlkRef(mcZero.id, 0n);
    chain.prevBlocks = chain.prevBlocks.set(0n, { key: true, blkRef: zeroRef }, { key: true, maxEndLt: 0n });
    chain.lastKeyBlock = { seqno: 0, ref: zeroRef, id: mcZero.id };
    return chain;
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

  /** The basechain block registered by a masterchain block (its shard top). */
  shardTopOf(mcBlock: StoredBlock): StoredBlock {
    if (!mcBlock.shardTop) throw new Error('not a masterchain block');
    const top = this.store.byId(mcBlock.shardTop);
    if (!top) throw new Error('shard top block missing from the store');
    return top;
  }

  /** Public libraries known to the latest masterchain state, by hex hash. */
  get libraries(): ReadonlyMap<string, Cell> {
    return this.libraryMap;
  }

  /** Starts the block timer (no-op when blockIntervalMs is 0). */
  start(): void {
    if (this.timer || this.blockIntervalMs <= 0 || this.stopped) return;
    this.timer = setInterval(() => {
      if (this.sealQueued || this.stopped) return;
      this.sealQueued = true;
      this.seal()
        .catch((err: unknown) =>
          this.logger?.error({ err: err instanceof Error ? err.message : String(err) }, 'localnet: timed seal failed'),
        )
        .finally(() => {
          this.sealQueued = false;
        });
    }, this.blockIntervalMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for queued work. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.queue.catch(() => undefined);
  }

  onBlock(listener: (block: StoredBlock) => void): () => void {
    this.events.on('block', listener);
    return () => this.events.off('block', listener);
  }

  /** Resolves once the masterchain reaches `seqno`; rejects with WaitTimeoutError after `timeoutMs`. */
  waitForMasterchainSeqno(seqno: number, timeoutMs: number): Promise<void> {
    if (this.store.height(MASTERCHAIN) >= seqno) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const off = this.onBlock((block) => {
        if (block.id.seqno >= seqno) {
          clearTimeout(timer);
          off();
          resolve();
        }
      });
      const timer = setTimeout(() => {
        off();
        reject(new WaitTimeoutError(seqno));
      }, timeoutMs);
    });
  }

  /**
   * Deploys accounts with exact balances (fees of the deploying internal message are added on
   * top, measured by a dry run). They land in the next sealed block.
   */
  async deployGenesis(entries: readonly GenesisAccount[]): Promise<void> {
    await this.exclusive(async () => {
      this.engine.now = this.executionTime();
      // Dry runs roll sandbox back through its snapshots, which re-serialize every known
      // account; they are only safe while no account exists yet.
      const pristine = this.store.height(MASTERCHAIN) === 0 && this.pending.length === 0;
      const feeByCode = new Map<string, bigint>();
      for (const entry of entries) {
        const codeKey = entry.init.code?.hash().toString('hex') ?? '';
        if (feeByCode.has(codeKey)) continue;
        feeByCode.set(codeKey, pristine ? await this.engine.dryRunInternalFees(this.genesisMessage(entry, entry.balance)) : 0n);
      }
      for (const entry of entries) {
        const fee = feeByCode.get(entry.init.code?.hash().toString('hex') ?? '') ?? 0n;
        const txs = await this.engine.sendInternal(this.genesisMessage(entry, entry.balance + fee));
        this.pending.push(...txs);
      }
    });
  }

  /**
   * Executes an inbound external message at once and seals a block with its whole cascade.
   * Throws InvalidExternalMessageError or ExternalMessageRejectedError (nothing changed then).
   */
  async sendExternalMessage(boc: Buffer): Promise<StoredBlock> {
    let cell: Cell;
    try {
      const roots = Cell.fromBoc(boc);
      if (roots.length !== 1) throw new Error('expected exactly one root');
      cell = roots[0];
      const info = loadMessage(cell.beginParse()).info;
      if (info.type !== 'external-in') throw new Error('not an inbound external message');
    } catch (err) {
      throw new InvalidExternalMessageError(err instanceof Error ? err.message : String(err));
    }
    return this.exclusive(async () => {
      this.engine.now = this.executionTime();
      const result = await this.engine.sendExternal(cell);
      if (!result.accepted) throw new ExternalMessageRejectedError(result.reason, result.exitCode);
      this.pending.push(...result.transactions);
      return this.sealLocked();
    });
  }

  /** Adds a public library to the masterchain state (visible after the next seal). */
  async addLibrary(code: Cell): Promise<void> {
    await this.exclusive(async () => {
      const keyType = Dictionary.Keys.Buffer(32);
      const valueType = Dictionary.Values.Cell();
      const current = this.engine.libs;
      const dict = current ? current.beginParse().loadDictDirect(keyType, valueType) : Dictionary.empty(keyType, valueType);
      dict.set(code.hash(), code);
      this.engine.libs = beginCell().storeDictDirect(dict).endCell();
    });
  }

  /** Seals one basechain block and one masterchain block with everything executed since the last seal. */
  seal(): Promise<StoredBlock> {
    return this.exclusive(() => this.sealLocked());
  }

  /** Runs a get-method against the account as of `state` (a ShardStateUnsplit of a sealed block). */
  async runGetMethod(args: {
    state: Cell;
    genUtime: number;
    mcSeqno: number;
    address: Address;
    methodId: number;
    params: Buffer;
  }): Promise<GetMethodRun> {
    const leaf = accountLeaf(args.state, args.address);
    if (!leaf) return { exitCode: -256, stack: null, gasUsed: 0n };
    const shardAccount = loadShardAccount(leaf);
    const account = shardAccount.account;
    if (!account || account.storage.state.type !== 'active') return { exitCode: -256, stack: null, gasUsed: 0n };
    const { code, data } = account.storage.state.state;
    if (!code || !data) return { exitCode: -256, stack: null, gasUsed: 0n };
    const stack: TupleItem[] = args.params.length > 0 ? parseTuple(Cell.fromBoc(args.params)[0]) : [];
    const extraCurrency: Record<number, bigint> = {};
    for (const [id, amount] of account.storage.balance.other ?? []) extraCurrency[id] = amount;
    const res = await this.engine.executor.runGetMethod({
      code,
      data,
      methodId: args.methodId,
      stack,
      config: this.engine.configBase64,
      verbosity: 'short',
      libs: this.engine.libs,
      address: args.address,
      unixTime: args.genUtime,
      balance: account.storage.balance.coins,
      randomSeed: Buffer.alloc(32),
      gasLimit: this.getMethodGasLimit,
      debugEnabled: false,
      extraCurrency,
      prevBlocksInfo: this.prevBlocksInfo(args.mcSeqno),
    });
    if (!res.output.success) throw new Error(`cannot run get-method: ${res.output.error}`);
    return {
      exitCode: res.output.vm_exit_code,
      stack: Buffer.from(res.output.stack, 'base64'),
      gasUsed: BigInt(res.output.gas_used),
    };
  }

  private genesisMessage(entry: GenesisAccount, value: bigint): Message {
    return {
      info: {
        type: 'internal',
        ihrDisabled: true,
        bounce: false,
        bounced: false,
        src: GENESIS_SOURCE,
        dest: entry.address,
        value: { coins: value },
        ihrFee: 0n,
        forwardFee: 0n,
        createdLt: 0n,
        createdAt: 0,
      },
      init: entry.init,
      body: Cell.EMPTY,
    };
  }

  /** Unix time for the next execution: wall clock, never behind the last block. */
  private executionTime(): number {
    return Math.max(this.lastUtime, unixNow());
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async sealLocked(): Promise<StoredBlock> {
    const txs = this.pending;
    this.pending = [];
    await this.applyAccountChanges(txs);
    this.refreshLibraries();

    const prevMc = this.store.last(MASTERCHAIN);
    const prevShard = this.store.last(BASECHAIN);
    const mcZero = this.store.zeroState(MASTERCHAIN);
    const shardZero = this.store.zeroState(BASECHAIN);
    const seqno = (prevMc?.id.seqno ?? 0) + 1;
    const genUtime = Math.max(this.lastUtime, unixNow(), ...txs.map((t) => t.now));
    const startLt = this.lastEndLt;
    const engineLt = this.engine.lt;
    const endLt = (engineLt > startLt ? engineLt : startLt) + LT_STEP;
    const keyBlock = seqno === 1;
    const cfg = this.configValue;
    const prevMcRef = prevMc ? extBlkRef(prevMc.id, prevMc.endLt) : extBlkRef(mcZero.id, 0n);
    const common = {
      globalId: cfg.globalId,
      seqno,
      genUtime,
      startLt,
      endLt,
      genSoftware: cfg.globalVersion,
      validatorListHashShort: this.validator.validatorSetHash(0),
      catchainSeqno: 0,
      createdBy: this.validator.publicKey,
      prevKeyBlockSeqno: this.lastKeyBlock.seqno,
    };

    // Basechain block first: the masterchain block registers it.
    const shardAccounts = this.accounts.get(BASECHAIN) as AccountsDict;
    const shardState = buildState({
      globalId: cfg.globalId,
      workchain: BASECHAIN,
      seqno,
      genUtime,
      genLt: endLt,
      minRefMcSeqno: seqno - 1,
      accounts: shardAccounts,
      libraries: null,
      masterRef: prevMcRef,
      mcExtra: null,
    });
    const shardTxs = buildAccountBlocks(txs.filter((t) => t.workchain === BASECHAIN));
    const prevShardState = prevShard ? prevShard.state : shardZero.state;
    const shardBlock = buildBlock({
      ...common,
      workchain: BASECHAIN,
      prev: prevShard ? extBlkRef(prevShard.id, prevShard.endLt) : extBlkRef(shardZero.id, 0n),
      masterRef: prevMcRef,
      minRefMcSeqno: seqno - 1,
      keyBlock: false,
      randSeed: randomBytes(32),
      prevState: prevShardState,
      newState: shardState,
      prevTotalBalance: totalBalanceOf(prevShard, shardZero),
      newTotalBalance: shardAccounts.extra,
      accountBlocks: shardTxs.cell,
      mcExtra: null,
    });
    const shardId: BlockId = {
      workchain: BASECHAIN,
      shard: FULL_SHARD,
      seqno,
      rootHash: shardBlock.root.hash(),
      fileHash: shardBlock.fileHash,
    };

    const shardHashes = buildShardHashes(shardDescrFor(shardId, { startLt, endLt, genUtime, minRefMcSeqno: seqno - 1 }, seqno));
    const mcAccounts = this.accounts.get(MASTERCHAIN) as AccountsDict;
    const mcState = buildState({
      globalId: cfg.globalId,
      workchain: MASTERCHAIN,
      seqno,
      genUtime,
      genLt: endLt,
      minRefMcSeqno: seqno - 1,
      accounts: mcAccounts,
      libraries: this.librariesRoot,
      masterRef: null,
      mcExtra: this.mcStateExtra(shardHashes, keyBlock, this.lastKeyBlock.ref),
    });
    const mcTxs = buildAccountBlocks(txs.filter((t) => t.workchain === MASTERCHAIN));
    const mcBlock = buildBlock({
      ...common,
      workchain: MASTERCHAIN,
      prev: prevMcRef,
      masterRef: null,
      minRefMcSeqno: seqno - 1,
      keyBlock,
      randSeed: randomBytes(32),
      prevState: prevMc ? prevMc.state : mcZero.state,
      newState: mcState,
      prevTotalBalance: totalBalanceOf(prevMc, mcZero),
      newTotalBalance: mcAccounts.extra,
      accountBlocks: mcTxs.cell,
      mcExtra: {
        keyBlock,
        shardHashes: { root: shardHashes },
        shardFees: EMPTY_SHARD_FEES,
        prevBlkSignatures: { root: null },
        recoverCreateMsg: null,
        mintMsg: null,
        config: keyBlock ? { configAddr: cfg.configAddr, config: cfg.root } : null,
      },
    });
    const mcId: BlockId = { workchain: MASTERCHAIN, shard: FULL_SHARD, seqno, rootHash: mcBlock.root.hash(), fileHash: mcBlock.fileHash };

    const storedShard: StoredBlock = {
      id: shardId,
      root: shardBlock.root,
      genUtime,
      startLt,
      endLt,
      keyBlock: false,
      prevKeyBlockSeqno: this.lastKeyBlock.seqno,
      state: shardState,
      transactions: shardTxs.ordered.map((t) => storedTx(t, shardId)),
      masterchainSeqno: seqno,
      shardTop: null,
      signature: null,
    };
    const storedMc: StoredBlock = {
      id: mcId,
      root: mcBlock.root,
      genUtime,
      startLt,
      endLt,
      keyBlock,
      prevKeyBlockSeqno: this.lastKeyBlock.seqno,
      state: mcState,
      transactions: mcTxs.ordered.map((t) => storedTx(t, mcId)),
      masterchainSeqno: seqno,
      shardTop: shardId,
      signature: this.validator.signBlock(mcId.rootHash, mcId.fileHash),
    };
    this.store.add(storedShard);
    this.store.add(storedMc);

    const mcRef = extBlkRef(mcId, endLt);
    this.prevBlocks = this.prevBlocks.set(BigInt(seqno), { key: keyBlock, blkRef: mcRef }, { key: keyBlock, maxEndLt: endLt });
    if (keyBlock) this.lastKeyBlock = { seqno, ref: mcRef, id: mcId };
    this.lastUtime = genUtime;
    this.lastEndLt = endLt;
    this.engine.advanceLtTo(endLt);
    this.engine.prevBlocks = this.prevBlocksInfo(seqno);
    this.events.emit('block', storedMc);
    return storedMc;
  }

  private mcStateExtra(shardHashes: Cell, afterKeyBlock: boolean, lastKeyBlock: ExtBlkRef | null): McStateExtra {
    return {
      shardHashes: { root: shardHashes },
      config: { configAddr: this.configValue.configAddr, config: this.configValue.root },
      flags: 0,
      validatorInfo: { validatorListHashShort: this.validator.validatorSetHash(0), catchainSeqno: 0, nxCcUpdated: false },
      prevBlocks: { root: this.prevBlocks.rootCell(), extra: this.prevBlocks.extra },
      afterKeyBlock,
      lastKeyBlock,
      globalBalance: { coins: GLOBAL_BALANCE },
    };
  }

  private async applyAccountChanges(txs: readonly ExecutedTransaction[]): Promise<void> {
    const touched = new Map<string, { workchain: number; address: Buffer }>();
    for (const tx of txs) touched.set(`${tx.workchain}:${tx.address.toString('hex')}`, tx);
    for (const { workchain, address } of touched.values()) {
      const dict = this.accounts.get(workchain);
      if (!dict) throw new Error(`transactions in unsupported workchain ${workchain}`);
      const cell = await this.engine.shardAccountCell(new Address(workchain, address));
      const balance = shardAccountBalance(cell);
      const key = BigInt('0x' + address.toString('hex'));
      this.accounts.set(workchain, balance ? dict.set(key, cell, balance) : dict.delete(key));
    }
  }

  private refreshLibraries(): void {
    const libs = this.engine.libs;
    const hash = libs ? libs.hash().toString('hex') : '';
    if (hash === this.libsHash) return;
    this.libsHash = hash;
    const map = new Map<string, Cell>();
    if (libs) {
      const dict = libs.beginParse().loadDictDirect(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
      for (const [key, lib] of dict) map.set(key.toString('hex'), lib);
    }
    this.libraryMap = map;
    this.librariesRoot = buildLibraries(map, this.configValue.configAddr);
  }

  /** c7's PrevBlocksInfo as of masterchain block `seqno`: the last 16 blocks and the last key block. */
  private prevBlocksInfo(seqno: number): PrevBlocksInfo | undefined {
    const last: BlockId[] = [];
    for (let s = seqno; s >= 1 && last.length < 16; s--) {
      const b = this.store.bySeqno(MASTERCHAIN, s);
      if (b) last.push(b.id);
    }
    if (last.length === 0) return undefined;
    let key = this.lastKeyBlock.id;
    for (let s = seqno; s >= 1; s--) {
      const b = this.store.bySeqno(MASTERCHAIN, s);
      if (b?.keyBlock) {
        key = b.id;
        break;
      }
    }
    return { lastMcBlocks: last, prevKeyBlock: key };
  }

  /**
   * Everything needed to resume this chain: blocks and states (cells), the configuration and
   * libraries, and the validator key. Seals first if executed transactions are waiting.
   */
  snapshot(): Promise<ChainSnapshot> {
    return this.exclusive(async () => {
      if (this.pending.length > 0) await this.sealLocked();
      const blocks = (wc: number) => this.store.blocks(wc).map((b) => ({ root: b.root, state: b.state, fileHash: b.id.fileHash }));
      return {
        validatorSeed: this.validator.seed,
        config: this.configValue.root,
        zeroStates: { masterchain: this.store.zeroState(MASTERCHAIN).state, basechain: this.store.zeroState(BASECHAIN).state },
        masterchain: blocks(MASTERCHAIN),
        basechain: blocks(BASECHAIN),
        libs: this.engine.libs ?? null,
        lastUtime: this.lastUtime,
      };
    });
  }

  /** Resumes a chain from `snapshot()`: same blocks, states, keys and accounts. */
  static async restore(snap: ChainSnapshot, opts: LocalChainOptions = {}): Promise<LocalChain> {
    const validator = new LocalValidator(snap.validatorSeed);
    const config = localConfigFromRoot(snap.config);
    const engine = await SandboxEngine.create(config.root);
    const chain = new LocalChain(
      engine,
      validator,
      config,
      opts.blockIntervalMs ?? 1000,
      snap.lastUtime,
      opts.getMethodGasLimit ?? 1_000_000n,
      opts.logger,
    );
    const mcZero = zeroStateOf(MASTERCHAIN, snap.zeroStates.masterchain);
    chain.store.setZeroState(mcZero);
    chain.store.setZeroState(zeroStateOf(BASECHAIN, snap.zeroStates.basechain));
    const zeroRef = extBlkRef(mcZero.id, 0n);
    chain.prevBlocks = chain.prevBlocks.set(0n, { key: true, blkRef: zeroRef }, { key: true, maxEndLt: 0n });
    chain.lastKeyBlock = { seqno: 0, ref: zeroRef, id: mcZero.id };
    if (snap.masterchain.length !== snap.basechain.length) throw new Error('snapshot chains have different heights');
    for (let i = 0; i < snap.masterchain.length; i++) {
      const shard = restoredBlock(BASECHAIN, snap.basechain[i], null, null);
      const mcSaved = snap.masterchain[i];
      const mc = restoredBlock(MASTERCHAIN, mcSaved, shard.id, validator.signBlock(mcSaved.root.hash(), mcSaved.fileHash));
      chain.store.add(shard);
      chain.store.add(mc);
      const ref = extBlkRef(mc.id, mc.endLt);
      chain.prevBlocks = chain.prevBlocks.set(
        BigInt(mc.id.seqno),
        { key: mc.keyBlock, blkRef: ref },
        { key: mc.keyBlock, maxEndLt: mc.endLt },
      );
      if (mc.keyBlock) chain.lastKeyBlock = { seqno: mc.id.seqno, ref, id: mc.id };
      chain.lastEndLt = mc.endLt;
    }
    const restored: { address: Address; shardAccount: Cell; lastTxTime: number }[] = [];
    for (const wc of [MASTERCHAIN, BASECHAIN]) {
      const state = chain.store.last(wc)?.state ?? chain.store.zeroState(wc).state;
      let dict = emptyAccounts();
      const container = state.refs[1].beginParse();
      forEachDictLeaf(container.loadBit() ? container.loadRef() : null, 256, (key, leaf) => {
        leaf.skip(5);
        const balance = loadCurrencyCollection(leaf);
        const shardAccount = leaf.asCell();
        dict = dict.set(key, shardAccount, balance);
        const lastPaid = loadShardAccount(shardAccount.beginParse()).account?.storageStats.lastPaid ?? 0;
        restored.push({
          address: new Address(wc, Buffer.from(key.toString(16).padStart(64, '0'), 'hex')),
          shardAccount,
          lastTxTime: lastPaid,
        });
      });
      chain.accounts.set(wc, dict);
    }
    await engine.restore(restored, chain.lastEndLt, snap.libs ?? undefined);
    chain.refreshLibraries();
    if (chain.store.height(MASTERCHAIN) > 0) engine.prevBlocks = chain.prevBlocksInfo(chain.store.height(MASTERCHAIN));
    return chain;
  }

  /** Test/bench hook: account leaf count per workchain. */
  accountCount(workchain: number): number {
    return this.accounts.get(workchain)?.size ?? 0;
  }
}

/** What `LocalChain.snapshot()` returns and `LocalChain.restore()` takes. */
export interface ChainSnapshot {
  validatorSeed: Buffer;
  config: Cell;
  zeroStates: { masterchain: Cell; basechain: Cell };
  masterchain: SavedBlock[];
  basechain: SavedBlock[];
  libs: Cell | null;
  lastUtime: number;
}

export interface SavedBlock {
  root: Cell;
  state: Cell;
  fileHash: Buffer;
}

/** A StoredBlock rebuilt from its cells: header fields from BlockInfo, transactions from account_blocks. */
function restoredBlock(workchain: number, saved: SavedBlock, shardTop: BlockId | null, signature: Buffer | null): StoredBlock {
  const info = loadBlockInfo(saved.root.refs[0].beginParse());
  const id: BlockId = { workchain, shard: FULL_SHARD, seqno: info.seqno, rootHash: saved.root.hash(), fileHash: saved.fileHash };
  const transactions: StoredTransaction[] = [];
  const container = saved.root.refs[3].refs[2].beginParse();
  forEachDictLeaf(container.loadBit() ? container.loadRef() : null, 256, (_, accountBlock) => {
    loadCurrencyCollection(accountBlock);
    accountBlock.skip(4 + 256);
    forEachDictLeaf(accountBlock, 64, (__, txLeaf) => {
      loadCurrencyCollection(txLeaf);
      const cell = txLeaf.loadRef();
      const tx = loadTransaction(cell.beginParse());
      transactions.push({
        workchain,
        address: Buffer.from(tx.address.toString(16).padStart(64, '0'), 'hex'),
        lt: tx.lt,
        hash: cell.hash(),
        cell,
        prevLt: tx.prevTransactionLt,
        prevHash: Buffer.from(tx.prevTransactionHash.toString(16).padStart(64, '0'), 'hex'),
        block: id,
      });
    });
  });
  return {
    id,
    root: saved.root,
    genUtime: info.genUtime,
    startLt: info.startLt,
    endLt: info.endLt,
    keyBlock: info.keyBlock,
    prevKeyBlockSeqno: info.prevKeyBlockSeqno,
    state: saved.state,
    transactions,
    masterchainSeqno: info.seqno,
    shardTop,
    signature,
  };
}

function zeroStateOf(workchain: number, state: Cell): ZeroState {
  const boc = serializeBoc([state]);
  return { id: { workchain, shard: FULL_SHARD, seqno: 0, rootHash: state.hash(), fileHash: sha256(boc) }, state, boc };
}

function storedTx(t: ExecutedTransaction, block: BlockId): StoredTransaction {
  return {
    workchain: t.workchain,
    address: t.address,
    lt: t.lt,
    hash: t.hash,
    cell: t.cell,
    prevLt: t.prevLt,
    prevHash: t.prevHash,
    block,
  };
}

function totalBalanceOf(prev: StoredBlock | undefined, zero: ZeroState): CurrencyCollection {
  const state = prev ? prev.state : zero.state;
  const s = state.refs[2].beginParse();
  s.skip(128);
  return { coins: s.loadCoins() };
}

/** The ShardAccount leaf slice of `address` in a ShardStateUnsplit, or null when absent. */
export function accountLeaf(state: Cell, address: Address) {
  const accounts = state.refs[1].beginParse();
  const root = accounts.loadBit() ? accounts.loadRef() : null;
  const path = dictLookupPath(root, 256, BigInt('0x' + address.hash.toString('hex')));
  if (!path.value) return null;
  // Skip the DepthBalanceInfo extra: split_depth (5 bits) then the CurrencyCollection.
  const leaf = path.value;
  leaf.skip(5);
  leaf.loadCoins();
  leaf.loadMaybeRef();
  return leaf;
}

function unixNow(): number {
  return Math.floor(Date.now() / 1000);
}
