/**
 * The only module that knows @ton/sandbox internals. The chain uses sandbox purely as a
 * transaction executor: it never reads blocks or histories from it (sandbox has none), and
 * never calls `Blockchain.getTransactions` (it reverses a shared array in place).
 *
 * Internals touched here, pinned to @ton/sandbox 0.41.0:
 * - `currentLt` (protected): the next block must start above the previous block's end_lt;
 * - `prevBlocksInfo` (protected): read without the getter's deep copy (sharePrevBlocks);
 * - `networkConfig` (protected): a scratch sandbox for fee dry runs gets the very config text, so
 *   the executor keeps its emulator (it holds one, made again whenever the config text changes);
 * - `transactions` (protected): sandbox keeps every transaction forever; cleared after use;
 * - `defaultQueueManager.messageQueue` (private): an EmulationError in the middle of a
 *   cascade leaves the rest of the cascade queued, and the next send would run it first;
 * - `Executor.runTransaction/runTickTock/runCommon`: wrapped so c7's PrevBlocksInfo is
 *   serialized once per block instead of once per transaction (see cachePrevBlocksInfo);
 * - `SmartContract._account` (private): the emulator's exact ShardAccount BoC. Re-serializing
 *   the parsed account with @ton/core could change the Account hash, which must equal the
 *   last transaction's `state_update.new_hash`.
 * - `Executor.runTransaction`'s `message`: sandbox queues an out message as a parsed @ton/core
 *   Message and hands the receiver `storeMessage(message)`, which inlines a StateInit or body the
 *   sender put in a reference (FunC contracts do: a jetton minter's deploy of a wallet, an NFT
 *   collection's of an item). The receiver would then get a different cell than the sender sent,
 *   with another hash: the chain's InMsgDescr would not match the OutMsgDescr and an indexer could
 *   not link the two transactions (their trace would stay pending forever). The exact cells are
 *   kept (ExactMessages) and put back in the executor's arguments, as a validator delivers them.
 */
import {
  Address,
  beginCell,
  Cell,
  CurrencyCollection,
  Dictionary,
  loadMessage,
  loadShardAccount,
  ShardAccount,
  storeMessage,
  storeShardAccount,
  Message,
  Transaction,
} from '@ton/core';
import { CellInterner } from '../../cells';
import { createEmulator } from '../../tvm';
import { Blockchain, BlockchainTransaction, EmulationError, Executor, IExecutor, PrevBlocksInfo } from '@ton/sandbox';

/** One transaction as the chain needs it: exact cell plus the fields blocks are built from. */
export interface ExecutedTransaction {
  workchain: number;
  address: Buffer;
  lt: bigint;
  hash: Buffer;
  cell: Cell;
  now: number;
  totalFees: CurrencyCollection;
  oldStateHash: Buffer;
  newStateHash: Buffer;
  prevLt: bigint;
  prevHash: Buffer;
  /** The inbound message cell; null for tick-tock transactions. */
  inMessage: Cell | null;
  /** Outbound message cells, in out_msgs order. */
  outMessages: Cell[];
}

export type ExternalResult =
  { accepted: true; transactions: ExecutedTransaction[] } | { accepted: false; reason: string; exitCode: number | null };

/** An entry of sandbox's message queue (MessageQueueManager), as far as the chain reads it. */
interface QueuedEntry {
  type: 'message' | 'ticktock';
  info?: Message['info'];
}

/**
 * An internal message held back from its cascade (a cross-shard delay): delivered in a later
 * round by `deliverHeld`. `message` is what sandbox queued (a @ton/core Message).
 */
export interface HeldMessage {
  readonly message: Message;
}

interface BlockchainInternals {
  currentLt: bigint;
  /** The config BoC as base64, what every emulator call is given. */
  networkConfig: string;
  transactions: BlockchainTransaction[];
  defaultQueueManager: { messageQueue: QueuedEntry[] };
  storage: { knownContracts(): SmartContractInternals[] };
}

type RunArgs = { prevBlocksInfo?: PrevBlocksInfo; message?: Cell };

