import { Account, Address, beginCell, Cell, loadAccount, loadShardAccounts } from '@ton/core';
import type { AccountStateInput } from '../converters';
import { loadShardStateHeader } from '../tlb';
import {
  checkAccountState,
  type ProvenAccountState,
  bocRoots,
  optionalBocRoot,
  parseLiteAnswer,
  tlBlockId,
  type ChainSession,
  type McBlock,
} from '../proofs';
import { masterchainBlockAt } from './blockRefs';

/**
 * Reading one account the way tonlib's `raw.getAccountState` does: at a masterchain block, with
 * the last transaction id and `sync_utime` taken from the shard-state proof sent along, once
 * checkAccountState has proven that proof and the account cell against the block.
 */

export interface AccountRead extends AccountStateInput {
  /** The masterchain block the state was read at (what `block_id` reports). */
  block: McBlock;
  /** The Account cell exactly as the lite server sent it; null when the account does not exist. */
  accountCell: Cell | null;
}

interface ShardStateView {
  genUtime: number;
  lastTransaction: { lt: bigint; hash: bigint | Buffer } | null;
}

/**
 * gen_utime and the account's ShardAccount entry, when the (pruned) state proof holds it. Only the
 * header and the accounts dictionary are read: the masterchain extras that follow are pruned.
 */
function readShardStateProof(proofRoot: Cell, accountId: Buffer): ShardStateView {
  const header = loadShardStateHeader(proofRoot.refs[0].beginParse(true));
  const genUtime = header.genUtime;
  if (header.accounts.isExotic) return { genUtime, lastTransaction: null };
  const entry = loadShardAccounts(header.accounts.beginParse()).get(BigInt(`0x${accountId.toString('hex')}`));
  if (!entry) return { genUtime, lastTransaction: null };
  const shardAccount = entry.shardAccount;
  return { genUtime, lastTransaction: { lt: shardAccount.lastTransactionLt, hash: shardAccount.lastTransactionHash } };
}

/** gen_utime and the last transaction read from the proof without checking it (--trust-liteservers). */
function unprovenView(proof: Buffer, address: Address): ShardStateView {
  const proofRoots = bocRoots(proof, 'accountState proof');
  return proofRoots.length >= 2
    ? parseLiteAnswer('accountState proof', () => readShardStateProof(proofRoots[1], address.hash))
    : { genUtime: 0, lastTransaction: null };
}

function parseAccountCell(cell: Cell): Account | null {
  const slice = cell.beginParse();
  return slice.loadBit() ? loadAccount(slice) : null;
}

/** What the proof check found, when it ran and read the shard state (it did the same lookup). */
function provenView(proven: ProvenAccountState | null | undefined): ShardStateView | undefined {
  if (!proven) return undefined;
  const entry = proven.shardAccount;
  return {
    genUtime: proven.genUtime,
    lastTransaction: entry ? { lt: entry.lastTransLt, hash: entry.lastTransHash } : null,
  };
}

function isZeroHash(hash: bigint | Buffer): boolean {
  return typeof hash === 'bigint' ? hash === 0n : hash.every((byte) => byte === 0);
}

/** The account at masterchain block `block`. */
export async function accountAt(session: ChainSession, block: McBlock, address: Address): Promise<AccountRead> {
  // Set by the check of the answer returned (absent with --trust-liteservers).
  let proven: ProvenAccountState | null | undefined;
  const answer = await session.liteQuery(
    {
      kind: 'liteServer.getAccountState',
      id: tlBlockId(block),
      account: { kind: 'liteServer.accountId', workchain: address.workChain, id: address.hash },
    },
    (answer) => {
      proven = checkAccountState(block, address, answer);
    },
  );
  const stateCell = optionalBocRoot(answer.state, 'accountState state');
  const account = stateCell ? parseLiteAnswer('accountState state', () => parseAccountCell(stateCell)) : null;
  const accountCell = account ? stateCell : null;
  const view = provenView(proven) ?? unprovenView(answer.proof, address);
  const last = view.lastTransaction;
  return {
    address,
    account,
    accountCell,
    // A ShardAccount with lt 0 and a zero hash is tonlib's "no transaction yet".
    lastTransaction: account && last && (last.lt !== 0n || !isZeroHash(last.hash)) ? last : null,
    block: answer.id,
    syncUtime: view.genUtime,
  };
}

/** The account at masterchain `seqno`, or at the request's head when seqno is undefined. */
export async function accountAtSeqno(session: ChainSession, address: Address, seqno?: number): Promise<AccountRead> {
  return accountAt(session, await masterchainBlockAt(session, seqno), address);
}

/** `account_none$0`: what a ShardAccount holds for an account that does not exist. */
const ACCOUNT_NONE = beginCell().storeBit(0).endCell();

/** The ShardAccount cell (`account:^Account last_trans_hash:bits256 last_trans_lt:uint64`). */
export function shardAccountCell(read: AccountRead): Cell {
  const last = read.lastTransaction;
  const hash = last ? (typeof last.hash === 'bigint' ? last.hash : BigInt(`0x${last.hash.toString('hex')}`)) : 0n;
  return beginCell()
    .storeRef(read.accountCell ?? ACCOUNT_NONE)
    .storeUint(hash, 256)
    .storeUint(last?.lt ?? 0n, 64)
    .endCell();
}
