/**
 * The only module that knows @ton/sandbox internals. The chain uses sandbox purely as a
 * transaction executor: it never reads blocks or histories from it (sandbox has none), and
 * never calls `Blockchain.getTransactions` (it reverses a shared array in place).
 *
 * Internals touched here, pinned to @ton/sandbox 0.41.0:
 * - `currentLt` (protected): the next block must start above the previous block's end_lt;
 * - `transactions` (protected): sandbox keeps every transaction forever; cleared after use;
 * - `defaultQueueManager.messageQueue` (private): an EmulationError in the middle of a
 *   cascade leaves the rest of the cascade queued, and the next send would run it first;
 * - `SmartContract._account` (private): the emulator's exact ShardAccount BoC. Re-serializing
 *   the parsed account with @ton/core could change the Account hash, which must equal the
 *   last transaction's `state_update.new_hash`.
 */
import { Address, Cell, CurrencyCollection, loadMessage, loadTransaction, Message, Transaction } from '@ton/core';
import { Blockchain, BlockchainTransaction, EmulationError, IExecutor, PrevBlocksInfo } from '@ton/sandbox';

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
}

export type ExternalResult =
  { accepted: true; transactions: ExecutedTransaction[] } | { accepted: false; reason: string; exitCode: number | null };

interface BlockchainInternals {
  currentLt: bigint;
  transactions: BlockchainTransaction[];
  defaultQueueManager: { messageQueue: unknown[] };
}

interface SmartContractInternals {
  _account: string;
  parsedAccount: unknown;
  lastTxTime: number;
}

export class SandboxEngine {
  private constructor(private readonly bc: Blockchain) {}

  static async create(config: Cell): Promise<SandboxEngine> {
    const bc = await Blockchain.create({ config, autoDeployLibs: true });
    bc.verbosity = { print: false, blockchainLogs: false, vmLogs: 'none', debugLogs: false };
    return new SandboxEngine(bc);
  }

  get executor(): IExecutor {
    return this.bc.executor;
  }

  get configBase64(): string {
    return this.bc.configBase64;
  }

  setConfig(config: Cell): void {
    this.bc.setConfig(config);
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
   * destination did not accept it (nothing changed then).
   */
  async sendExternal(message: Cell): Promise<ExternalResult> {
    const parsed = loadMessage(message.beginParse());
    if (parsed.info.type !== 'external-in') {
      throw new Error('only inbound external messages can be sent');
    }
    const collected: ExecutedTransaction[] = [];
    try {
      const iterator = await this.bc.sendMessageIter(parsed);
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
        collected.push(toExecuted(step.value));
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
   * Total fees the message's first transaction would pay, measured by running it and rolling
   * sandbox back to a snapshot.
   */
  async dryRunInternalFees(message: Message): Promise<bigint> {
    const snapshot = this.bc.snapshot();
    try {
      const result = await this.bc.sendMessage(message);
      return result.transactions[0]?.totalFees.coins ?? 0n;
    } finally {
      await this.bc.loadFrom(snapshot);
      this.internals().transactions.length = 0;
    }
  }

  /** The emulator's exact ShardAccount cell for `address` (an empty account if unknown). */
  async shardAccountCell(address: Address): Promise<Cell> {
    const contract = await this.bc.getContract(address);
    const internals = contract as unknown as SmartContractInternals;
    return Cell.fromBase64(internals._account);
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
    for (const acc of accounts) {
      const contract = (await this.bc.getContract(acc.address)) as unknown as SmartContractInternals;
      contract._account = acc.shardAccount.toBoc().toString('base64');
      contract.parsedAccount = undefined;
      contract.lastTxTime = acc.lastTxTime;
    }
    this.internals().currentLt = lt;
    this.bc.libs = libs;
  }

  private clearQueue(): void {
    this.internals().defaultQueueManager.messageQueue.length = 0;
  }

  private internals(): BlockchainInternals {
    return this.bc as unknown as BlockchainInternals;
  }
}

function toExecuted(tx: Transaction): ExecutedTransaction {
  const dest = tx.inMessage?.info.dest;
  if (!dest || !Address.isAddress(dest)) {
    throw new Error('transaction without an inbound message to an internal address');
  }
  // Re-read from the exact cell so every field matches what the block will contain.
  const cell = tx.raw;
  const parsed = loadTransaction(cell.beginParse());
  return {
    workchain: dest.workChain,
    address: dest.hash,
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