interface ExecutorInternals {
  runTransaction(args: RunArgs): Promise<unknown>;
  runTickTock(args: RunArgs): Promise<unknown>;
  /** [emulator, libs, shardAccount, message, params JSON]. */
  runCommon(args: unknown[]): unknown;
}

/**
 * Sandbox turns the PrevBlocksInfo (16 masterchain block ids and the key block) into a tuple BoC
 * for every transaction, a quarter of a seal's time. It only changes once per block, so the first
 * serialization of a value is taken from the params JSON and put back into the JSON of the next
 * transactions instead of serializing it again. The value is recognised by its content (its block
 * ids): sandbox's `prevBlocks` getter hands each transaction a deep copy, so the object is never
 * the same twice (a cache keyed by identity never hit: ~1 ms of every transaction).
 */
function cachePrevBlocksInfo(executor: ExecutorInternals): void {
  let cached: { info: PrevBlocksInfo; key: string; base64: string } | null = null;
  let captureInfo: PrevBlocksInfo | null = null;
  let capture: string | null = null;
  let inject: string | null = null;
  const runCommon = executor.runCommon.bind(executor);
  executor.runCommon = (args) => {
    const last = args.length - 1;
    if (inject !== null) {
      const params = JSON.parse(args[last] as string) as Record<string, unknown>;
      params['prev_blocks_info'] = inject;
      args = [...args.slice(0, last), JSON.stringify(params)];
    } else if (capture !== null) {
      const serialized = (JSON.parse(args[last] as string) as { prev_blocks_info?: string }).prev_blocks_info;
      cached = serialized === undefined || captureInfo === null ? null : { info: captureInfo, key: capture, base64: serialized };
    }
    inject = null;
    capture = null;
    return runCommon(args);
  };
  // Both build their params and call runCommon synchronously, so the flags cannot leak to another run.
  for (const name of ['runTransaction', 'runTickTock'] as const) {
    const run = executor[name].bind(executor);
    executor[name] = (args: RunArgs) => {
      const info = args.prevBlocksInfo;
      // The same object as the cached one (sharePrevBlocks: every transaction of a block is given
      // the one the seal set) is the same value; another object is compared by content.
      const key = info === undefined ? null : info === cached?.info ? cached.key : prevBlocksKey(info);
      if (key !== null && cached?.key === key) {
        inject = cached.base64;
        return run({ ...args, prevBlocksInfo: undefined });
      }
      capture = key;
      captureInfo = info ?? null;
      return run(args);
    };
  }
}

/**
 * Sandbox's `prevBlocks` getter deep-copies the PrevBlocksInfo (17 block ids and their hashes) for
 * every transaction, and the copy then had to be recognised by its content (a string of every
 * hash, see cachePrevBlocksInfo): both per transaction, ~4 % of the chain's allocation at 50
 * transfers a second. The getter now hands out the value the setter stored (its own deep copy,
 * taken once a seal); the executor only reads it.
 */
function sharePrevBlocks(bc: Blockchain): void {
  const internals = bc as unknown as { prevBlocksInfo: PrevBlocksInfo | undefined };
  const setter = Object.getOwnPropertyDescriptor(Blockchain.prototype, 'prevBlocks')?.set;
  if (!setter) throw new Error('@ton/sandbox: Blockchain.prevBlocks has no setter (the pinned version changed)');
  Object.defineProperty(bc, 'prevBlocks', {
    configurable: true,
    get: () => internals.prevBlocksInfo,
    set: (value: PrevBlocksInfo | undefined) => setter.call(bc, value),
  });
}

/** What the serialized PrevBlocksInfo depends on: every block id in it, in order. */
function prevBlocksKey(info: PrevBlocksInfo): string {
  const id = (b: PrevBlocksInfo['prevKeyBlock']) => `${b.workchain}:${b.shard}:${b.seqno}:${b.rootHash.toString('hex')}:${b.fileHash.toString('hex')}`;
  const lists = [info.lastMcBlocks, [info.prevKeyBlock], info.lastMcBlocks100 ?? []];
  return lists.map((list) => list.map(id).join(',')).join('|');
}

/** Most re-serialized messages remembered (a dropped cascade's never-delivered ones fall out). */
const EXACT_MESSAGES_LIMIT = 65_536;

