import { type Address, beginCell, type Cell } from '@ton/core';
import type { Logger } from 'pino';
import { accountAt, masterchainBlock, type AccountRead } from '../chain';
import type { BlockRef } from '../proofs';
import { ApiError } from '../errors';
import type { AccountStateRow, LatestAccountStateRow, MessageContentRow, MessageRow } from '../indexdb';
import type { LitePool } from '../liteclient';
import type { BlockFetcher } from './blockFetcher';
import { extraCurrenciesJson, parseBlock, type ParsedBlock, type ParsedTransaction } from './parseBlock';
import { blockWorkTurns } from './turns';
import { accountInUpdate, CellMemory, updatedAccounts, type StateAccount } from './blockStates';
import { indexMetrics } from '../metrics';
import { NO_TOKENS, type BlockTokens, type DetectionLane, type TokenDetector, type TouchedAccount } from './tokenDetection';

/** Account reads of one block in flight at once. */
const ACCOUNT_READS_AT_ONCE = 16;
/** Deadline of one block's account reads (a session), ms. */
const ACCOUNT_READS_MS = 60_000;
const MASTERCHAIN_SHARD = '-9223372036854775808';
/** `account_none$0`: the state (and state hash) of an account that does not exist. */
const ACCOUNT_NONE_HASH = beginCell().storeBit(0).endCell().hash();
/** An account that does not exist, as a lite read proves it (no ShardAccount entry). */
const NO_ACCOUNT: StateAccount = { accountCell: null, account: null, lastTransaction: null, code: null, data: null };

/** A masterchain block, verified and parsed, with the shard tops it lists. */
export interface McHead {
  readonly id: BlockRef;
  readonly parsed: ParsedBlock;
}

/**
 * A parsed block without its cell tree: what a prepared block keeps until its commit. The tree
 * (tens of thousands of cells a block) is needed only while the block is prepared (its state
 * update); a prepared block waits for its commit behind up to 8 others, and holding every one's
 * tree then kept them all alive through the collector's old generation.
 */
export type IndexedBlock = Omit<ParsedBlock, 'block'>;

function withoutCells(parsed: ParsedBlock): IndexedBlock {
  return { id: parsed.id, row: parsed.row, previous: parsed.previous, shardTops: parsed.shardTops, transactions: parsed.transactions };
}

/** Everything one masterchain block adds to the index, before traces (which need the database). */
export interface PreparedMcBlock {
  readonly seqno: number;
  readonly id: BlockRef;
  readonly mc: IndexedBlock;
  /** The shard blocks new since the previous masterchain block, oldest first per shard. */
  readonly shardBlocks: IndexedBlock[];
  /** The state after this masterchain block of every account its blocks touched. */
  readonly accounts: LatestAccountStateRow[];
  /** The token contracts among those accounts (detected before the commit, in the TVM pool). */
  readonly tokens: BlockTokens;
}

function unsignedShard(shard: string): bigint {
  return BigInt.asUintN(64, BigInt(shard));
}

/** Whether shards `a` and `b` (unsigned ids) of one workchain overlap: one contains the other. */
function shardsOverlap(a: bigint, b: bigint): boolean {
  const lowA = a & -a;
  const lowB = b & -b;
  return a - lowA + 1n <= b + lowB - 1n && b - lowB + 1n <= a + lowA - 1n;
}

/** Whether a block of (workchain, shard, seqno) is at or below a shard top of the previous masterchain block. */
function coveredBy(previousTops: readonly BlockRef[], block: BlockRef): boolean {
  if (block.seqno === 0) return true; // the zero state, not a block
  const shard = unsignedShard(block.shard);
  return previousTops.some((top) => top.workchain === block.workchain && top.seqno >= block.seqno && shardsOverlap(unsignedShard(top.shard), shard));
}

async function inBatches<T, R>(items: readonly T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const runners = Array.from({ length: Math.min(size, items.length) }, async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await work(items[i]!);
  });
  await Promise.all(runners);
  return out;
}

