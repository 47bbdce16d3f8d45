import { Address, beginCell, type Cell } from '@ton/core';
import type { Logger } from 'pino';
import { accountAt, masterchainBlock } from '../chain';
import type { BlockRef } from '../proofs';
import { ApiError } from '../errors';
import type { AccountStateRow, LatestAccountStateRow } from '../indexdb';
import type { LitePool } from '../liteclient';
import type { BlockFetcher } from './blockFetcher';
import { extraCurrenciesJson, parseBlock, type ParsedBlock } from './parseBlock';
import { NO_TOKENS, type BlockTokens, type TokenDetector, type TouchedAccount } from './tokenDetection';

/** Account reads of one block in flight at once. */
const ACCOUNT_READS_AT_ONCE = 16;
/** Deadline of one block's account reads (a session), ms. */
const ACCOUNT_READS_MS = 60_000;
const MASTERCHAIN_SHARD = '-9223372036854775808';
/** `account_none$0`: the state (and state hash) of an account that does not exist. */
const ACCOUNT_NONE_HASH = beginCell().storeBit(0).endCell().hash();

/** A masterchain block, verified and parsed, with the shard tops it lists. */
export interface McHead {
  readonly id: BlockRef;
  readonly parsed: ParsedBlock;
}

/** Everything one masterchain block adds to the index, before traces (which need the database). */
export interface PreparedMcBlock {
  readonly seqno: number;
  readonly id: BlockRef;
  readonly mc: ParsedBlock;
  /** The shard blocks new since the previous masterchain block, oldest first per shard. */
  readonly shardBlocks: ParsedBlock[];
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

function summaryRow(address: Address, accountCell: Cell | null, read: Awaited<ReturnType<typeof accountAt>>, lastTxNow: number): LatestAccountStateRow {
  const account = read.account;
  const state = account?.storage.state;
  const stateInit = state?.type === 'active' ? state.state : null;
  const base: AccountStateRow = {
    hash: accountCell ? accountCell.hash() : ACCOUNT_NONE_HASH,
    account: `${address.workChain}:${address.hash.toString('hex').toUpperCase()}`,
    balance: account ? account.storage.balance.coins : 0n,
    balance_extra_currencies: account ? extraCurrenciesJson(account.storage.balance) : null,
    account_status: !account ? 'nonexist' : state!.type === 'uninit' ? 'uninit' : state!.type,
    frozen_hash: state?.type === 'frozen' ? Buffer.from(state.stateHash.toString(16).padStart(64, '0'), 'hex') : null,
    data_hash: stateInit?.data ? stateInit.data.hash() : null,
    code_hash: stateInit?.code ? stateInit.code.hash() : null,
  };
  const last = read.lastTransaction;
  return {
    ...base,
    account_friendly: null,
    timestamp: lastTxNow,
    last_trans_hash: last ? (Buffer.isBuffer(last.hash) ? last.hash : Buffer.from(last.hash.toString(16).padStart(64, '0'), 'hex')) : null,
    last_trans_lt: last ? last.lt : null,
    data_boc: stateInit?.data ? stateInit.data.toBoc() : null,
    code_boc: stateInit?.code ? stateInit.code.toBoc() : null,
  };
}

/**
 * Fetches what the index needs of a masterchain block: the block (its id proven from the pool's
 * verified chain), its new shard blocks (walking prev_ref from its shard tops down to the previous
 * masterchain block's, through splits and merges; each id comes from a block already checked, so
 * every block links to the verified one), and the proven state of every account they touched.
 */
export class McBlockSource {
  constructor(
    private readonly pool: LitePool,
    private readonly fetcher: BlockFetcher,
    private readonly logger: Logger,
    private readonly detector?: TokenDetector,
  ) {}

  /** The proven id of masterchain block `seqno`. */
  async mcBlockId(seqno: number): Promise<BlockRef> {
    for (let attempt = 0; ; attempt++) {
      const session = this.pool.openSession({}, Date.now() + 15_000);
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
      const parsed = await Promise.all(fresh.map(async (id) => parseBlock(id, await this.fetcher.fetch(id), seqno)));
      shardBlocks.push(...parsed);
      frontier = parsed.flatMap((block) => block.previous).filter((prev) => !coveredBy(previousTops, prev));
    }
    shardBlocks.sort((a, b) => a.id.workchain - b.id.workchain || (a.id.shard < b.id.shard ? -1 : a.id.shard > b.id.shard ? 1 : 0) || a.id.seqno - b.id.seqno);
    const touched = await this.accountStates(head.id, [head.parsed, ...shardBlocks]);
    const tokens = this.detector ? await this.detector.detect(this.pool, head.id, touched) : NO_TOKENS;
    return { seqno, id: head.id, mc: head.parsed, shardBlocks, accounts: touched.map((t) => t.row), tokens };
  }

  private async accountStates(mcId: BlockRef, blocks: readonly ParsedBlock[]): Promise<TouchedAccount[]> {
    const touched = new Map<string, { address: Address; lastNow: number; lastLt: bigint }>();
    for (const block of blocks) {
      for (const tx of block.transactions) {
        const known = touched.get(tx.row.account);
        if (!known || tx.row.lt > known.lastLt) touched.set(tx.row.account, { address: tx.address, lastNow: tx.row.now, lastLt: tx.row.lt });
      }
    }
    const entries = [...touched.values()];
    if (entries.length === 0) return [];
    const session = this.pool.openSession({}, Date.now() + ACCOUNT_READS_MS);
    return inBatches(entries, ACCOUNT_READS_AT_ONCE, async ({ address, lastNow, lastLt }) => {
      const read = await accountAt(session, mcId, address);
      if (read.lastTransaction && read.lastTransaction.lt !== lastLt) {
        this.logger.warn({ account: address.toRawString(), lt: String(lastLt), stateLt: String(read.lastTransaction.lt) }, 'account state names another last transaction');
      }
      return { read, row: summaryRow(address, read.accountCell, read, lastNow) };
    });
  }
}

export { MASTERCHAIN_SHARD };