/**
 * Out message cells whose sandbox re-serialization differs from them, keyed by the hash of the
 * re-serialization (what the executor would be given), until delivered.
 */
class ExactMessages {
  private readonly cells = new Map<string, Cell>();

  /** Remembers `cells` (out messages as the sender's transaction holds them). */
  remember(cells: readonly Cell[]): void {
    for (const cell of cells) {
      const message = loadMessage(cell.beginParse());
      if (message.info.type !== 'internal') continue;
      const key = sandboxCellOf(message).hash().toString('hex');
      if (key === cell.hash().toString('hex')) continue;
      this.cells.set(key, cell);
      if (this.cells.size > EXACT_MESSAGES_LIMIT) this.cells.delete(this.cells.keys().next().value as string);
    }
  }

  /** The exact cell of the message sandbox serialized as `cell` (and forgets it), else `cell`. */
  take(cell: Cell): Cell {
    const key = cell.hash().toString('hex');
    const exact = this.cells.get(key);
    if (!exact) return cell;
    this.cells.delete(key);
    return exact;
  }

  /** The exact cell of a queued message, else its serialization (left remembered). */
  cellOf(message: Message): Cell {
    const cell = sandboxCellOf(message);
    return this.cells.get(cell.hash().toString('hex')) ?? cell;
  }

  clear(): void {
    this.cells.clear();
  }
}

/**
 * An @ton/core Address (by prototype: `instanceof Address`, `equals`, `Address.isAddress` hold)
 * without the five closures its constructor gives each instance. Those, their context and the
 * address were ~6 of the ~9.5 million objects of the index bench's chain thread (116 043
 * contracts, a heap snapshot), which its collector marks at every full collection. The string
 * forms are @ton/core's own, from a transient Address made when one is asked for.
 */
class LeanAddress {
  constructor(
    readonly workChain: number,
    readonly hash: Buffer,
  ) {}

  private full(): Address {
    return new Address(this.workChain, this.hash);
  }

  toRawString(): string {
    return this.workChain + ':' + this.hash.toString('hex');
  }

  toRaw(): Buffer {
    return this.full().toRaw();
  }

  toStringBuffer(args?: Parameters<Address['toStringBuffer']>[0]): Buffer {
    return this.full().toStringBuffer(args);
  }

  toString(args?: Parameters<Address['toString']>[0]): string {
    return this.full().toString(args);
  }
}

Object.setPrototypeOf(LeanAddress.prototype, Address.prototype);
Object.defineProperty(LeanAddress.prototype, Symbol.for('nodejs.util.inspect.custom'), {
  value(this: LeanAddress) {
    return this.toString();
  },
});

/** A lean Address of `workchain` and `hash` (which must not change after). */
export function leanAddress(workchain: number, hash: Buffer): Address {
  return new LeanAddress(workchain, hash) as unknown as Address;
}

/** What sandbox gives the executor for a queued message (SmartContract.receiveMessage). */
function sandboxCellOf(message: Message): Cell {
  return beginCell().store(storeMessage(message)).endCell();
}

/** Makes the executor run each message as its exact cell (see ExactMessages). */
function deliverExactMessages(executor: ExecutorInternals, exact: ExactMessages): void {
  const run = executor.runTransaction.bind(executor);
  executor.runTransaction = (args: RunArgs) => (args.message ? run({ ...args, message: exact.take(args.message) }) : run(args));
}

interface SmartContractInternals {
  address: Address;
  _account: string;
  parsedAccount: unknown;
  lastTxTime: number;
}

export class SandboxEngine {
  private readonly interner = new CellInterner();
  /** Contract objects whose account getter reads through the interner (sandbox replaces them on rollback). */
  private readonly internedContracts = new WeakSet<object>();
  private readonly exactMessages = new ExactMessages();

  private constructor(
    private bc: Blockchain,
    private config: Cell,
  ) {
    // Patched once: reset() keeps this executor for the new Blockchain.
    cachePrevBlocksInfo(bc.executor as unknown as ExecutorInternals);
    deliverExactMessages(bc.executor as unknown as ExecutorInternals, this.exactMessages);
    sharePrevBlocks(bc);
  }