/** The index's summary row of `state`, the account's state after its last transaction (at `lastTxNow`). */
function summaryRow(address: Address, state: StateAccount, lastTxNow: number, bocs: BocMemory): LatestAccountStateRow {
  const account = state.account;
  const storage = account?.storage.state;
  const base: AccountStateRow = {
    // Level-0 hashes: the cells of a block's update hold pruned branches, whose higher hashes differ.
    hash: state.accountCell ? state.accountCell.hash(0) : ACCOUNT_NONE_HASH,
    account: `${address.workChain}:${address.hash.toString('hex').toUpperCase()}`,
    balance: account ? account.storage.balance.coins : 0n,
    balance_extra_currencies: account ? extraCurrenciesJson(account.storage.balance) : null,
    account_status: !account ? 'nonexist' : storage!.type === 'uninit' ? 'uninit' : storage!.type,
    frozen_hash: storage?.type === 'frozen' ? Buffer.from(storage.stateHash.toString(16).padStart(64, '0'), 'hex') : null,
    data_hash: state.data ? state.data.hash(0) : null,
    code_hash: state.code ? state.code.hash(0) : null,
  };
  const last = state.lastTransaction;
  return {
    ...base,
    account_friendly: null,
    timestamp: lastTxNow,
    last_trans_hash: last ? last.hash : null,
    last_trans_lt: last ? last.lt : null,
    data_boc: state.data ? bocs.of(state.data) : null,
    code_boc: state.code ? bocs.of(state.code) : null,
  };
}

/** A proven lite read as a StateAccount (its cells are complete). */
function readState(read: Awaited<ReturnType<typeof accountAt>>): StateAccount {
  const account = read.account;
  const stateInit = account?.storage.state.type === 'active' ? account.storage.state.state : null;
  const last = read.lastTransaction;
  return {
    accountCell: read.accountCell,
    account,
    lastTransaction: last ? { lt: last.lt, hash: Buffer.isBuffer(last.hash) ? last.hash : Buffer.from(last.hash.toString(16).padStart(64, '0'), 'hex') } : null,
    code: stateInit?.code ?? null,
    data: stateInit?.data ?? null,
  };
}

/**
 * The account read a proven lite read at masterchain block `mcId` would give, made from the
 * state a block of `mcId` revealed (the account's last transaction in `mcId` is in that block, so
 * the state after it is the state at `mcId`): the account as that shard's top block in `mcId`
 * holds it, with that top block's gen_utime as `syncUtime` (what a lite read's state proof says).
 * Its cells are proven by the block's hash, which links to the verified masterchain block; token
 * detection runs get-methods on it instead of reading the account again. Undefined when the top
 * block of the account's shard is not among `blocks` (then detection reads it).
 */
export function readOfBlockState(address: Address, state: StateAccount, mcId: BlockRef, blocks: readonly IndexedBlock[]): AccountRead | undefined {
  let top: IndexedBlock | undefined;
  if (address.workChain === -1) top = blocks.find((b) => b.id.workchain === -1 && b.id.seqno === mcId.seqno && b.id.rootHash.equals(mcId.rootHash));
  else {
    const mc = blocks.find((b) => b.id.workchain === -1);
    const prefix = address.hash.readBigUInt64BE(0);
    const listed = mc?.shardTops.find((t) => t.workchain === address.workChain && shardsOverlap(unsignedShard(t.shard), prefix | 1n));
    top = listed && blocks.find((b) => b.id.workchain === listed.workchain && b.id.seqno === listed.seqno && b.id.rootHash.equals(listed.rootHash));
  }
  if (!top) return undefined;
  const last = state.lastTransaction;
  // The update's Account holds pruned code and data cells where they did not change: the complete ones are in `state`.
  const storage = state.account?.storage;
  const account =
    state.account && storage?.state.type === 'active'
      ? { ...state.account, storage: { ...storage, state: { type: 'active' as const, state: { ...storage.state.state, code: state.code ?? undefined, data: state.data ?? undefined } } } }
      : state.account;
  return {
    address,
    account,
    accountCell: state.account ? state.accountCell : null,
    // As accountAt: a ShardAccount with lt 0 and a zero hash is "no transaction yet".
    lastTransaction: state.account && last && (last.lt !== 0n || last.hash.some((byte) => byte !== 0)) ? last : null,
    block: mcId,
    shardBlock: top.id,
    syncUtime: top.row.gen_utime,
  };
}

