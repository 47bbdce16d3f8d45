import { MASTERCHAIN } from '../constants';
import { type Address, beginCell } from '@ton/core';
import type { AccountState } from '../tl';
import { loadDepthBalanceInfo, loadShardAccountRef, type ShardAccountRef } from '../tlb';
import { bocRoots, sameBlock } from './answers';
import { checkShardProof, merkleProofContents, proofFailure, provenDictValue, provenState, proving } from './checks';
import type { McBlock } from './chainSession';

/**
 * tonlib's AccountState::validate / block::check_account_proof for one getAccountState answer
 * read at verified masterchain block `block`:
 * - the answer is about `block`; for a basechain account, `shard_proof` shows that `block`
 *   lists `shardblk` as the top block of the account's shard (masterchain accounts: shardblk is
 *   `block` itself);
 * - `proof` proves shardblk's state and, in it, the account's ShardAccount (or its absence);
 * - the account cell sent is the one that ShardAccount references.
 * Returns the proven ShardAccount (null for an account the state does not hold) with the state's
 * gen_utime, so the read takes both from here instead of parsing the proof again; null when the
 * masterchain proves the account's workchain has no shards.
 */

/** `account_none$0`: the Account of an account that does not exist. */
const ACCOUNT_NONE_HASH = beginCell().storeBit(0).endCell().hash();

export interface ProvenAccountState {
  readonly shardAccount: ShardAccountRef | null;
  readonly genUtime: number;
}

export function checkAccountState(block: McBlock, address: Address, answer: AccountState): ProvenAccountState | null {
  if (!sameBlock(answer.id, block)) proofFailure('account state: the answer is about another masterchain block');
  const accountPrefix = address.hash.readBigUInt64BE(0);
  if (address.workChain === MASTERCHAIN) {
    if (!sameBlock(answer.shardblk, block)) proofFailure('account state: a masterchain account read in another block');
  } else {
    if (answer.shardblk.workchain !== address.workChain && answer.shardblk.seqno !== 0)
      proofFailure('account state: the shard block is of another workchain');
    const hasShard = checkShardProof(block, answer.shardblk, address.workChain, accountPrefix, answer.shardProof);
    if (!hasShard) {
      // The masterchain state proves no shard holds this workchain: nothing can be there.
      if (answer.state.length > 0) proofFailure('account state: an account in a workchain without shards');
      return null;
    }
  }
  const what = 'account state proof';
  const [blockContent, stateContent] = merkleProofContents(answer.proof, 2, what);
  const { header } = provenState(blockContent, stateContent, answer.shardblk, what);
  const shard = header.shardId;
  const prefixMask =
    header.shardId.shardPrefixBits === 0 ? 0n : ((1n << BigInt(shard.shardPrefixBits)) - 1n) << BigInt(64 - shard.shardPrefixBits);
  if (shard.workchainId !== address.workChain || (accountPrefix & prefixMask) !== (shard.shardPrefix & prefixMask))
    proofFailure(`${what}: the state is of a shard that does not hold the account`);
  const shardAccount = proving(what, () => {
    if (header.accounts.isExotic) throw new Error('the accounts dictionary is pruned');
    const accounts = header.accounts.beginParse();
    const root = accounts.loadBit() ? accounts.loadRef() : null;
    const value = provenDictValue(root, 256, BigInt(`0x${address.hash.toString('hex')}`), what);
    if (!value) return null;
    loadDepthBalanceInfo(value);
    return loadShardAccountRef(value);
  });
  const stateRoots = proving('account state', () => bocRoots(answer.state, 'account state'));
  if (stateRoots.length > 1) proofFailure('account state: more than one account cell');
  const sent = stateRoots[0];
  const expected = shardAccount?.account.hash(0) ?? ACCOUNT_NONE_HASH;
  const sentHash = sent ? sent.hash() : ACCOUNT_NONE_HASH;
  if (!sentHash.equals(expected)) proofFailure('account state: the account cell is not the one the proven state holds');
  return { shardAccount, genUtime: header.genUtime };
}