  /** A sandbox on `config`, running on `emulator` (a new one when absent). */
  static async create(config: Cell, emulator?: Executor): Promise<SandboxEngine> {
    return new SandboxEngine(await createBlockchain(config, emulator ?? (await createEmulator())), config);
  }

  /**
   * Forgets every account, library and queued message: a new sandbox Blockchain on the same
   * config and the same executor (the wasm emulator, the costly part, is kept). Restoring an
   * in-memory snapshot then loads the accounts back.
   */
  async reset(): Promise<void> {
    this.bc = await createBlockchain(this.config, this.bc.executor);
    sharePrevBlocks(this.bc);
    this.exactMessages.clear();
  }

  /** A held message as the cell its sender sent (what snapshots and the journal keep). */
  heldMessageCell(held: HeldMessage): Cell {
    return this.exactMessages.cellOf(held.message);
  }

  /** A held message restored from its exact cell (a snapshot or the journal): delivered as that cell. */
  restoreHeldMessage(cell: Cell): HeldMessage {
    this.exactMessages.remember([cell]);
    return { message: loadMessage(cell.beginParse()) };
  }

  get executor(): IExecutor {
    return this.bc.executor;
  }

  get configBase64(): string {
    return this.bc.configBase64;
  }

  setConfig(config: Cell): void {
    this.bc.setConfig(config);
    this.config = config;
  }

  /** Global libraries (`Dictionary<hash, Cell>` stored directly), or undefined when none. */
  get libs(): Cell | undefined {
    return this.bc.libs;
  }

  set libs(value: Cell | undefined) {
    this.bc.libs = value;
  }

  /** Logical time of the last executed transaction (or the start of the open block). */
  get lt(): bigint {
    return this.bc.lt;
  }

  /** Makes the next transaction's lt larger than `lt` (a new block starts at `lt`). */
  advanceLtTo(lt: bigint): void {
    const internals = this.internals();
    if (internals.currentLt < lt) internals.currentLt = lt;
  }

  set now(unixTime: number) {
    this.bc.now = unixTime;
  }

  set prevBlocks(info: PrevBlocksInfo | undefined) {
    this.bc.prevBlocks = info;
  }

  /**
   * Executes an inbound external message and its whole cascade. `accepted: false` when the
   * destination did not accept it (nothing changed then). With `hold`, the internal messages it
   * picks (from sender to destination) are taken out of the cascade instead of run: the caller
   * gets them back from `takeHeld` and runs them later with `deliverHeld`.
   */
  async sendExternal(message: Cell, hold?: (from: Address, to: Address) => boolean): Promise<ExternalResult> {
    const parsed = loadMessage(message.beginParse());
    if (parsed.info.type !== 'external-in') {
      throw new Error('only inbound external messages can be sent');
    }
    return this.runCascade(() => this.bc.sendMessageIter(parsed), hold);
  }

  /**
   * Runs held messages now (in their order), with their cascades; messages these send that
   * `hold` picks are held again. A message whose transaction fails to emulate is dropped with
   * the rest of its cascade, as in sendExternal.
   */
  async deliverHeld(messages: readonly HeldMessage[], hold?: (from: Address, to: Address) => boolean): Promise<ExecutedTransaction[]> {
    const out: ExecutedTransaction[] = [];
    for (const { message } of messages) {
      const result = await this.runCascade(() => this.bc.sendMessageIter(message), hold);
      if (result.accepted) out.push(...result.transactions);
    }
    return out;
  }

  /** Messages held since the last call (see sendExternal), in the order they were sent. */
  takeHeld(): HeldMessage[] {
    const held = this.held;
    this.held = [];
    return held;
  }

  private held: HeldMessage[] = [];

  /** Moves the queued internal messages `hold` picks out of sandbox's queue into `held`. */
  private holdQueued(hold: (from: Address, to: Address) => boolean): void {
    const queue = this.internals().defaultQueueManager.messageQueue;
    const kept: QueuedEntry[] = [];
    for (const entry of queue) {
      const info = entry.info;
      if (entry.type === 'message' && info?.type === 'internal' && hold(info.src, info.dest)) {
        this.held.push({ message: entry as unknown as Message });
      } else {
        kept.push(entry);
      }
    }
    if (kept.length !== queue.length) queue.splice(0, queue.length, ...kept);
  }