/**
 * BoCs of code and data cells by hash, bounded: a contract's code, or data a block left
 * unchanged (the config contract's, every masterchain block), is serialized once.
 */
class BocMemory {
  private readonly bocs = new Map<string, Buffer>();

  constructor(private readonly maxEntries = 1024) {}

  of(cell: Cell): Buffer {
    const key = cell.hash(0).toString('latin1');
    const known = this.bocs.get(key);
    if (known) return known;
    const boc = cell.toBoc();
    if (this.bocs.size >= this.maxEntries) this.bocs.delete(this.bocs.keys().next().value!);
    this.bocs.set(key, boc);
    return boc;
  }
}

/**
 * Fetches what the index needs of a masterchain block: the block (its id proven from the pool's
 * verified chain), its new shard blocks (walking prev_ref from its shard tops down to the previous
 * masterchain block's, through splits and merges; each id comes from a block already checked, so
 * every block links to the verified one), and the state of every account they touched: from the
 * block's own state update when it reveals it, else a proven lite read.
 */
export class McBlockSource {
  /** Complete code and data cells by hash, for the cells a block's update prunes (unchanged ones). */
  private readonly cells = new CellMemory();
  private readonly bocs = new BocMemory();

  constructor(
    private readonly pool: LitePool,
    private readonly fetcher: BlockFetcher,
    private readonly logger: Logger,
    private readonly detector?: TokenDetector,
    /** The pool's choice of servers for blocks and states (the backfill asks archival ones when there are any). */
    private readonly archival?: boolean,
    /** Which lane prepares with this source: token detection serves the live lane's blocks before the backfill's. */
    private readonly lane: DetectionLane = 'live',
  ) {}

  private session(deadline: number) {
    return this.pool.openSession(this.archival === undefined ? {} : { archival: this.archival }, deadline);
  }

  /** The proven id of masterchain block `seqno`. */
  async mcBlockId(seqno: number): Promise<BlockRef> {
    for (let attempt = 0; ; attempt++) {
      const session = this.session(Date.now() + 15_000);
      try {
        return await masterchainBlock(session, seqno);
      } catch (err) {
        if (!(err instanceof ApiError) || attempt >= 20) throw err;
        await new Promise((resolve) => setTimeout(resolve, 500).unref());
      }
    }
  }

  /** Masterchain block `seqno`, verified and parsed (its shard tops included). */
  async head(seqno: number): Promise<McHead> {
    const id = await this.mcBlockId(seqno);
    const root = await this.fetcher.fetch(id);
    return { id, parsed: parseBlock(id, root, seqno) };
  }

