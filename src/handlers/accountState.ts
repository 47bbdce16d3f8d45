import { Account, Address, beginCell, Cell, loadAccount, loadShardAccounts, Slice } from '@ton/core';
import type { LiteClient } from 'ton-lite-client';
import type { BlockID } from 'ton-lite-client/dist/types';
import type { AccountStateInput } from '../converters';
import { masterchainBlockAt } from './blockRefs';
import { bocRoots, liteQuery, optionalBocRoot, parseLiteAnswer, tlBlockId } from './liteAnswers';

/**
 * Reading one account the way tonlib's `raw.getAccountState` does: at the current masterchain
 * head or at a given masterchain seqno, with the last transaction id and `sync_utime` taken from
 * the shard-state proof the lite server sends along.
 */

export interface AccountRead extends AccountStateInput {
  /** The masterchain block the state was read at (what `block_id` reports). */
  block: BlockID;
  /** The Account cell exactly as the lite server sent it; null when the account does not exist. */
  accountCell: Cell | null;
}

const SHARD_STATE_UNSPLIT = 0x9023afe2;

interface ShardStateView {
  genUtime: number;
  lastTransaction: { lt: bigint; hash: bigint } | null;
}

/**
 * The parts of the (pruned) ShardStateUnsplit we need: gen_utime, and the ShardAccount entry of
 * the account when the proof holds it. Parsed by hand up to the accounts dictionary because the
 * masterchain extras that follow are pruned or not needed.
 */
function readShardStateProof(proofRoot: Cell, accountId: Buffer): ShardStateView {
  const state: Slice = proofRoot.refs[0].beginParse(true);
  if (state.loadUint(32) !== SHARD_STATE_UNSPLIT) throw new Error('state proof does not hold a ShardStateUnsplit');
  state.skip(32); // global_id
  state.skip(2 + 6 + 32 + 64); // shard_ident
  state.skip(32 + 32); // seq_no, vert_seq_no
  const genUtime = state.loadUint(32);
  state.skip(64 + 32); // gen_lt, min_ref_mc_seqno
  state.loadRef(); // out_msg_queue_info
  state.skip(1); // before_split
  const accountsRoot = state.loadRef();
  if (accountsRoot.isExotic) return { genUtime, lastTransaction: null };
  const entry = loadShardAccounts(accountsRoot.beginParse()).get(BigInt(`0x${accountId.toString('hex')}`));
  if (!entry) return { genUtime, lastTransaction: null };
  const shardAccount = entry.shardAccount;
  return { genUtime, lastTransaction: { lt: shardAccount.lastTransactionLt, hash: shardAccount.lastTransactionHash } };
}

function parseAccountCell(cell: Cell): Account | null {
  const slice = cell.beginParse();
  return slice.loadBit() ? loadAccount(slice) : null;
}

/** The account at the given masterchain block. */
export async function readAccountAtBlock(client: LiteClient, address: Address, block: BlockID): Promise<AccountRead> {
  const answer = await liteQuery(client, {
    kind: 'liteServer.getAccountState',
    id: tlBlockId(block),
    account: { kind: 'liteServer.accountId', workchain: address.workChain, id: address.hash },
  });
  const stateCell = optionalBocRoot(answer.state, 'accountState state');
  const account = stateCell ? parseLiteAnswer('accountState state', () => parseAccountCell(stateCell)) : null;
  const accountCell = account ? stateCell : null;
  const proofRoots = bocRoots(answer.proof, 'accountState proof');
  const view =
    proofRoots.length >= 2
      ? parseLiteAnswer('accountState proof', () => readShardStateProof(proofRoots[1], address.hash))
      : { genUtime: 0, lastTransaction: null };
  const last = view.lastTransaction;
  return {
    address,
    account,
    accountCell,
    // A ShardAccount with lt 0 and a zero hash is tonlib's "no transaction yet".
    lastTransaction: account && last && (last.lt !== 0n || last.hash !== 0n) ? last : null,
    block: answer.id,
    syncUtime: view.genUtime,
  };
}

/** The account at masterchain `seqno`, or at the current head when seqno is undefined. */
export async function readAccount(client: LiteClient, address: Address, seqno?: number): Promise<AccountRead> {
  const block = await masterchainBlockAt(client, seqno);
  return readAccountAtBlock(client, address, block);
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