  private async runCascade(
    start: () => Promise<AsyncIterator<BlockchainTransaction>>,
    hold: ((from: Address, to: Address) => boolean) | undefined,
  ): Promise<ExternalResult> {
    const collected: ExecutedTransaction[] = [];
    try {
      const iterator = await start();
      for (;;) {
        let step: IteratorResult<BlockchainTransaction>;
        try {
          step = await iterator.next();
        } catch (err) {
          if (collected.length === 0) {
            return { accepted: false, reason: emulationReason(err), exitCode: emulationExitCode(err) };
          }
          // A later message of an accepted cascade failed: keep what ran, drop the rest.
          this.clearQueue();
          break;
        }
        if (step.done) break;
        const executed = toExecuted(step.value);
        collected.push(executed);
        // Before the next step runs one of them: its out messages as sent (see ExactMessages).
        this.exactMessages.remember(executed.outMessages);
        // The transaction's out messages are at the queue's end now: before the next step runs one.
        if (hold) this.holdQueued(hold);
      }
    } finally {
      this.internals().transactions.length = 0;
    }
    return { accepted: true, transactions: collected };
  }

  /** Delivers an internal message (used to fund genesis accounts) and runs its cascade. */
  async sendInternal(message: Message): Promise<ExecutedTransaction[]> {
    try {
      const result = await this.bc.sendMessage(message);
      return result.transactions.map(toExecuted);
    } catch (err) {
      this.clearQueue();
      throw err;
    } finally {
      this.internals().transactions.length = 0;
    }
  }

  /**
   * Total fees the message's first transaction would pay, measured on a scratch sandbox with no
   * accounts on the same emulator, config text and verbosity (so the emulator's own instance,
   * costly to make, is reused as is): the fee of a deploying message does not depend on other
   * accounts, and nothing has to be rolled back here (a rollback re-serializes every account,
   * the config contract's whole configuration included).
   */
  async dryRunInternalFees(message: Message): Promise<bigint> {
    const scratch = await Blockchain.create({ config: 'default', executor: this.bc.executor });
    (scratch as unknown as BlockchainInternals).networkConfig = this.bc.configBase64;
    scratch.verbosity = this.bc.verbosity;
    scratch.now = this.bc.now;
    scratch.libs = this.bc.libs;
    scratch.prevBlocks = this.bc.prevBlocks;
    const result = await scratch.sendMessage(message);
    return result.transactions[0]?.totalFees.coins ?? 0n;
  }

  /** Runs a tick or tock transaction of a special masterchain account. */
  async runTickTock(address: Address, which: 'tick' | 'tock'): Promise<ExecutedTransaction[]> {
    try {
      const result = await this.bc.runTickTock(address, which);
      return result.transactions.map(toExecuted);
    } catch (err) {
      this.clearQueue();
      throw err;
    } finally {
      this.internals().transactions.length = 0;
    }
  }

  /** The emulator's exact ShardAccount cell for `address` (an empty account if unknown). */
  async shardAccountCell(address: Address): Promise<Cell> {
    const contract = await this.bc.getContract(address);
    const internals = contract as unknown as SmartContractInternals;
    // Every account the chain touches is read through the interner from now on: sandbox parses
    // the whole account after each of its transactions (only to learn its workchain).
    this.internContract(internals);
    return this.interner.parse(Buffer.from(internals._account, 'base64'))[0];
  }

  /**
   * Makes sandbox read this account through the interner too. Sandbox re-parses an account
   * after each of its transactions; for the config contract that is the whole configuration.
   */
  async internAccount(address: Address): Promise<void> {
    this.internContract((await this.bc.getContract(address)) as unknown as SmartContractInternals);
  }

  private internContract(contract: SmartContractInternals): void {
    if (this.internedContracts.has(contract)) return;
    this.internedContracts.add(contract);
    const interner = this.interner;
    Object.defineProperty(contract, 'account', {
      configurable: true,
      get(this: SmartContractInternals) {
        if (this.parsedAccount === undefined) {
          this.parsedAccount = loadShardAccount(interner.parse(Buffer.from(this._account, 'base64'))[0].beginParse());
        }
        return this.parsedAccount;
      },
      set(this: SmartContractInternals, account: ShardAccount) {
        this._account = beginCell().store(storeShardAccount(account)).endCell().toBoc().toString('base64');
        this.parsedAccount = account;
        this.lastTxTime = account.account?.storageStats.lastPaid ?? 0;
      },
    });
  }