  /**
   * The new shard blocks and account states of masterchain block `head`, given the shard tops of
   * the masterchain block before it (empty before the first block: walk down to the zero state).
   */
  async prepare(head: McHead, previousTops: readonly BlockRef[]): Promise<PreparedMcBlock> {
    const seqno = head.id.seqno;
    const shardBlocks: ParsedBlock[] = [];
    const seen = new Set<string>();
    let frontier = head.parsed.shardTops.filter((top) => !coveredBy(previousTops, top));
    while (frontier.length > 0) {
      const fresh = frontier.filter((id) => {
        const key = `${id.workchain}:${id.shard}:${id.seqno}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      const parsed = await Promise.all(
        fresh.map(async (id) => {
          const root = await this.fetcher.fetch(id);
          // The parse is long too: a turn of its own (turns.ts).
          await blockWorkTurns.next();
          return parseBlock(id, root, seqno);
        }),
      );
      shardBlocks.push(...parsed);
      frontier = parsed.flatMap((block) => block.previous).filter((prev) => !coveredBy(previousTops, prev));
    }
    shardBlocks.sort((a, b) => a.id.workchain - b.id.workchain || (a.id.shard < b.id.shard ? -1 : a.id.shard > b.id.shard ? 1 : 0) || a.id.seqno - b.id.seqno);
    const touched = await this.accountStates(head.id, [head.parsed, ...shardBlocks]);
    const tokens = this.detector ? await this.detector.detect(this.pool, head.id, head.parsed.block.stateUpdate, touched, this.lane) : NO_TOKENS;
    return { seqno, id: head.id, mc: withoutCells(head.parsed), shardBlocks: shardBlocks.map(withoutCells), accounts: touched.map((t) => t.row), tokens };
  }

  private async accountStates(mcId: BlockRef, blocks: readonly ParsedBlock[]): Promise<TouchedAccount[]> {
    // Per account: its last transaction in this masterchain block, and the block holding it (whose
    // new state is the account's state after the masterchain block: no later transaction touched it).
    // `gone`: that transaction left no account (its own state hash after is account_none's).
    const touched = new Map<string, { address: Address; lastNow: number; lastLt: bigint; block: ParsedBlock; gone: boolean }>();
    for (const block of blocks) {
      for (const tx of block.transactions) {
        const known = touched.get(tx.row.account);
        if (!known || tx.row.lt > known.lastLt) {
          const gone = tx.row.end_status === 'nonexist' && tx.row.account_state_hash_after.equals(ACCOUNT_NONE_HASH);
          touched.set(tx.row.account, { address: tx.address, lastNow: tx.row.now, lastLt: tx.row.lt, block, gone });
        }
      }
    }
    const entries = [...touched.values()];
    if (entries.length === 0) return [];
    const revealed = new Map<ParsedBlock, { root: Cell | null } | null>();
    // An account read from the block needs no lite read: token detection runs on the block's state.
    const rows: TouchedAccount[] = new Array<TouchedAccount>(entries.length);
    const unrevealed: number[] = [];
    entries.forEach(({ address, lastNow, lastLt, block, gone }, i) => {
      if (!revealed.has(block)) revealed.set(block, updatedAccounts(block.block.stateUpdate));
      const accounts = revealed.get(block);
      // An account that did not exist before its transactions nor after them (a bounced message to
      // a fresh address) leaves the accounts dictionary as it was, so the update prunes its path;
      // its last transaction, in the verified block, says it is gone.
      const state = (accounts ? accountInUpdate(accounts.root, address, lastLt, this.cells) : undefined) ?? (gone ? NO_ACCOUNT : undefined);
      if (!state) {
        unrevealed.push(i);
        return;
      }
      const row = summaryRow(address, state, lastNow, this.bocs);
      const read = readOfBlockState(address, state, mcId, blocks);
      rows[i] = read ? { row, read } : { row };
    });
    indexMetrics.accountStates.inc({ source: 'block' }, entries.length - unrevealed.length);
    if (unrevealed.length === 0) return rows;
    indexMetrics.accountStates.inc({ source: 'lite_server' }, unrevealed.length);
    const session = this.session(Date.now() + ACCOUNT_READS_MS);
    await inBatches(unrevealed, ACCOUNT_READS_AT_ONCE, async (i) => {
      const { address, lastNow, lastLt } = entries[i]!;
      const read = await accountAt(session, mcId, address);
      if (read.lastTransaction && read.lastTransaction.lt !== lastLt) {
        this.logger.warn({ account: address.toRawString(), lt: String(lastLt), stateLt: String(read.lastTransaction.lt) }, 'account state names another last transaction');
      }
      const state = readState(read);
      this.cells.rememberCell(state.code);
      this.cells.rememberCell(state.data);
      rows[i] = { read, row: summaryRow(address, state, lastNow, this.bocs) };
    });
    return rows;
  }
}

/** The transactions of a masterchain block and its new shard blocks, in lt order (then account): the order traces are assembled in. */
export function transactionsInOrder(block: PreparedMcBlock): ParsedTransaction[] {
  const transactions: ParsedTransaction[] = [block.mc, ...block.shardBlocks].flatMap((b) => b.transactions);
  transactions.sort((a, b) => (a.row.lt < b.row.lt ? -1 : a.row.lt > b.row.lt ? 1 : a.row.account < b.row.account ? -1 : 1));
  return transactions;
}

/** The message rows of these transactions (each transaction's inbound, then its outbound) and their bodies and init states. */
export function messageRowsOf(transactions: readonly ParsedTransaction[]): { messages: MessageRow[]; messageContents: MessageContentRow[] } {
  const all = transactions.flatMap((tx) => (tx.inMessage ? [tx.inMessage, ...tx.outMessages] : tx.outMessages));
  return { messages: all.map((m) => m.row), messageContents: all.flatMap((m) => m.contents) };
}

export { MASTERCHAIN_SHARD };