  /**
   * Puts accounts back as they were (restoring a chain snapshot): the exact ShardAccount cells,
   * the lt the next transaction must exceed, and the global libraries.
   */
  async restore(
    accounts: readonly { address: Address; shardAccount: Cell; lastTxTime: number }[],
    lt: bigint,
    libs: Cell | undefined,
  ): Promise<void> {
    await this.loadAccounts(accounts);
    this.internals().currentLt = lt;
    this.bc.libs = libs;
  }

  /**
   * Places accounts with their exact ShardAccount cells (zerostate accounts, restored accounts).
   * Each contract keeps a lean copy of its address (leanAddress): a restored chain's contracts
   * are most of its accounts and stay in the thread for as long as it runs.
   */
  async loadAccounts(accounts: readonly { address: Address; shardAccount: Cell; lastTxTime: number }[]): Promise<void> {
    for (const acc of accounts) {
      const contract = (await this.bc.getContract(acc.address)) as unknown as SmartContractInternals;
      contract.address = leanAddress(acc.address.workChain, acc.address.hash);
      contract._account = acc.shardAccount.toBoc().toString('base64');
      contract.parsedAccount = undefined;
      contract.lastTxTime = acc.lastTxTime;
    }
  }

  private clearQueue(): void {
    this.internals().defaultQueueManager.messageQueue.length = 0;
  }

  private internals(): BlockchainInternals {
    return this.bc as unknown as BlockchainInternals;
  }
}

async function createBlockchain(config: Cell, executor: IExecutor): Promise<Blockchain> {
  const bc = await Blockchain.create({ config, autoDeployLibs: true, executor });
  bc.verbosity = { print: false, blockchainLogs: false, vmLogs: 'none', debugLogs: false };
  return bc;
}

function toExecuted(tx: Transaction): ExecutedTransaction {
  // Sandbox's transaction is @ton/core's loadTransaction of the emulator's exact cell (`raw`), so
  // its fields are the block's; parsing that cell a second time (every message in it, the
  // description) was ~a tenth of the chain's allocation per transfer at 50 transfers a second.
  const cell = tx.raw;
  const parsed = tx;
  const dest = parsed.inMessage?.info.dest;
  let workchain: number;
  if (parsed.inMessage) {
    if (!dest || !Address.isAddress(dest)) throw new Error('transaction with an inbound message to no internal address');
    workchain = dest.workChain;
  } else {
    // Only special masterchain accounts run transactions without a message (tick-tock).
    if (parsed.description.type !== 'tick-tock') throw new Error('transaction without an inbound message');
    workchain = -1;
  }
  const messages = cell.refs[0].beginParse();
  const inMessage = messages.loadMaybeRef();
  const outDict = messages.loadDict(Dictionary.Keys.Uint(15), Dictionary.Values.Cell());
  const outMessages = [...outDict.keys()].sort((a, b) => a - b).map((k) => outDict.get(k) as Cell);
  return {
    workchain,
    address: bigintToHash(parsed.address),
    inMessage,
    outMessages,
    lt: parsed.lt,
    hash: cell.hash(),
    cell,
    now: parsed.now,
    totalFees: parsed.totalFees,
    oldStateHash: parsed.stateUpdate.oldHash,
    newStateHash: parsed.stateUpdate.newHash,
    prevLt: parsed.prevTransactionLt,
    prevHash: bigintToHash(parsed.prevTransactionHash),
  };
}

function bigintToHash(v: bigint): Buffer {
  return Buffer.from(v.toString(16).padStart(64, '0'), 'hex');
}

function emulationReason(err: unknown): string {
  if (err instanceof EmulationError) return err.error;
  return err instanceof Error ? err.message : String(err);
}

function emulationExitCode(err: unknown): number | null {
  return err instanceof EmulationError && err.exitCode !== undefined ? err.exitCode : null;
}
